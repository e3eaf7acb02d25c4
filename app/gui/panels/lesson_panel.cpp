#include "panels/lesson_panel.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QPushButton>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <exception>

namespace schedscope::gui {

LessonPanel::LessonPanel(QWidget *parent) : QWidget(parent)
{
    scenario_dir_ = QString::fromStdString(default_scenario_dir());
    picker_ = new QComboBox(this);
    text_ = new QTextBrowser(this);
    text_->setOpenExternalLinks(true);
    open_ = new QPushButton(tr("Open this lesson's scenario"), this);
    missing_ = new QLabel(this);
    missing_->setWordWrap(true);
    missing_->setStyleSheet(QStringLiteral("color: #a00"));
    connect(picker_, &QComboBox::currentIndexChanged, this, &LessonPanel::showLesson);
    connect(open_, &QPushButton::clicked, this, &LessonPanel::openCurrentScenario);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(picker_);
    layout->addWidget(text_, 1);
    layout->addWidget(missing_);
    layout->addWidget(open_);

    std::vector<Lesson> lessons;
    try {
        lessons = builtin_lessons();
    } catch (const std::exception &e) {
        // A malformed lesson is a packaging bug; say so instead of an empty panel.
        missing_->setText(tr("Lessons could not be read: %1").arg(QString::fromStdString(e.what())));
    }
    setLessons(std::move(lessons));
}

void LessonPanel::setScenarioDirectory(const QString &dir)
{
    scenario_dir_ = dir;
    showLesson(currentLesson());
}

void LessonPanel::setLessons(std::vector<Lesson> lessons)
{
    lessons_ = std::move(lessons);
    const QSignalBlocker block(picker_);
    picker_->clear();
    for (const Lesson &l : lessons_)
        picker_->addItem(QString::fromStdString(l.title));
    picker_->setCurrentIndex(lessons_.empty() ? -1 : 0);
    showLesson(picker_->currentIndex());
}

void LessonPanel::setCurrentLesson(int index) { picker_->setCurrentIndex(index); }
int LessonPanel::currentLesson() const { return picker_->currentIndex(); }

QString LessonPanel::scenarioPath(int index) const
{
    if (index < 0 || index >= static_cast<int>(lessons_.size()))
        return {};
    return QDir(scenario_dir_).absoluteFilePath(QString::fromStdString(lessons_[index].scenario));
}

void LessonPanel::showLesson(int index)
{
    if (index < 0 || index >= static_cast<int>(lessons_.size())) {
        text_->clear();
        open_->setEnabled(false);
        return;
    }
    text_->setMarkdown(QString::fromStdString(lessons_[index].markdown));
    const bool exists = QFileInfo::exists(scenarioPath(index));
    open_->setEnabled(exists);
    missing_->setText(
        exists
            ? QString()
            : tr("Scenario %1 not found in %2.").arg(QString::fromStdString(lessons_[index].scenario), scenario_dir_));
    missing_->setVisible(!exists);
}

void LessonPanel::openCurrentScenario()
{
    const QString path = scenarioPath(currentLesson());
    if (!path.isEmpty() && QFileInfo::exists(path))
        emit openScenarioRequested(path);
}

} // namespace schedscope::gui
