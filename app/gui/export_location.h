#pragma once
// Where the export dialogs start. Not the working directory (a program
// started from a menu has "/" or the install directory there): the folder
// of the last export, remembered between sessions, else the user's
// Pictures folder for images or Documents for data and traces, else home.

#include <QString>

class QSettings;

namespace schedscope::gui {

enum class ExportKind { Image, Data };

// The folder a dialog opens in, given the last one used ("" = none). Pure
// but for checking that folders exist.
QString export_start_dir(const QString &last_dir, ExportKind kind);

// `file_name` in the starting folder for `kind`, reading the last folder
// from QSettings.
QString export_start_path(const QString &file_name, ExportKind kind);
QString export_start_path(QSettings &settings, const QString &file_name, ExportKind kind);

// Remembers the folder of a file just exported (empty paths are ignored).
void remember_export_path(const QString &path);
void remember_export_path(QSettings &settings, const QString &path);

} // namespace schedscope::gui
