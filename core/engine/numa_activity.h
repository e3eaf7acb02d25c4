#pragma once
// What the engine counts of NUMA balancing's page-table and copy work (the
// actions of engine/policy_actions.h that charge it), for tests and
// reports. Each counter is cumulative over the run.

#include <cstdint>

namespace schedscope {

struct NumaActivity {
    std::int64_t pages_scanned = 0;      // pages covered by the ptes/pmds walked to arm hinting faults
    std::int64_t fault_traps = 0;        // hinting-fault exceptions taken
    std::int64_t fault_pages = 0;        // pages those faults handled
    std::int64_t tlb_shootdown_ipis = 0; // TLB-flush IPIs to other PUs running the process
    std::int64_t pages_migrated = 0;     // base pages copied to another node
    std::int64_t thp_splits = 0;         // huge pages split so that they could migrate (vmstat thp_split)
    std::int64_t thp_collapses = 0;      // huge pages khugepaged built again (vmstat thp_collapse_alloc)
};

} // namespace schedscope
