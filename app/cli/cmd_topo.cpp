// schedscope-cli topo --topology SPEC [--json]: show a machine as schedscope
// models it.

#include "command.h"

#include "topology/import.h"
#include "topology/topology_report.h"

#include <iostream>
#include <memory>

namespace schedscope::cli {
namespace {

struct TopoOptions {
    std::string spec;
    bool json = false;
};

int run_topo(const TopoOptions &opt)
{
    Topology t = load_topology(opt.spec);
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
    return kExitOk;
}

const CommandRegistrar registrar{Command{
    "topo", [](CLI::App &app) -> std::function<int()> {
        auto opt = std::make_shared<TopoOptions>();
        auto *sub = app.add_subcommand("topo", "Print a topology as schedscope models it");
        sub->add_option("--topology,-t", opt->spec,
                        "detect | synthetic:STRING | sample:NAME | FILE (hwloc XML, numactl --hardware "
                        "output, .topo sample, scenario JSON)")
            ->required();
        sub->add_flag("--json", opt->json, "Print one JSON object with the counts and the distance matrix");
        return [opt] { return run_topo(*opt); };
    }}};

} // namespace
} // namespace schedscope::cli
