#pragma once
// The lessons beside the running panes: pick a lesson, read its
// text with the "try this" steps, open its scenario. The panel only asks:
// the main window opens the scenario when openScenarioRequested arrives.
//
//   auto *lessons = new LessonPanel;   // lessons from the resources
//   connect(lessons, &LessonPanel::openScenarioRequested, window, &MainWindow::openScenario);

#include "panels/lesson.h"

#include <QWidget>

#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QTextBrowser;

namespace schedscope::gui {

class LessonPanel : public QWidget {
    Q_OBJECT
public:
    explicit LessonPanel(QWidget *parent = nullptr);

    // Where lesson scenarios are looked up (default: samples/scenarios).
    void setScenarioDirectory(const QString &dir);
    void setLessons(std::vector<Lesson> lessons);
    const std::vector<Lesson> &lessons() const { return lessons_; }
    void setCurrentLesson(int index);
    int currentLesson() const;
    // Absolute path of a lesson's scenario (it may not exist).
    QString scenarioPath(int index) const;

public slots:
    void openCurrentScenario();

signals:
    void openScenarioRequested(const QString &path);

private:
    void showLesson(int index);

    std::vector<Lesson> lessons_;
    QString scenario_dir_;
    QComboBox *picker_ = nullptr;
    QTextBrowser *text_ = nullptr;
    QPushButton *open_ = nullptr;
    QLabel *missing_ = nullptr;
};

} // namespace schedscope::gui
