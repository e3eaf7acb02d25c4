#pragma once
// The NUMA distance matrix on demand (a dock in the main window): the table
// plus a line saying whether the values were measured or assumed.

#include <QWidget>

#include <memory>

class QLabel;
class QTableView;

namespace schedscope {
class Topology;
}

namespace schedscope::gui {

class DistanceMatrixModel;

class DistanceMatrixPanel : public QWidget {
    Q_OBJECT
public:
    explicit DistanceMatrixPanel(QWidget *parent = nullptr);
    void setTopology(std::shared_ptr<const Topology> topology);
    DistanceMatrixModel *model() const { return model_; }

private:
    DistanceMatrixModel *model_;
    QTableView *table_;
    QLabel *note_;
};

} // namespace schedscope::gui
