#include "policies/sched_domain.h"

#include "policies/policy_text.h"
#include "profiler/migration_profile.h"

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

namespace schedscope {

namespace {

// Tunables of the 2.6.9 initialisers (include/linux/sched.h in 2.6.9):
// SD_SIBLING_INIT for SMT, SD_CPU_INIT for cache/package/node levels,
// SD_NODE_INIT for levels that cross NUMA nodes. Intervals are in ms (the
// kernel's are in jiffies at HZ=1000). SD_WAKE_BALANCE is set by
// SD_CPU_INIT and SD_NODE_INIT, not by SD_SIBLING_INIT; the node level has
// no SD_BALANCE_NEWIDLE and no SD_WAKE_AFFINE. Cache-hot times and
// cache_nice_tries per level come from BalancerParams (hot_ms_for,
// nice_tries_for).
struct LevelTunables {
    double min_interval_ms, max_interval_ms;
    int busy_factor, imbalance_pct;
    unsigned flags;
};
constexpr LevelTunables kSiblingInit{1, 2, 8, 110, kSdBalanceNewIdle | kSdBalanceExec | kSdWakeAffine | kSdWakeIdle};
constexpr LevelTunables kCpuInit{1, 4, 64, 125, kSdBalanceNewIdle | kSdBalanceExec | kSdWakeAffine | kSdWakeBalance};
constexpr LevelTunables kNodeInit{8, 32, 32, 125, kSdBalanceExec | kSdWakeBalance};

// Linux 2.6.9 kernel/sched.c: arch_init_sched_domains(): a physical
// package's power is SCHED_LOAD_SCALE + SCHED_LOAD_SCALE * (siblings - 1) /
// 10, and a node's the sum of its packages'. A group sums that over the
// cores it holds (a lone PU: SCHED_LOAD_SCALE).
long group_power(const Topology &topo, const CpuSet &grp)
{
    std::map<ObjId, int> pus_per_core;
    long power = 0;
    for (int q = grp.first(); q >= 0; q = grp.next(q)) {
        const ObjId core = topo.ancestor_of_pu(q, ObjType::Core);
        if (core == kNoObj)
            power += kLoadScale;
        else
            ++pus_per_core[core];
    }
    for (const auto &[core, n] : pus_per_core)
        power += kLoadScale + kLoadScale * (n - 1) / 10;
    return power;
}

CpuSet object_span(const Topology &topo, int pu, ObjType type)
{
    const ObjId o = topo.ancestor_of_pu(pu, type);
    return o == kNoObj ? single_pu(pu) : topo.obj(o).cpuset;
}

// The candidate spans around one PU, as generators so that a level's groups
// can be built from the same generator applied to the other PUs.
using SpanOf = std::function<CpuSet(int)>;

std::vector<SpanOf> candidate_generators(const Topology &topo)
{
    std::vector<SpanOf> gens;
    gens.emplace_back([&topo](int pu) { return object_span(topo, pu, ObjType::Core); });
    if (const int llc = topo.last_cache_level(); llc > 0)
        gens.emplace_back([&topo, llc](int pu) {
            CpuSet s = topo.pus_sharing_cache(pu, llc);
            return s.empty() ? single_pu(pu) : s;
        });
    gens.emplace_back([&topo](int pu) { return object_span(topo, pu, ObjType::Package); });
    if (topo.numa_count() > 1) {
        gens.emplace_back([&topo](int pu) { return topo.pus_of_node(topo.node_of_pu(pu)); });
        // One level per distinct SLIT distance, as later kernels build them.
        std::set<int> dists;
        for (int a = 0; a < topo.numa_count(); ++a)
            for (int b = 0; b < topo.numa_count(); ++b)
                if (a != b)
                    dists.insert(topo.node_distance(a, b));
        // The span depends on the PU's node only: each node's is built once
        // (a 512-node machine would otherwise OR 512 node sets per PU and
        // distance, in every Simulation it builds). A node with every node
        // within the distance has the span of every such node (the same
        // union in the same order), built once for all of them: altix-1024's
        // one distance is such, and its 512 spans took 512 unions each.
        for (int d : dists) {
            auto by_node = std::make_shared<std::vector<std::optional<CpuSet>>>(topo.numa_count());
            auto whole = std::make_shared<std::optional<CpuSet>>();
            gens.emplace_back([&topo, d, by_node, whole](int pu) {
                const int home = topo.node_of_pu(pu);
                std::optional<CpuSet> &s = (*by_node)[static_cast<size_t>(home)];
                if (!s) {
                    bool all_within = true;
                    for (int n = 0; n < topo.numa_count() && all_within; ++n)
                        all_within = topo.node_distance(home, n) <= d;
                    if (!all_within) {
                        s = pus_within_distance(topo, pu, d);
                    } else {
                        if (!*whole)
                            *whole = pus_within_distance(topo, pu, d);
                        s = **whole;
                    }
                }
                return *s;
            });
        }
    }
    // The whole machine, the same for every PU: built once.
    auto all = std::make_shared<CpuSet>();
    for (int p = 0; p < topo.pu_count(); ++p)
        all->set(p);
    gens.emplace_back([all](int) { return *all; });
    return gens;
}

const LevelTunables &tunables_for(const std::string &level)
{
    if (level == "SMT")
        return kSiblingInit;
    if (level == "NUMA")
        return kNodeInit;
    return kCpuInit;
}

} // namespace

int SchedDomain::group_of(int cpu) const
{
    const auto &sets = groups();
    for (size_t g = 0; g < sets.size(); ++g)
        if (sets[g].test(cpu))
            return static_cast<int>(g);
    return -1;
}

std::string SchedDomain::describe() const
{
    const std::string flags = flag_list({{has(kSdBalanceNewIdle), "newidle"},
                                         {has(kSdBalanceExec), "exec"},
                                         {has(kSdWakeAffine), "wake-affine"},
                                         {has(kSdWakeIdle), "wake-idle"},
                                         {has(kSdWakeBalance), "wake-balance"}});
    return level + " {" + span.to_list_string() + "} " + std::to_string(groups().size()) + " groups, interval " +
           num_text(min_interval_ms) + "-" + num_text(max_interval_ms) + " ms, busy_factor " +
           std::to_string(busy_factor) + ", imbalance_pct " + std::to_string(imbalance_pct) + ", cache_nice_tries " +
           std::to_string(cache_nice_tries) + ", cache_hot_time " + num_text(cache_hot_time_ms) + " ms, flags " + flags;
}

std::vector<std::vector<SchedDomain>> build_sched_domains(const Topology &topo, const BalancerParams &params)
{
    const auto gens = candidate_generators(topo);
    const int npu = topo.pu_count();
    std::vector<std::vector<SchedDomain>> out(npu);
    // Groups are the same for every CPU of a span: built once, shared.
    std::map<std::pair<std::string, int>, std::shared_ptr<const SchedDomain::Groups>> built;
    for (int pu = 0; pu < npu; ++pu) {
        // Candidates ordered by size (stable: ties keep the tree order);
        // a level is kept when it strictly widens the previous one.
        std::vector<size_t> order(gens.size());
        std::vector<CpuSet> spans(gens.size());
        for (size_t g = 0; g < gens.size(); ++g) {
            order[g] = g;
            spans[g] = gens[g](pu);
        }
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return spans[a].count() < spans[b].count(); });
        CpuSet prev = single_pu(pu);
        int prev_gen = -1;
        for (size_t g : order) {
            const CpuSet &span = spans[g];
            if (span.count() <= prev.count() || !span.contains(prev))
                continue;
            SchedDomain sd;
            sd.span = span;
            // Named after the pairs it newly joins, as the profiler names levels.
            int other = -1;
            for (int q = span.first(); q >= 0; q = span.next(q))
                if (!prev.test(q)) {
                    other = q;
                    break;
                }
            const char *name = domain_level_name(topo.distance(pu, other).cls);
            sd.level = name ? name : "package";
            auto &groups = built[{span.to_list_string(), prev_gen}];
            if (!groups)
                groups = build_sched_groups(
                    span, [&](int q) { return prev_gen < 0 ? single_pu(q) : gens[prev_gen](q); }, false,
                    [&](SchedDomain::Groups &g, const CpuSet &grp) { g.power.push_back(group_power(topo, grp)); });
            sd.shared_groups = groups;
            sd.own_group = sd.group_of(pu);
            const LevelTunables &t = tunables_for(sd.level);
            sd.min_interval_ms = t.min_interval_ms;
            sd.max_interval_ms = t.max_interval_ms;
            sd.busy_factor = t.busy_factor;
            sd.imbalance_pct = t.imbalance_pct;
            sd.flags = t.flags;
            sd.cache_nice_tries = params.nice_tries_for(sd.level);
            sd.cache_hot_time_ms = params.hot_ms_for(sd.level);
            sd.balance_interval_ms = sd.min_interval_ms;
            out[pu].push_back(std::move(sd));
            prev = span;
            prev_gen = static_cast<int>(g);
        }
    }
    return out;
}

} // namespace schedscope
