#include "distance_matrix_panel.h"

#include "distance_matrix_model.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace schedscope::gui {

DistanceMatrixPanel::DistanceMatrixPanel(QWidget *parent)
    : QWidget(parent), model_(new DistanceMatrixModel(this)), table_(new QTableView(this)), note_(new QLabel(this))
{
    table_->setModel(model_);
    // Narrow fixed cells: a 512-node matrix stays a scrollable grid rather
    // than an endless table of wide columns.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->horizontalHeader()->setDefaultSectionSize(40);
    table_->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table_->verticalHeader()->setDefaultSectionSize(22);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    note_->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(note_);
    layout->addWidget(table_);
}

void DistanceMatrixPanel::setTopology(std::shared_ptr<const Topology> topology)
{
    model_->setTopology(topology);
    if (!topology || topology->numa_count() == 0)
        note_->setText(tr("This machine has no NUMA node."));
    else if (!model_->isMeasured())
        note_->setText(tr("The source gave no distance matrix: 10 local, 20 remote assumed."));
    else
        note_->setText(tr("SLIT distances between %1 NUMA nodes (10 = local).").arg(topology->numa_count()));
}

} // namespace schedscope::gui
