#include "profiler/migration_profiler.h"

#include "profiler/migration_measurer.h"
#include "profiler/migration_model.h"
#include "util/input_error.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace schedscope {

namespace {

// The range of --factor: below a tenth of the cache the buffer measures
// nothing but L1; beyond 64x it only measures memory bandwidth.
constexpr double kMinFactor = 0.01;
constexpr double kMaxFactor = 64.0;
// More samples than this only take longer: the maximum stops moving.
constexpr int kMaxReps = 10000;
// The profiled level when a topology has no cache at all (numactl input):
// the model's stand-in is an L2-sized private cache.
constexpr int kFallbackCacheLevel = 2;
// Where the running machine's topology comes from (import_detect()).
constexpr const char *kDetectSource = "detect";

ObjType cache_type(int level) { return level == 1 ? ObjType::L1 : level == 2 ? ObjType::L2 : ObjType::L3; }

} // namespace

ProfileMode parse_profile_mode(const std::string &text, const std::string &option)
{
    if (text == "measure")
        return ProfileMode::Measure;
    if (text == "model")
        return ProfileMode::Model;
    throw InputError(option, "unknown mode '" + text + "' (expected measure or model)");
}

PairSelection parse_pair_selection(const std::string &text, const std::string &option)
{
    if (text == "all")
        return PairSelection::All;
    if (text == "classes")
        return PairSelection::Classes;
    throw InputError(option, "unknown pair selection '" + text + "' (expected all or classes)");
}

MigrationProfiler::MigrationProfiler(const Topology &topology, ProfilerOptions options)
    : topology_(topology), options_(std::move(options))
{
    if (!(options_.factor >= kMinFactor && options_.factor <= kMaxFactor))
        throw InputError("--factor", "buffer factor must be between " + std::to_string(kMinFactor) + " and " +
                                         std::to_string(kMaxFactor));
    if (options_.reps < 1 || options_.reps > kMaxReps)
        throw InputError("--reps", "repetitions must be between 1 and " + std::to_string(kMaxReps));
    if (options_.mode == ProfileMode::Measure && topology_.source() != kDetectSource)
        throw InputError("--mode", "measure mode profiles the running machine, but the topology comes from '" +
                                       topology_.source() + "'; use --topology detect or --mode model");
    if (options_.machine_figures)
        apply_machine_figures();
    resolve_cache();
}

void MigrationProfiler::apply_machine_figures()
{
    ModelParams merged;
    merged.apply_machine_figures(topology_);
    const ModelParams defaults;
    for (const auto &f : ModelParams::fields()) {
        const double given = options_.params.get(f.name);
        if (given != defaults.get(f.name))
            merged.set(f.name, given, "profiler options");
    }
    options_.params = merged;
}

void MigrationProfiler::resolve_cache()
{
    const ModelParams &params = options_.params;
    const int last = topology_.last_cache_level();
    if (options_.level == "LLC") {
        cache_level_ = last;
    } else if (options_.level == "L2" || options_.level == "L3") {
        cache_level_ = options_.level[1] - '0';
        if (last > 0 && topology_.count(cache_type(cache_level_)) == 0)
            throw InputError("--level", "the topology has no " + options_.level + " cache (its last level is L" +
                                            std::to_string(last) + ")");
        if (last == 0)
            cache_level_ = 0;
    } else {
        throw InputError("--level", "unknown cache level '" + options_.level + "' (expected L2, L3 or LLC)");
    }

    const auto fallback_bytes = static_cast<std::uint64_t>(params.default_cache_size_bytes);
    line_bytes_ = params.cache_line_bytes;
    if (cache_level_ == 0) {
        cache_bytes_ = fallback_bytes;
        notes_.push_back("the topology describes no cache; assuming " + std::to_string(cache_bytes_ / 1024) +
                         " KiB (ModelParams::default_cache_size_bytes)");
    } else {
        // The largest instance sets the buffer, as the original profiler used
        // the machine's max cache size: a buffer that fits in any of them would
        // under-measure that one.
        for (ObjId id : topology_.objects_of(cache_type(cache_level_))) {
            const auto &o = topology_.obj(id);
            cache_bytes_ = std::max(cache_bytes_, o.cache_size_bytes);
            // Measure mode writes one word per line of the machine's caches;
            // model mode counts lines as the engine does (ModelParams::
            // cache_line_bytes, an era figure where the sample has one).
            if (o.cache_line_bytes > 0 && options_.mode == ProfileMode::Measure)
                line_bytes_ = o.cache_line_bytes;
        }
        if (cache_bytes_ == 0 || !topology_.caches_known()) {
            if (cache_bytes_ == 0)
                cache_bytes_ = fallback_bytes;
            notes_.push_back("L" + std::to_string(cache_level_) + " size not known; assuming " +
                             std::to_string(cache_bytes_ / 1024) + " KiB (ModelParams::default_cache_size_bytes)");
        }
    }
    if (options_.buffer_bytes > 0) {
        buffer_bytes_ = options_.buffer_bytes;
    } else {
        buffer_bytes_ = static_cast<std::uint64_t>(std::llround(options_.factor * static_cast<double>(cache_bytes_)));
    }
    // Whole lines only: the dirtier writes one word per line.
    const auto line = static_cast<std::uint64_t>(line_bytes_);
    buffer_bytes_ = std::max(line, buffer_bytes_ / line * line);
}

MigrationProfile MigrationProfiler::run(const std::atomic<bool> *cancel, const ProfileProgress &progress) const
{
    std::unique_ptr<PairCostSource> source;
    if (options_.mode == ProfileMode::Measure)
        source = std::make_unique<MigrationMeasurer>(topology_, buffer_bytes_, static_cast<std::size_t>(line_bytes_),
                                                     options_.reps, options_.seed);
    else
        source = std::make_unique<MigrationModel>(topology_, options_.params, buffer_bytes_, line_bytes_, cache_bytes_,
                                                  cache_level_ > 0 ? cache_level_ : kFallbackCacheLevel);

    const std::vector<bool> usable = source->usable_pus();
    PairPlan plan(topology_, options_.pairs, usable);
    const auto &pairs = plan.pairs();
    const int total = static_cast<int>(pairs.size());
    std::vector<double> costs(pairs.size(), std::numeric_limits<double>::quiet_NaN());

    MigrationProfile p;
    if (progress)
        progress(0, total);
    for (int i = 0; i < total; ++i) {
        if (cancel && cancel->load(std::memory_order_relaxed)) {
            p.complete = false;
            break;
        }
        costs[i] = source->cost_ms(pairs[i].first, pairs[i].second, cancel);
        if (progress)
            progress(i + 1, total);
    }
    if (cancel && cancel->load(std::memory_order_relaxed))
        p.complete = false;

    p.topology_name = topology_.name();
    p.topology_source = topology_.source();
    p.mode = options_.mode == ProfileMode::Measure ? "measure" : "model";
    p.pairs = options_.pairs == PairSelection::All ? "all" : "classes";
    p.cache_level = cache_level_;
    p.cache_bytes = cache_bytes_;
    p.buffer_bytes = buffer_bytes_;
    p.factor = options_.buffer_bytes > 0 ? static_cast<double>(buffer_bytes_) / static_cast<double>(cache_bytes_)
                                         : options_.factor;
    p.reps = options_.mode == ProfileMode::Measure ? options_.reps : 0;
    for (int pu = 0; pu < topology_.pu_count(); ++pu) {
        p.pu_os_index.push_back(topology_.pu_os_index(pu));
        if (!usable[pu])
            p.skipped_pus.push_back(pu);
    }
    for (int pu : source->failed_pus())
        if (std::find(p.skipped_pus.begin(), p.skipped_pus.end(), pu) == p.skipped_pus.end())
            p.skipped_pus.push_back(pu);
    std::sort(p.skipped_pus.begin(), p.skipped_pus.end());
    p.notes = notes_;
    for (auto &note : source->notes())
        p.notes.push_back(note);
    for (const auto &c : plan.classes())
        if (c.rep_source < 0)
            p.notes.push_back(std::string("class ") + distance_class_name(c.cls) +
                              " not measured: none of its PUs may be used");

    plan.fill(costs, p.matrix_ms, p.classes);
    derive_cache_hot_times(p, [&](int s, int t) { return plan.class_of(s, t); });
    return p;
}

} // namespace schedscope
