#pragma once
// Published experiments: one JSON file per measurement from the historical
// reports (samples/published/), holding where it was published, how it was
// run (a scenario, embedded or referenced, or a topology for the migration
// profiler), the published rows and the direction the report showed. Running
// one gives the table `schedscope-cli reproduce` prints: each row, the
// published figure, ours over seeds, the ratio, and whether the published
// direction holds in the model. The format is described in docs/cli.md
// ("reproduce"); adding a published result means adding a file.
//
// Nothing here knows any particular experiment: metrics are looked up by
// name (published_metrics()), rows map to (scenario, policy, workload
// parameters) or to profiler pair sets, and the direction is a list of
// comparisons between rows.

#include "scenario/scenario.h"

#include <nlohmann/json.hpp>

#include <atomic>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace schedscope {

inline constexpr int kPublishedFormatVersion = 1;

struct PublishedSource {
    std::string thread, author, date, machine, notes;
};

enum class PublishedKind { Simulation, Profile };

// How a row is judged on magnitude (the "within" count).
enum class PublishedWithin {
    // Within ±30 % of the published figure, or inside the published range
    // (min-max over the runs, or ± the published error) when there is one.
    ThirtyPctOrRange,
    // Inside the published range only: the published result is itself a band
    // ("10-20 % behind", "within ±5 %"), which ±30 % would be wider than.
    Range,
};

struct PublishedRow {
    std::string label;
    double published = 0;
    // The published spread: min/max of the runs, or published ± error.
    // Both or neither; min <= published <= max.
    std::optional<double> published_min, published_max;
    std::optional<double> published_error; // as written, for the table
    PublishedWithin within = PublishedWithin::ThirtyPctOrRange;
    std::string metric;      // effective (the experiment's unless the row names its own)
    std::string relative_to; // effective: label of the reference row, "" = absolute
    std::string note;
    // Simulation rows: the scenario to run (the experiment's, with the row's
    // own scenario, workload and workload_params applied) and the policy.
    Scenario scenario;
    PolicySpec policy;
    // Profile rows: which pairs of the matrix ("diagonal", "off-diagonal" or a
    // distance class such as "same-node") and which statistic is "ours".
    std::string pairs, stat;
};

// One comparison of the direction. `rows` above (or below) every row of
// `than`: with several `rows`, the best of them (max for above, min for
// below) is compared, as in "the peak of these". by_pct is the margin: "above
// by more than 10 %"; a negative one is a tolerance, "above, or at most 3 %
// below" (a published "must not win it"). A flat claim says that the largest
// of `rows` is within within_pct % of the smallest.
struct PublishedClaim {
    enum class Kind { Above, Below, Flat } kind = Kind::Above;
    std::vector<std::string> rows, than;
    double by_pct = 0;
    double within_pct = 0;
};

// Whether the claim holds on these values (row label -> value), and the
// claim in words ("'10 ms' above '2.5 ms', '1000 ms'").
bool claim_holds(const PublishedClaim &c, const std::map<std::string, double> &values);
std::string describe_claim(const PublishedClaim &c);

// Whether the model was fitted to an experiment: "fitted" when a constant of
// the model (or a parameter of its configuration) was set or moved while its
// published figures were in view, "predicted" when none was. fitted_by names
// them (docs/CALIBRATION.md keeps the full list, with old -> new values).
// The two kinds are scored apart.
enum class CalibrationStatus { Fitted, Predicted };
std::string calibration_status_name(CalibrationStatus s);

struct PublishedCalibration {
    CalibrationStatus status = CalibrationStatus::Predicted;
    std::vector<std::string> fitted_by;
    std::string notes;
};

struct PublishedExperiment {
    std::string name; // the file's stem
    std::string path;
    std::string title;
    PublishedSource source;
    PublishedCalibration calibration;
    PublishedKind kind = PublishedKind::Simulation;
    std::string metric; // the experiment's; "mixed" when rows name different ones
    int seeds = 1, quick_seeds = 1;
    double duration_s = 0, quick_duration_s = 0; // 0 = the scenario's own
    ParamMap quick_workload_params;              // merged into every row's workload with --quick
    std::string notes;
    // Profile experiments
    std::string topology;
    std::map<std::string, double> model;
    std::string profile_level = "LLC";
    double profile_factor = 5.0 / 3.0;
    std::vector<PublishedRow> rows;
    std::string direction_text;
    std::vector<PublishedClaim> claims; // empty: no direction (a flat matrix), judged on its rows
};

// A metric of a run (or of a migration profile) by the name files use.
struct PublishedMetric {
    std::string name;
    std::string description;
    PublishedKind kind;
};
const std::vector<PublishedMetric> &published_metrics();

// Strict: unknown fields, missing fields, unknown metrics, policies,
// workloads or parameters, rows the direction names but the file lacks, and
// a direction the published figures themselves do not follow are all
// InputError naming the file and the field.
PublishedExperiment parse_published(const std::string &text, const std::string &path);
PublishedExperiment load_published(const std::string &path);

// The directory `reproduce` reads: env SCHEDSCOPE_PUBLISHED_DIR, else
// samples_dir()/published.
std::string published_dir();
// Every *.json of a directory, sorted by name, each parsed (so a bad file
// fails here, naming itself).
std::vector<PublishedExperiment> load_published_dir(const std::string &dir);

struct PublishedRowResult {
    std::string label, metric, relative_to;
    double published = 0;
    std::optional<double> published_min, published_max, published_error;
    PublishedWithin within_rule = PublishedWithin::ThirtyPctOrRange;
    double ours = 0, ours_min = 0, ours_max = 0; // scaled when relative
    std::vector<double> per_seed;                // unscaled raw values (profile: per pair)
    std::optional<double> ratio;                 // ours / published; none when published is 0
    bool reference = false;                      // the row others are relative to
    bool compared = false;                       // counts towards the magnitude score
    bool within = false;                         // ... and is within (row_within())
};

// The magnitude rule: a compared row is within when |ours / published - 1| <=
// 0.3 or ours lies inside the published range (ThirtyPctOrRange), or inside
// the published range only (Range). A row without a ratio (published 0) is
// compared only when it has a range.
bool row_within(const PublishedRowResult &row);
inline constexpr double kPublishedWithinFraction = 0.30;

struct PublishedResult {
    std::string name, title, metric;
    PublishedSource source;
    PublishedCalibration calibration;
    bool quick = false;
    int seeds = 0;
    double duration_s = 0; // simulated seconds per run; 0 = runs to completion
    std::vector<PublishedRowResult> rows;
    bool has_direction = true; // false: no claims (judged on its rows alone)
    bool direction_ok = false; // every claim holds (true when there are none)
    int claims = 0, claims_held = 0;
    std::vector<std::string> failed_claims; // readable, one per claim that does not hold
    int within_30pct = 0;                   // compared rows that are within (row_within)
    int compared = 0;                       // non-reference rows with a ratio or a published range
};

// The scores of a set of results: directions held (experiments with a
// direction whose every claim holds; and claims), rows within.
struct PublishedScore {
    int experiments = 0;
    int directions = 0, directions_held = 0; // experiments with a direction
    int claims = 0, claims_held = 0;
    int rows = 0, rows_within = 0;
};
PublishedScore score_published(const std::vector<PublishedResult> &results);
// Only the results of one calibration status.
PublishedScore score_published(const std::vector<PublishedResult> &results, CalibrationStatus status);
// "directions 4 of 5 held (claims 30 of 33), rows within ±30 % 20 of 41"
std::string format_score(const PublishedScore &s);
// The closing lines `reproduce` prints: the total, fitted and predicted apart.
std::string format_scores(const std::vector<PublishedResult> &results);
// The line `reproduce --quick` adds after them.
inline constexpr const char *kPublishedQuickNote = "  [--quick: not comparable with the published figures]\n";
// The "score" object of published_to_json: the total, fitted and predicted.
nlohmann::json published_score_json(const std::vector<PublishedResult> &results);
// What the scores read of one experiment of published_to_json's
// "experiments" (its mark, direction, claims and within counts), for
// scoring results that were run apart (collect of `reproduce --slurm`).
// Throws std::exception on a missing or mistyped field.
PublishedResult published_summary_from_json(const nlohmann::json &experiment);

// What run_published throws when its cancel flag was raised.
struct PublishedCancelled : std::runtime_error {
    PublishedCancelled() : std::runtime_error("cancelled") {}
};

// Runs the listed experiments, every (row, seed) run on the sweep pool (runs
// that several rows share run once). `progress(done, total)` comes from the
// calling thread. Raising `*cancel` (from any thread) stops the runs under
// way at their next progress check, skips the rest and throws
// PublishedCancelled: the GUI's table runs this off its thread.
std::vector<PublishedResult> run_published(const std::vector<PublishedExperiment> &experiments, bool quick,
                                           unsigned threads = 0,
                                           const std::function<void(int done, int total)> &progress = {},
                                           const std::atomic<bool> *cancel = nullptr);

// The table `reproduce` prints for one experiment.
std::string format_published(const PublishedResult &r);
// A figure as that table prints it (four significant digits or so), so the
// GUI's table reads the same as the CLI's.
std::string format_published_value(double v);
// {"experiments": [...], "score": {...}} as documented in docs/cli.md.
nlohmann::json published_to_json(const std::vector<PublishedResult> &results);

} // namespace schedscope
