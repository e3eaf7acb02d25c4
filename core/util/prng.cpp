#include "util/prng.h"

#include <cmath>

namespace schedscope {

double Prng::exponential(double mean)
{
    // 1 - u is in (0, 1], so the log is finite.
    return -mean * std::log(1.0 - uniform());
}

} // namespace schedscope
