#pragma once
// What the two Slurm manifests (sweep.json of `sweep --slurm`,
// reproduce.json of `reproduce --slurm`) and the files their tasks write
// share when read back: the file's text, field access whose every failure
// names the file and the field, and the "scripts" array. Internal to
// core/sweep.

#include "sweep/slurm_collect.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace schedscope {

// The whole file, or false when it cannot be opened or read.
bool read_slurm_text(const std::string &path, std::string &out);

// The file read and parsed; InputError "cannot read it" + `hint` when it
// cannot be read, naming the line when it is not JSON.
nlohmann::json read_slurm_json(const std::string &path, const std::string &hint = "");

// Field access that names the file and the field on every failure.
class ManifestFields {
public:
    explicit ManifestFields(std::string source) : source_(std::move(source)) {}
    const std::string &source() const { return source_; }
    [[noreturn]] void fail(const std::string &field, const std::string &msg) const;
    // obj.key, where `field` is obj's own path (empty for the document).
    const nlohmann::json &at(const nlohmann::json &obj, const std::string &key, const std::string &field) const;
    std::string str(const nlohmann::json &v, const std::string &field) const;
    double num(const nlohmann::json &v, const std::string &field) const;
    std::uint64_t whole(const nlohmann::json &v, const std::string &field) const;
    bool boolean(const nlohmann::json &v, const std::string &field) const;
    std::vector<std::string> strings(const nlohmann::json &v, const std::string &field) const;
    // Point ranges of a task, each within [0, points).
    std::vector<PointRange> ranges(const nlohmann::json &v, std::size_t points, const std::string &field) const;
    // The manifest's "scripts" array, as slurm_scripts_json writes it.
    std::vector<SlurmScript> scripts(const nlohmann::json &manifest, std::size_t points) const;

private:
    std::string source_;
};

} // namespace schedscope
