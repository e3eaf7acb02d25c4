#pragma once
// File > Export trace without the dialog: what to export (every pane of the
// comparison from time zero) and the two calls the dialog makes, estimate
// and export, both meant for a thread other than the GUI's. Tests call them
// directly; the dialog and start_trace_export() only add the widgets.

#include "export/trace_export.h"
#include "sim/run_setup.h"
#include "topology_opener.h"

#include <QString>

#include <atomic>
#include <functional>
#include <string>
#include <vector>

class QWidget;

namespace schedscope::gui {

struct TraceExportJob {
    RunSetupPtr setup; // the comparison: its scenario, machine and panes' policies
    std::string path;  // the file (ftrace of several panes: one file each, see trace_output_paths)
    TraceOptions options;
};

// The panes' labels (scenario/pane_label.h), as everywhere else in the GUI.
std::vector<std::string> trace_run_names(const RunSetup &setup);

// Both build each pane's time-0 simulation afresh (the engine is
// deterministic, so it replays what the panes show) and may take as long
// as the runs: call them off the GUI thread. They throw InputError or
// std::exception with a message fit for the user.
// `stop`, if given, is read after each slice of the pre-run: once true, the
// estimate returns early with `cancelled` set.
TraceSizeEstimate estimate_trace_job(const TraceExportJob &job, const std::atomic<bool> *stop = nullptr);
TraceExportResult run_trace_job(const TraceExportJob &job);

// "12.3 MB", or "about 12.3 MB (...)" when not exact; a second line warns
// when a Chrome JSON would be too large for the trace viewers.
QString describe_trace_size(const TraceSizeEstimate &estimate, TraceFormat format);

// Runs run_trace_job on its own thread behind a window-modal progress
// dialog with Cancel and returns at once; errors go to `errors` (the
// window's sink: a message box), the outcome to `status` ("Trace written
// to ...", "Trace export cancelled").
void start_trace_export(QWidget *parent, TraceExportJob job, std::function<void(const QString &)> status,
                        ErrorSink errors);

} // namespace schedscope::gui
