#pragma once
// The scenario being shown: where it came from, whether it has unsaved
// changes, and the recent-files list (QSettings). Saving goes through
// save_scenario, which is atomic: a failed save leaves the old file intact.

#include "scenario/scenario.h"

#include <QObject>
#include <QString>
#include <QStringList>

namespace schedscope::gui {

class ScenarioDocument : public QObject {
    Q_OBJECT
public:
    explicit ScenarioDocument(QObject *parent = nullptr);

    const Scenario &scenario() const { return scenario_; }
    QString path() const { return path_; }
    bool isDirty() const { return dirty_; }
    QString displayName() const;

    // A freshly opened or built scenario: clean, with its file (or none).
    void reset(const Scenario &scenario, const QString &path);
    // The user changed it in the GUI (a policy's parameters...).
    void modify(const Scenario &scenario);
    // Throws InputError or std::exception on failure; on success the
    // document is clean and `path` becomes its file and a recent file.
    void saveAs(const QString &path);

    static QStringList recentFiles();
    static void addRecentFile(const QString &path);
    static constexpr int kMaxRecentFiles = 8;

signals:
    void changed();

private:
    Scenario scenario_;
    QString path_;
    bool dirty_ = false;
};

} // namespace schedscope::gui
