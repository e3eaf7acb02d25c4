#include "scenario_document.h"

#include <QFileInfo>
#include <QSettings>

namespace schedscope::gui {

namespace {
const char *const kRecentKey = "recentScenarios";
}

ScenarioDocument::ScenarioDocument(QObject *parent) : QObject(parent) {}

QString ScenarioDocument::displayName() const
{
    QString name = path_.isEmpty() ? QString::fromStdString(scenario_.name) : QFileInfo(path_).fileName();
    if (name.isEmpty())
        name = tr("untitled");
    return dirty_ ? name + QStringLiteral(" *") : name;
}

void ScenarioDocument::reset(const Scenario &scenario, const QString &path)
{
    scenario_ = scenario;
    path_ = path;
    dirty_ = false;
    if (!path.isEmpty())
        addRecentFile(path);
    emit changed();
}

void ScenarioDocument::modify(const Scenario &scenario)
{
    scenario_ = scenario;
    dirty_ = true;
    emit changed();
}

void ScenarioDocument::saveAs(const QString &path)
{
    Scenario s = scenario_;
    save_scenario(s, path.toStdString());
    path_ = path;
    scenario_.source = path.toStdString();
    dirty_ = false;
    addRecentFile(path);
    emit changed();
}

QStringList ScenarioDocument::recentFiles()
{
    return QSettings().value(QString::fromLatin1(kRecentKey)).toStringList();
}

void ScenarioDocument::addRecentFile(const QString &path)
{
    const QString abs = QFileInfo(path).absoluteFilePath();
    QStringList list = recentFiles();
    list.removeAll(abs);
    list.prepend(abs);
    while (list.size() > kMaxRecentFiles)
        list.removeLast();
    QSettings().setValue(QString::fromLatin1(kRecentKey), list);
}

} // namespace schedscope::gui
