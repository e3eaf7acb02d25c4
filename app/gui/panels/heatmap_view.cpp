#include "panels/heatmap_view.h"

#include "panels/heatmap_model.h"

#include <QHeaderView>

#include <algorithm>

namespace schedscope::gui {

namespace {
constexpr int kCellWithValuePx = 44;
constexpr int kCellColourOnlyPx = 12;
constexpr int kCellTinyPx = 3; // hundreds of PUs: one matrix still fits on screen
// Rows a matrix shows at least, when it has them: 4 rows of a 64-PU
// matrix say nothing about where the moves go.
constexpr int kMinRowsShown = 16;
} // namespace

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
    const int row_px = values ? fontMetrics().height() + 6 : px;
    horizontalHeader()->setDefaultSectionSize(px);
    verticalHeader()->setDefaultSectionSize(row_px);
    // Labels that do not fit their cell would run into each other (a 64-PU
    // matrix's "62", "63" at 12 px): leave them out and let the tooltip name
    // the pair. Row labels need the font's height, column labels the widest number.
    const QString widest = QString::number(std::max(n - 1, 0));
    horizontalHeader()->setVisible(n > 0 && fontMetrics().horizontalAdvance(widest) + 4 <= px);
    verticalHeader()->setVisible(n > 0 && fontMetrics().height() <= row_px);
    // Show enough rows to read the matrix's shape without scrolling: all of
    // them up to kMinRowsShown, else that many (the dock scrolls instead).
    const int rows = std::min(n, kMinRowsShown);
    const int header = horizontalHeader()->isVisible() ? horizontalHeader()->sizeHint().height() : 0;
    setMinimumHeight(header + rows * row_px + 2 * frameWidth() + 2);
}

} // namespace schedscope::gui
