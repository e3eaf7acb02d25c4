// schedscope-cli topo --topology SPEC [--json] [--save FILE.xml]: show a
// machine as schedscope models it, and keep it as hwloc XML.

#include "command.h"

#include "topology/hwloc_xml_export.h"
#include "topology/import.h"
#include "topology/topology_report.h"
#include "util/atomic_file.h"

#include <iostream>
#include <memory>

namespace schedscope::cli {
namespace {

struct TopoOptions {
    std::string spec;
    bool json = false;
    std::string save; // hwloc XML output, empty = none
};

int run_topo(const TopoOptions &opt)
{
    Topology t = load_topology(opt.spec);
    if (!opt.save.empty())
        write_file_atomically(opt.save, topology_to_hwloc_xml(t));
    if (opt.json) {
        std::cout << topology_json(t).dump(2) << "\n";
        return kExitOk;
    }
    std::cout << render_tree(t);
    if (std::string d = render_distances(t); !d.empty())
        std::cout << "\n" << d;
    std::cout << "\n" << t.name() << ": " << summary_line(t) << "\n";
    for (const auto &note : t.notes())
        std::cout << "note: " << note << "\n";
    if (!opt.save.empty())
        std::cout << "saved as hwloc XML: " << opt.save << "\n";
    return kExitOk;
}

const CommandRegistrar registrar{Command{
    "topo", [](CLI::App &app) -> std::function<int()> {
        auto opt = std::make_shared<TopoOptions>();
        auto *sub = app.add_subcommand("topo", "Print a topology as schedscope models it");
        sub->add_option("--topology,-t", opt->spec,
                        "detect | synthetic:STRING | sample:NAME | FILE (hwloc XML, numactl --hardware "
                        "output, .topo sample, scenario JSON) | FOLDER or TARBALL (hwloc-gather-topology "
                        "snapshot)")
            ->required();
        sub->add_flag("--json", opt->json, "Print one JSON object with the counts and the distance matrix");
        sub->add_option("--save", opt->save,
                        "Also write the topology to FILE as hwloc XML (lstopo -i FILE reads it; so does --topology)");
        return [opt] { return run_topo(*opt); };
    }}};

} // namespace
} // namespace schedscope::cli
