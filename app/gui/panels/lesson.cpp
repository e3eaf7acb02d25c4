#include "panels/lesson.h"

#include "topology/import.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <regex>
#include <stdexcept>

// Q_INIT_RESOURCE must be called from the global namespace; the lessons live
// in a static library whose resource object the linker would otherwise drop.
static void init_lesson_resources() { Q_INIT_RESOURCE(lessons); }

namespace schedscope::gui {

Lesson parse_lesson(const std::string &id, const std::string &text)
{
    Lesson lesson;
    lesson.id = id;
    lesson.markdown = text;
    static const std::regex scenario_re(R"(<!--\s*scenario:\s*(\S+)\s*-->)");
    static const std::regex title_re(R"((^|\n)#\s+([^\n]+))");
    std::smatch m;
    if (!std::regex_search(text, m, scenario_re))
        throw std::invalid_argument(id + ": no '<!-- scenario: FILE -->' line");
    lesson.scenario = m[1].str();
    if (!std::regex_search(text, m, title_re))
        throw std::invalid_argument(id + ": no '# Title' heading");
    lesson.title = m[2].str();
    return lesson;
}

std::vector<Lesson> builtin_lessons()
{
    init_lesson_resources();
    std::vector<Lesson> out;
    const QDir dir(QStringLiteral(":/schedscope/lessons"));
    for (const QString &name : dir.entryList({QStringLiteral("*.md")}, QDir::Files, QDir::Name)) {
        QFile f(dir.filePath(name));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QByteArray bytes = f.readAll();
        out.push_back(parse_lesson(QFileInfo(name).completeBaseName().toStdString(), bytes.toStdString()));
    }
    return out;
}

std::string default_scenario_dir()
{
    return QDir(QString::fromStdString(samples_dir())).filePath(QStringLiteral("scenarios")).toStdString();
}

} // namespace schedscope::gui
