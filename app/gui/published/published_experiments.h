#pragma once
// Samples > Published experiments: every file of samples/published/ as a
// menu entry that opens it in the window as a scenario (its machine,
// workload and policies as panes; a sweep with more policies than panes in
// parts), draws its published figures on the charts as reference marks and
// brings up the table of ours beside theirs. Profile experiments (migration
// matrices) have no scenario: their machine opens, with the table.
//
// MainWindow only creates it (a child, found with findChild) and hands it
// the submenu; everything else lives here.

#include "published/published_scenarios.h"

#include <QObject>
#include <QString>

#include <optional>
#include <vector>

class QMenu;

namespace schedscope::gui {

class MainWindow;
class PublishedTableDialog;

class PublishedExperiments : public QObject {
    Q_OBJECT
public:
    explicit PublishedExperiments(MainWindow *window);

    // The experiments (published_dir()), read once; a bad file is an entry
    // that says why instead.
    void fillMenu(QMenu *menu);
    const std::vector<PublishedExperiment> &experiments() const { return experiments_; }
    QString loadError() const { return load_error_; }

    // Opens one of experiment `e`'s openings (published_openings) after the
    // unsaved-changes prompt; shows the table and, with `run`, starts it.
    bool open(const PublishedExperiment &e, std::size_t opening, bool run = true);
    PublishedTableDialog *table() const { return table_; }

private:
    void load();
    void documentChanged();
    void updateMarks();

    MainWindow *window_;
    std::vector<PublishedExperiment> experiments_;
    QString load_error_;
    bool loaded_ = false;
    PublishedTableDialog *table_ = nullptr;
    // What is shown: marks follow it until the document shows something else.
    std::optional<PublishedExperiment> shown_;
    std::optional<PublishedOpening> opening_;
};

} // namespace schedscope::gui
