#pragma once
// Driving the main window in tests without a modal dialog: errors are
// collected instead of shown in a message box, "save changes?" is answered,
// and the event loop runs until a condition holds.

#include "main_window.h"

#include <catch2/catch.hpp>

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QMessageBox>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStringList>
#include <QTemporaryDir>

#include <functional>

namespace schedscope::test {

// A window that never opens a dialog: errors are collected, "save
// changes?" is answered by `answer`.
struct QuietWindow {
    gui::MainWindow window;
    QStringList errors;
    int answer = QMessageBox::Discard;
    int prompts = 0;
    QuietWindow()
    {
        window.setErrorSink([this](const QString &, const QString &text) { errors << text; });
        window.setSavePrompt([this](const QString &) {
            ++prompts;
            return answer;
        });
    }
};

inline bool wait_until(const std::function<bool()> &done, int timeout_ms = 20000)
{
    QElapsedTimer t;
    t.start();
    while (!done() && t.elapsed() < timeout_ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents, 20);
    return done();
}

inline QString write_file(const QTemporaryDir &dir, const QString &name, const QByteArray &content)
{
    QString path = dir.filePath(name);
    QFile f(path);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(content);
    return path;
}

// The app binary run headless (offscreen platform, the source tree's samples).
struct GuiRun {
    int exit_code = -1; // -1 if it crashed
    QString out, err;
};

inline GuiRun run_gui(const QStringList &args)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    env.insert("SCHEDSCOPE_SAMPLES_DIR", SCHEDSCOPE_SOURCE_SAMPLES_DIR);
    p.setProcessEnvironment(env);
    p.start(SCHEDSCOPE_GUI_PATH, args);
    REQUIRE(p.waitForFinished(120000));
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

// A sample scenario of the source tree, by file name.
inline QString scenario_path(const char *file)
{
    return QDir(QStringLiteral(SCHEDSCOPE_SOURCE_SAMPLES_DIR "/scenarios")).filePath(QString::fromLatin1(file));
}

} // namespace schedscope::test
