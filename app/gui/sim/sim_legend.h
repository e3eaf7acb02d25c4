#pragma once
// The key to the panes' colours: processes (named from the current frame),
// migration distance classes with their line styles, idle PUs, cache heat
// and node memory bars. Reads every colour from sim_palette.h.

#include "pane_frame.h"
#include "topology/topology.h"

#include <QStringList>
#include <QWidget>

#include <string>
#include <vector>

namespace schedscope::gui {

class SimLegend : public QWidget {
    Q_OBJECT
public:
    explicit SimLegend(QWidget *parent = nullptr);
    void setProcesses(const std::vector<std::string> &names);
    // The migration classes to key: those the machine has (a migration can
    // be of no other), farthest first, so a narrow window that cuts the row
    // cuts the near moves rather than the remote ones.
    void setMigrationClasses(std::vector<DistanceClass> classes);
    const std::vector<DistanceClass> &migrationClasses() const { return classes_; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    std::vector<std::string> processes_;
    std::vector<DistanceClass> classes_;
};

// The migration classes between PU 0 and the other PUs, farthest first
// (machines are symmetric enough that PU 0 sees every class there is).
std::vector<DistanceClass> machine_migration_classes(const Topology &topology);

// Past this many processes the legend lists the first ones and "+N more"
// (kernbench forks hundreds).
inline constexpr int kLegendMaxProcesses = 12;
// The process entries the legend shows: the names, or past
// kLegendMaxProcesses one entry "N processes, a colour each".
QStringList legend_process_entries(const std::vector<std::string> &names);

} // namespace schedscope::gui
