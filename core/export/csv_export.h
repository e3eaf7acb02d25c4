#pragma once
// Data files for spreadsheets and pandas: one CSV per run holding every time
// series of the results JSON (RunResult::series, built by summarize()), and a
// summary CSV with one row per run. The CSV is a flattening of that JSON, not
// a second derivation, so the two cannot disagree.
//
// Column names are the JSON path joined with '.', with a unit suffix added
// where the JSON key carries none ("ops" -> "ops_count"): see csv_header().

#include "analysis/run_result.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace schedscope {

// One column of a series CSV: the JSON array it comes from and, for arrays of
// objects (node_mb: node -> MiB per sample), the key read in each element.
struct SeriesColumn {
    std::string header;
    std::vector<std::string> path; // keys from the series object to the array
    std::string element_key;       // empty: the array holds numbers
};

// The header for a JSON path: path joined with '.', plus a unit suffix when
// no part of the path names one (_s, _ns, _pct, _mb...).
std::string csv_header(const std::vector<std::string> &path);

// Columns in a stable order: time_s first, then the series as the JSON
// lists them. node_mb gets one column per node that appears in any sample.
std::vector<SeriesColumn> series_columns(const nlohmann::json &series);

// Text of a run's series CSV / of the summary CSV. Cells the JSON leaves out
// (a node holding none of a process's memory) are 0.
void write_series_csv(const RunResult &run, const std::string &path);
void write_summary_csv(const std::vector<std::vector<RunResult>> &by_policy, const std::string &path);

// Both, into `dir` (created if missing): "summary.csv" and one
// "<n>-<policy>-seed<seed>.csv" per run, n numbering the policies from 1.
// Returns the files written.
std::vector<std::string> write_results_csv(const std::vector<std::vector<RunResult>> &by_policy,
                                           const std::string &dir);

} // namespace schedscope
