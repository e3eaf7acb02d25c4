// hwloc-gather-topology snapshots: a copy of a Linux machine's /sys and /proc
// trees, as a folder or as the tarball the tool writes. hwloc reads such a
// folder as its filesystem root, exactly as `lstopo -i FOLDER` does, so the
// caches, SMT siblings, packages, NUMA nodes with their memory and the SLIT
// all come from the snapshot, through the same conversion as detect.

#include "topology/archive_extract.h"
#include "topology/hwloc_convert.h"
#include "topology/import.h"

#include "util/input_error.h"

#include <filesystem>
#include <system_error>
#include <vector>

namespace fs = std::filesystem;

namespace schedscope {

namespace {

// What hwloc's Linux backend needs first: one folder per CPU.
constexpr const char *kCpuTree = "sys/devices/system/cpu";
// A folder given by the user may be large (a home folder by mistake); only
// this many of its entries are looked at for a snapshot inside it.
constexpr int kMaxFolderEntriesScanned = 4096;

const std::string kExpectedFolder =
    "expected a folder holding sys/devices/system/cpu/cpuN, as hwloc-gather-topology saves it";
const std::string kExpectedArchive =
    "expected an hwloc-gather-topology tarball (a folder holding sys/devices/system/cpu/cpuN inside)";

// sys/devices/system/cpu with at least one cpuN folder in it: without one,
// hwloc's Linux backend gives up (and says so on stderr).
bool has_cpu_tree(const fs::path &dir)
{
    std::error_code ec;
    if (!fs::is_directory(dir / kCpuTree, ec))
        return false;
    for (fs::directory_iterator it(dir / kCpuTree, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        std::error_code type_ec;
        if (name.size() > 3 && name.rfind("cpu", 0) == 0 &&
            name.find_first_not_of("0123456789", 3) == std::string::npos && it->is_directory(type_ec))
            return true;
    }
    return false;
}

// The snapshot's root: the folder itself, or the one folder in it that holds
// the trees (hwloc-gather-topology NAME writes NAME.tar.bz2 holding NAME/).
fs::path find_root(const fs::path &dir, const std::string &source, const std::string &expected)
{
    if (has_cpu_tree(dir))
        return dir;
    std::vector<fs::path> found;
    std::error_code ec;
    int scanned = 0;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end && scanned < kMaxFolderEntriesScanned;
         it.increment(ec), ++scanned) {
        std::error_code type_ec;
        if (it->is_directory(type_ec) && has_cpu_tree(it->path()))
            found.push_back(it->path());
    }
    if (found.size() == 1)
        return found.front();
    if (found.size() > 1)
        throw InputError(source, "holds " + std::to_string(found.size()) + " snapshots (" +
                                     found[0].filename().string() + ", " + found[1].filename().string() +
                                     "...): open one of them");
    throw InputError(source, "not a topology snapshot: " + expected);
}

Topology load_root(const fs::path &root, const std::string &source)
{
    // As lstopo -i FOLDER (hwloc 2.9, utils/hwloc/misc.h): the Linux backend
    // alone, reading below the root; HWLOC_THISSYSTEM unset so that the
    // topology is not taken for the running machine (no binding, no x86
    // CPUID of this host mixed in).
    const HwlocEnv env = {
        {"HWLOC_FSROOT", root.string()},
        {"HWLOC_COMPONENTS", std::string("linux,stop")},
        {"HWLOC_THISSYSTEM", std::nullopt},
        {"HWLOC_DUMPED_HWDATA_DIR", std::string("/var/run/hwloc")},
    };
    HwlocHandle h;
    if (load_hwloc(h.get(), env) != 0)
        throw InputError(source, "hwloc could not read the snapshot");
    Topology t = convert_hwloc(h.get(), source);
    t.set_name(source);
    if (t.numa_count() > 1 && !t.has_distances())
        t.add_note("no NUMA distances in the snapshot: remote distance assumed 20");
    return t;
}

} // namespace

Topology import_snapshot_folder(const std::string &folder, const std::string &source)
{
    return load_root(find_root(folder, source, kExpectedFolder), source);
}

Topology import_snapshot_archive(const std::string &data, const std::string &source)
{
    TempDir dir(source);
    extract_archive(data, source, dir.path());
    return load_root(find_root(dir.path(), source, kExpectedArchive), source);
}

} // namespace schedscope
