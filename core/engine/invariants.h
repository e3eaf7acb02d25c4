#pragma once
// Checks of the engine's bookkeeping that must hold at every moment: used by
// the tests after random scenarios and by stress runs in debug builds.

#include <string>
#include <vector>

namespace schedscope {

class Simulation;

// Empty when everything holds; otherwise one line per violation.
std::vector<std::string> check_invariants(const Simulation &sim);

} // namespace schedscope
