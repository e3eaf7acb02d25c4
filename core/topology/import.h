#pragma once
// Every way a topology gets into schedscope. All of them throw InputError
// (core/util/input_error.h) naming the source, line and what was wrong.

#include "topology/topology.h"

#include <nlohmann/json_fwd.hpp>

#include <string>
#include <vector>

namespace schedscope {

// The running machine, through hwloc.
Topology import_detect();
// hwloc XML (v1 or v2), loaded through hwloc itself. `source` names it in errors.
Topology import_hwloc_xml(const std::string &xml_text, const std::string &source);
// An hwloc synthetic description such as "pack:2 [numa] l3:1 core:6 pu:2".
Topology import_synthetic(const std::string &description);
// The text printed by `numactl --hardware`.
Topology import_numactl(const std::string &text, const std::string &source);
// schedscope's sample format (samples/topologies/*.topo): see samples/topologies/README.md.
Topology import_sample_text(const std::string &text, const std::string &source);
// An hwloc-gather-topology snapshot: a folder holding a Linux machine's
// sys/devices/system/cpu (or holding one folder that does), read by hwloc as
// its filesystem root, as `lstopo -i FOLDER` does.
Topology import_snapshot_folder(const std::string &folder, const std::string &source);
// The tarball hwloc-gather-topology writes (tar, optionally gzip, bzip2 or xz
// compressed), unpacked into a private temporary folder that is removed
// afterwards. Hostile archives are refused (archive_extract.h).
Topology import_snapshot_archive(const std::string &data, const std::string &source);

// Recognise the kind from the content (not the extension) and import it.
// A scenario JSON with an embedded topology is handed to the scenario hook.
Topology import_text(const std::string &text, const std::string &source);

// The "topology" value of a scenario file: a SPEC string (a relative path is
// relative to the scenario file `source`) or {"synthetic": ..., "distances": ...}.
Topology import_scenario_topology(const nlohmann::json &value, const std::string &source);

// The one spelling used by the CLI and the GUI:
//   "detect" | "synthetic:STRING" | "sample:NAME" | a file path |
//   a snapshot folder | a snapshot tarball
Topology load_topology(const std::string &spec);

struct SampleInfo {
    std::string name;    // "p3-xeon-8way"
    std::string path;    // absolute path of the file
    std::string summary; // first descriptive line of its header
};
// Directory holding samples/ (env SCHEDSCOPE_SAMPLES_DIR, next to the binary
// under ../share/schedscope/samples, or the source tree).
std::string samples_dir();
std::vector<SampleInfo> list_sample_topologies();

} // namespace schedscope
