// schedscope-cli list: what a user can pick from. Each kind of item is one
// section; later issues add "Policies:" and "Workloads:" to kListSections.

#include "command.h"

#include "topology/import.h"
#include "topology/topology_report.h"

#include <iomanip>
#include <iostream>

namespace schedscope::cli {
namespace {

void print_topologies(std::ostream &out)
{
    auto samples = list_sample_topologies();
    if (samples.empty()) {
        out << "  (no samples found in " << samples_dir() << "/topologies)\n";
        return;
    }
    size_t width = 0;
    for (const auto &s : samples)
        width = std::max(width, s.name.size());
    for (const auto &s : samples)
        out << "  " << std::left << std::setw(static_cast<int>(width)) << s.name << "  " << s.summary << "\n";
    out << "  (use as --topology sample:NAME; also detect, synthetic:STRING or a file)\n";
}

struct ListSection {
    const char *heading;
    void (*print)(std::ostream &);
};

// The sections printed by `list`, in order. Add new kinds of items here.
const ListSection kListSections[] = {
    {"Topologies:", print_topologies},
};

int run_list()
{
    bool first = true;
    for (const auto &section : kListSections) {
        if (!first)
            std::cout << "\n";
        first = false;
        std::cout << section.heading << "\n";
        section.print(std::cout);
    }
    return kExitOk;
}

const CommandRegistrar registrar{Command{
    "list", [](CLI::App &app) -> std::function<int()> {
        app.add_subcommand("list", "List the sample topologies (and later policies and workloads)");
        return [] { return run_list(); };
    }}};

} // namespace
} // namespace schedscope::cli
