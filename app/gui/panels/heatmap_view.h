#pragma once
// A table view sized for a HeatmapModel: square cells, numbers while they
// fit (up to kMaxPusWithValues PUs), colour only beyond, so a 64-PU matrix
// still shows its blocks at a glance. Emits the clicked (source, target).

#include <QTableView>

namespace schedscope::gui {

class HeatmapModel;

class HeatmapView : public QTableView {
    Q_OBJECT
public:
    // Beyond this many PUs a cell is too small for its number.
    static constexpr int kMaxPusWithValues = 16;

    explicit HeatmapView(QWidget *parent = nullptr);
    void setHeatmap(HeatmapModel *model);
    // Re-reads the model's size: call after its matrix changed.
    void fitCells();

signals:
    void cellClicked(int source, int target);

private:
    HeatmapModel *heatmap_ = nullptr;
};

} // namespace schedscope::gui
