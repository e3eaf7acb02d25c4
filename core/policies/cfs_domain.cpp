#include "policies/cfs_domain.h"

#include "policies/policy_text.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace schedscope {

namespace {

struct LevelInit {
    const char *name;
    int min_interval_ms, max_interval_ms, busy_factor, imbalance_pct, cache_nice_tries;
    int busy_idx, idle_idx, newidle_idx, wake_idx, forkexec_idx;
    unsigned flags;
};

// Linux 3.6 include/linux/topology.h: SD_SIBLING_INIT (fields it leaves
// out are zero: cache_nice_tries and every load index).
constexpr LevelInit kSiblingInit{"SMT",
                                 1,
                                 2,
                                 64,
                                 110,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 0,
                                 kCfsLoadBalance | kCfsBalanceNewIdle | kCfsBalanceExec | kCfsBalanceFork |
                                     kCfsWakeAffine | kCfsShareCpuPower | kCfsSharePkgResources};
// Linux 3.6 include/linux/topology.h: SD_MC_INIT (idle_idx, newidle_idx 0).
constexpr LevelInit kMcInit{"MC",
                            1,
                            4,
                            64,
                            125,
                            1,
                            2,
                            0,
                            0,
                            0,
                            0,
                            kCfsLoadBalance | kCfsBalanceNewIdle | kCfsBalanceExec | kCfsBalanceFork | kCfsWakeAffine |
                                kCfsSharePkgResources};
// Linux 3.6 include/linux/topology.h: SD_CPU_INIT (x86 keeps the generic one).
constexpr LevelInit kCpuInit{
    "CPU",
    1,
    4,
    64,
    125,
    1,
    2,
    1,
    0,
    0,
    0,
    kCfsLoadBalance | kCfsBalanceNewIdle | kCfsBalanceExec | kCfsBalanceFork | kCfsWakeAffine | kCfsPreferSibling};

// Linux 3.6 kernel/sched/core.c: sd_numa_init(): intervals from the span's
// CPU count (ms), busy_factor 32, cache_nice_tries 2, busy_idx 3, idle_idx 2,
// serialized; sd_local_flags(): exec/fork balancing and wake-affine only up
// to RECLAIM_DISTANCE.
LevelInit numa_init(int span_weight, int distance)
{
    LevelInit l{"NUMA", span_weight, 2 * span_weight,
                32,     125,         2,
                3,      2,           0,
                0,      0,           kCfsLoadBalance | kCfsBalanceNewIdle | kCfsSerialize};
    if (distance <= kReclaimDistance)
        l.flags |= kCfsBalanceExec | kCfsBalanceFork | kCfsWakeAffine;
    return l;
}

struct Candidate {
    std::function<CpuSet(int)> span_of;
    int distance = 0; // NUMA levels: their SLIT distance
    bool numa = false;
    const LevelInit *init = nullptr;
};

// Linux 3.6 kernel/sched/core.c: sd_degenerate().
bool degenerate(const CfsDomain &sd)
{
    if (sd.span_weight == 1)
        return true;
    const unsigned need_groups = kCfsLoadBalance | kCfsBalanceNewIdle | kCfsBalanceFork | kCfsBalanceExec |
                                 kCfsShareCpuPower | kCfsSharePkgResources;
    if ((sd.flags & need_groups) && sd.ngroups() > 1)
        return false;
    return !(sd.flags & kCfsWakeAffine);
}

// Linux 3.6 kernel/sched/core.c: sd_parent_degenerate().
bool parent_degenerate(const CfsDomain &sd, const CfsDomain &parent, int nr_nodes)
{
    if (degenerate(parent))
        return true;
    if (!(sd.span == parent.span))
        return false;
    unsigned pflags = parent.flags;
    if (parent.ngroups() == 1) {
        pflags &= ~(kCfsLoadBalance | kCfsBalanceNewIdle | kCfsBalanceFork | kCfsBalanceExec | kCfsShareCpuPower |
                    kCfsSharePkgResources);
        if (nr_nodes <= 1)
            pflags &= ~kCfsSerialize;
    }
    return (~sd.flags & pflags) == 0;
}

} // namespace

std::string CfsDomain::describe() const
{
    const std::string flags = flag_list({{has(kCfsBalanceNewIdle), "newidle"},
                                         {has(kCfsBalanceExec), "exec"},
                                         {has(kCfsBalanceFork), "fork"},
                                         {has(kCfsWakeAffine), "wake-affine"},
                                         {has(kCfsShareCpuPower), "share-cpupower"},
                                         {has(kCfsSharePkgResources), "share-pkg"},
                                         {has(kCfsSerialize), "serialize"},
                                         {has(kCfsPreferSibling), "prefer-sibling"}});
    return level + " {" + span.to_list_string() + "} " + std::to_string(ngroups()) + " groups, interval " +
           std::to_string(min_interval_ms) + "-" + std::to_string(max_interval_ms) + " ms, busy_factor " +
           std::to_string(busy_factor) + ", imbalance_pct " + std::to_string(imbalance_pct) + ", cache_nice_tries " +
           std::to_string(cache_nice_tries) + ", idx busy/idle/newidle/wake/forkexec " + std::to_string(busy_idx) +
           "/" + std::to_string(idle_idx) + "/" + std::to_string(newidle_idx) + "/" + std::to_string(wake_idx) + "/" +
           std::to_string(forkexec_idx) + ", flags " + flags;
}

std::vector<int> cfs_cpu_power(const Topology &topo)
{
    std::vector<int> power(static_cast<size_t>(topo.pu_count()), kSchedPowerScale);
    for (int pu = 0; pu < topo.pu_count(); ++pu) {
        const ObjId core = topo.ancestor_of_pu(pu, ObjType::Core);
        const int siblings = core == kNoObj ? 1 : topo.obj(core).cpuset.count();
        // Linux 3.6 kernel/sched/fair.c: update_cpu_power() with
        // default_scale_smt_power(): smt_gain / span weight of the SMT level.
        if (siblings > 1)
            power[static_cast<size_t>(pu)] = std::max(1, kSmtGain / siblings);
    }
    return power;
}

namespace {

// The levels a CPU's domains are built from, bottom up: Linux 3.6
// kernel/sched/core.c default_topology[] (SMT, MC, CPU), then
// sched_init_numa()'s, one per SLIT distance beyond the local one.
std::vector<Candidate> topology_levels(const Topology &topo)
{
    CpuSet all;
    for (int p = 0; p < topo.pu_count(); ++p)
        all.set(p);
    std::vector<Candidate> cands;
    cands.push_back({[&topo](int pu) {
                         const ObjId o = topo.ancestor_of_pu(pu, ObjType::Core);
                         return o == kNoObj ? single_pu(pu) : topo.obj(o).cpuset;
                     },
                     0, false, &kSiblingInit});
    const int llc = topo.last_cache_level();
    cands.push_back({[&topo, llc](int pu) {
                         CpuSet s = llc > 0 ? topo.pus_sharing_cache(pu, llc) : CpuSet{};
                         return s.empty() ? single_pu(pu) : s;
                     },
                     0, false, &kMcInit});
    // cpu_cpu_mask(): the CPU's node (every PU without NUMA).
    cands.push_back(
        {[&topo, all](int pu) { return topo.numa_count() > 1 ? topo.pus_of_node(topo.node_of_pu(pu)) : all; }, 0, false,
         &kCpuInit});
    if (topo.numa_count() > 1) {
        std::set<int> dists;
        for (int a = 0; a < topo.numa_count(); ++a)
            for (int b = 0; b < topo.numa_count(); ++b)
                if (topo.node_distance(a, b) > topo.node_distance(a, a))
                    dists.insert(topo.node_distance(a, b));
        for (int d : dists)
            cands.push_back({[&topo, d](int pu) { return pus_within_distance(topo, pu, d); }, d, true, nullptr});
    }
    return cands;
}

// Linux 3.6 kernel/sched/core.c: init_sched_groups_power(): each group's
// cpu_power, the sum of its CPUs' (at least 1); and which group holds `pu`.
void init_sched_groups_power(CfsDomain &sd, const std::vector<int> &power, int pu)
{
    const SchedDomain::Groups &groups = *sd.groups;
    for (size_t g = 0; g < groups.sets.size(); ++g) {
        int sum = 0;
        for (int k = groups.begin[g]; k < groups.begin[g + 1]; ++k)
            sum += power[static_cast<size_t>(groups.members[static_cast<size_t>(k)])];
        sd.group_power.push_back(std::max(1, sum));
        if (groups.sets[g].test(pu))
            sd.own_group = static_cast<int>(g);
    }
}

// The level's initialiser (SD_SIBLING_INIT, SD_MC_INIT, SD_CPU_INIT,
// sd_numa_init()) applied to the domain.
void sd_init(CfsDomain &sd, const LevelInit &init)
{
    sd.level = init.name;
    sd.min_interval_ms = init.min_interval_ms;
    sd.max_interval_ms = init.max_interval_ms;
    sd.busy_factor = init.busy_factor;
    sd.imbalance_pct = init.imbalance_pct;
    sd.cache_nice_tries = init.cache_nice_tries;
    sd.busy_idx = init.busy_idx;
    sd.idle_idx = init.idle_idx;
    sd.newidle_idx = init.newidle_idx;
    sd.wake_idx = init.wake_idx;
    sd.forkexec_idx = init.forkexec_idx;
    sd.flags = init.flags;
    sd.balance_interval_ms = sd.min_interval_ms; // .balance_interval of each initialiser
}

// Linux 3.6 kernel/sched/core.c: cpu_attach_domain(): drop parents that add
// nothing, then a degenerate base.
void cpu_attach_domain(std::vector<CfsDomain> &chain, int nr_nodes)
{
    for (size_t k = 0; k + 1 < chain.size();) {
        if (parent_degenerate(chain[k], chain[k + 1], nr_nodes))
            chain.erase(chain.begin() + static_cast<std::ptrdiff_t>(k) + 1);
        else
            ++k;
    }
    if (!chain.empty() && degenerate(chain.front()))
        chain.erase(chain.begin());
}

} // namespace

std::vector<std::vector<CfsDomain>> build_cfs_domains(const Topology &topo)
{
    // Linux 3.6 kernel/sched/core.c: build_sched_domains().
    const int npu = topo.pu_count();
    const auto power = cfs_cpu_power(topo);
    const std::vector<Candidate> cands = topology_levels(topo);
    std::vector<std::vector<CfsDomain>> out(static_cast<size_t>(npu));
    std::map<std::pair<std::string, size_t>, std::shared_ptr<const SchedDomain::Groups>> built;
    for (int pu = 0; pu < npu; ++pu) {
        std::vector<CfsDomain> chain;
        CpuSet prev;
        for (size_t c = 0; c < cands.size(); ++c) {
            CpuSet span = cands[c].span_of(pu);
            span |= prev; // a level always covers its child
            CfsDomain sd;
            sd.span = span;
            sd.span_weight = span.count();
            // Groups: the child level's span around each CPU of this span
            // (build_sched_groups(); the NUMA levels' overlapping groups of
            // build_overlap_sched_groups() are cut to the span, each CPU in
            // the first group that covers it). The child level's span
            // around q covers its own children, as every level does.
            auto &groups = built[{span.to_list_string(), c}];
            const auto child_span = [&](int q) {
                CpuSet grp = single_pu(q);
                for (size_t j = 0; j < c; ++j)
                    grp |= cands[j].span_of(q);
                return grp;
            };
            if (!groups)
                groups = build_sched_groups(span, child_span, true, [](SchedDomain::Groups &, const CpuSet &) {});
            sd.groups = groups;
            init_sched_groups_power(sd, power, pu);
            sd_init(sd, cands[c].numa ? numa_init(sd.span_weight, cands[c].distance) : *cands[c].init);
            chain.push_back(std::move(sd));
            prev = span;
        }
        cpu_attach_domain(chain, topo.numa_count());
        out[static_cast<size_t>(pu)] = std::move(chain);
    }
    return out;
}

} // namespace schedscope
