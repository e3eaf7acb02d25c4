#include "panels/heatmap_view.h"

#include "panels/heatmap_model.h"

#include <QHeaderView>

namespace schedscope::gui {

namespace {
constexpr int kCellWithValuePx = 44;
constexpr int kCellColourOnlyPx = 12;
constexpr int kCellTinyPx = 3; // hundreds of PUs: one matrix still fits on screen
}

HeatmapView::HeatmapView(QWidget *parent) : QTableView(parent)
{
    setShowGrid(false);
    setSelectionMode(QAbstractItemView::SingleSelection);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (QHeaderView *h : {horizontalHeader(), verticalHeader()}) {
        h->setSectionResizeMode(QHeaderView::Fixed);
        h->setMinimumSectionSize(1);
        h->setHighlightSections(false);
    }
    connect(this, &QTableView::clicked, this,
            [this](const QModelIndex &index) { emit cellClicked(index.row(), index.column()); });
}

void HeatmapView::setHeatmap(HeatmapModel *model)
{
    heatmap_ = model;
    setModel(model);
    connect(model, &QAbstractItemModel::modelReset, this, &HeatmapView::fitCells);
    fitCells();
}

void HeatmapView::fitCells()
{
    if (!heatmap_)
        return;
    const int n = heatmap_->size();
    const bool values = n <= kMaxPusWithValues;
    heatmap_->setShowValues(values);
    const int px = values ? kCellWithValuePx : (n <= 128 ? kCellColourOnlyPx : kCellTinyPx);
    horizontalHeader()->setDefaultSectionSize(px);
    verticalHeader()->setDefaultSectionSize(values ? fontMetrics().height() + 6 : px);
    // Header labels of a colour-only matrix would overlap: hide them and let
    // the tooltip name the pair.
    horizontalHeader()->setVisible(n <= 128);
    verticalHeader()->setVisible(n <= 128);
}

} // namespace schedscope::gui
