#pragma once
// Saving a user's file without ever leaving it half written.

#include <string>

namespace schedscope {

// Writes `contents` to a temporary file beside `path`, flushes it to disk and
// renames it over `path`. On any failure the temporary is removed and `path`
// is untouched. Throws InputError(path, ...).
void write_file_atomically(const std::string &path, const std::string &contents);

} // namespace schedscope
