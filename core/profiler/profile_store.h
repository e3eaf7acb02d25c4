#pragma once
// A migration profile on disk: the JSON document written by
// `schedscope-cli profile --json/--save` and read back by the sched-domains
// policy (autotune=profile). Writes are atomic: a reader never sees half a
// file, and a failed write leaves an existing file as it was.

#include "profiler/migration_profile.h"
#include "util/atomic_file.h"

#include <nlohmann/json.hpp>

#include <string>

namespace schedscope {

// Bumped when a field changes meaning; load_profile refuses newer versions.
inline constexpr int kProfileFormatVersion = 1;

// Unknown (NaN) costs are written as null.
nlohmann::json profile_to_json(const MigrationProfile &profile);
// Throws InputError naming `source` and the offending field.
MigrationProfile profile_from_json(const nlohmann::json &doc, const std::string &source);

// Throws InputError when the file cannot be written (the path is the user's).
void save_profile(const MigrationProfile &profile, const std::string &path);
// Throws InputError when the file is missing, not JSON or not a profile.
MigrationProfile load_profile(const std::string &path);

} // namespace schedscope
