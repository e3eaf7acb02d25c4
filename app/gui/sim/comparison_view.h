#pragma once
// The panes of a comparison side by side (1-4, same machine, lockstep) with
// the colour legend below. It forwards each FrameSet to the panes and
// counts painted frames per second (the FPS figure of the status bar and
// of --benchmark-render).

#include "pane_frame.h"
#include "run_setup.h"

#include <QElapsedTimer>
#include <QWidget>

#include <vector>

class QGridLayout;

namespace schedscope::gui {

class SimLegend;
class SimulationPane;

class ComparisonView : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonView(QWidget *parent = nullptr);

    void setSetup(const RunSetupPtr &setup);
    int paneCount() const { return static_cast<int>(panes_.size()); }
    SimulationPane *pane(int i) const { return panes_.at(i); }
    SimLegend *legend() const { return legend_; }
    int columns() const { return columns_; }
    // Every pane back to its whole machine (View > Fit to window, Ctrl+0).
    void fitPanes();
    // Frames shown per second over the last second.
    double fps() const { return fps_; }

public slots:
    void showFrame(schedscope::gui::FrameSetPtr frame);
    // Starts counting afresh (on play): a second that spans a pause is no rate.
    void restartFpsCount();

signals:
    void editPaneRequested(int pane);
    void fpsChanged(double fps);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void arrangePanes(); // in the grid, by choose_pane_columns for the current size
    // Every pane's header as tall as the tallest one needs, so the drawings
    // line up when one title wraps to two lines.
    void alignHeaders();

    QGridLayout *grid_;
    int columns_ = 0;
    SimLegend *legend_;
    std::vector<SimulationPane *> panes_;
    QElapsedTimer fps_clock_;
    int fps_frames_ = 0;
    double fps_ = 0;
};

// How many columns n panes take in a w x h area (pixels): the full grid of
// at most two rows whose panes' drawing area (below their header) comes
// closest to a wide screen's shape, without a pane under its minimum size.
// Four panes are 2 x 2 in a roomy area and a row of four when the charts
// leave them a strip.
int choose_pane_columns(int n, double w, double h);

// What a pane header says after the policy name: what its label says
// (scenario/pane_label.h: the parameters that set it apart from the other
// panes of its policy, by the same names), then its other parameters away
// from their defaults, all after the user's label in quotes if it has one.
QString params_summary(const std::vector<PolicySpec> &policies, int pane);

} // namespace schedscope::gui
