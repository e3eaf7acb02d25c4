#include "export_location.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QStandardPaths>

namespace schedscope::gui {

namespace {
const char *const kLastExportDirKey = "export/lastDir";
}

QString export_start_dir(const QString &last_dir, ExportKind kind)
{
    if (!last_dir.isEmpty() && QFileInfo(last_dir).isDir())
        return last_dir;
    const QString standard = QStandardPaths::writableLocation(
        kind == ExportKind::Image ? QStandardPaths::PicturesLocation : QStandardPaths::DocumentsLocation);
    if (!standard.isEmpty() && QFileInfo(standard).isDir())
        return standard;
    return QDir::homePath();
}

QString export_start_path(QSettings &settings, const QString &file_name, ExportKind kind)
{
    return QDir(export_start_dir(settings.value(QLatin1String(kLastExportDirKey)).toString(), kind))
        .filePath(file_name);
}

QString export_start_path(const QString &file_name, ExportKind kind)
{
    QSettings settings;
    return export_start_path(settings, file_name, kind);
}

void remember_export_path(QSettings &settings, const QString &path)
{
    if (!path.isEmpty())
        settings.setValue(QLatin1String(kLastExportDirKey), QFileInfo(path).absolutePath());
}

void remember_export_path(const QString &path)
{
    QSettings settings;
    remember_export_path(settings, path);
}

} // namespace schedscope::gui
