#pragma once
// The checks of a published-experiment file that look at it as a whole,
// after its fields have been read (published.cpp): which rows are relative to
// which, and whether the direction's claims make sense and hold on the
// published figures. Internal to core/scenario.

#include "scenario/published.h"

#include <string>
#include <vector>

namespace schedscope {

// Sets each row's effective relative_to: its own (row_relative[i], "" when
// not given), else the experiment's (exp_relative_to) for the rows of that
// row's metric. Throws InputError naming e.path and rows[i].relative_to.
void resolve_relative_rows(PublishedExperiment &e, const std::string &exp_relative_to,
                           const std::vector<std::string> &row_relative);

// Every claim compares rows of one metric and holds on the published
// figures; throws InputError naming direction.claims[i] otherwise.
void check_claims(const PublishedExperiment &e);

} // namespace schedscope
