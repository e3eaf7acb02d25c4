#pragma once
// The bounds docs/reliability.md states for handling any bad input, shared
// by the bad-input catalogue and the fuzz regression test.

namespace schedscope::testing {

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true; // ASan reserves terabytes of address space: no ulimit -v
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kSanitized = true;
#else
constexpr bool kSanitized = false;
#endif
#else
constexpr bool kSanitized = false;
#endif

constexpr int kRefuseTimeoutS = 10;              // wall clock, normal build (also fuzz.sh's -timeout)
constexpr int kRefuseTimeoutSanitizedS = 60;     // ASan/UBSan run several times slower
constexpr long kRefuseAddressSpaceKiB = 1 << 20; // 1 GiB of virtual memory

constexpr int refuse_timeout_s() { return kSanitized ? kRefuseTimeoutSanitizedS : kRefuseTimeoutS; }

} // namespace schedscope::testing
