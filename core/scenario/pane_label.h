#pragma once
// One label per pane of a comparison, the same in every place that names a
// pane: chart legends and tooltips, the explain view's picker, CSV and trace
// exports. A label is the user's own name for the pane (PolicySpec::label)
// or the policy's name followed by the parameters in which it differs from
// the other panes running the same policy:
//
//   {sched-domains cache_hot_time_ms=2.5, sched-domains cache_hot_time_ms=10}
//     -> "sched-domains cache_hot_time=2.5ms", "sched-domains cache_hot_time=10ms"
//   {bind mode=hard, bind mode=inverse, autonuma}
//     -> "bind mode=hard", "bind mode=inverse", "autonuma"
//   {sched-domains cache_hot_time_ms=0, sched-domains (nothing set)}
//     -> "sched-domains cache_hot_time=0ms", "sched-domains cache_hot_time=2.5ms"
//
// A pane that leaves the one differing parameter at its default says the
// default's value; with several differing parameters such a pane reads
// "(defaults)". Parameters are compared by the values the panes run with,
// defaults filled in: {wakeup=queued} and {} are the same cfs.
//
// Labels are always distinct: panes that still collide (identical policies,
// or the same user label twice) get " #2", " #3"... in pane order.

#include "scenario/scenario.h"

#include <string>
#include <vector>

namespace schedscope {

std::vector<std::string> pane_labels(const std::vector<PolicySpec> &policies);

// Whether the pane runs `key` at the policy's default, given its other
// parameters (the `wakeup` default is the policy's own: catalog.h's
// wakeup_info()).
bool param_is_default(const PolicySpec &pane, const std::string &key);

// "cache_hot_time_ms", "2.5" -> "cache_hot_time=2.5ms"; a path keeps only its
// file name. How a parameter reads inside a label.
std::string param_label(const std::string &key, const std::string &value);

} // namespace schedscope
