#pragma once
// Sets an environment variable for one scope of a test and puts back what
// was there before (its value, or its absence), whatever way the scope ends:
// tests in one process must not see each other's settings.

#include <cstdlib>
#include <optional>
#include <string>

namespace schedscope::testing {

class ScopedEnv {
public:
    // `value` empty: the variable is removed for the scope.
    ScopedEnv(std::string name, const std::optional<std::string> &value) : name_(std::move(name))
    {
        if (const char *old = std::getenv(name_.c_str()))
            saved_ = old;
        set(value);
    }
    ~ScopedEnv() { set(saved_); }
    ScopedEnv(const ScopedEnv &) = delete;
    ScopedEnv &operator=(const ScopedEnv &) = delete;

    void set(const std::optional<std::string> &value) const
    {
        if (value)
            ::setenv(name_.c_str(), value->c_str(), 1);
        else
            ::unsetenv(name_.c_str());
    }

private:
    std::string name_;
    std::optional<std::string> saved_;
};

} // namespace schedscope::testing
