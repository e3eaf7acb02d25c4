#pragma once
// Members with their own copy rules, so that a Simulation's copy (a
// checkpoint) is the defaulted memberwise one and no member can be left out
// of it by a hand-written list.

#include <memory>

namespace schedscope {

// Owns a T that copies through T::clone() (a policy and its state).
template <class T> class Cloned {
public:
    Cloned() = default;
    explicit Cloned(std::unique_ptr<T> p) : p_(std::move(p)) {}
    Cloned(const Cloned &o) : p_(o.p_ ? o.p_->clone() : nullptr) {}
    Cloned(Cloned &&) noexcept = default;
    Cloned &operator=(const Cloned &o)
    {
        if (this != &o)
            p_ = o.p_ ? o.p_->clone() : nullptr;
        return *this;
    }
    Cloned &operator=(Cloned &&) noexcept = default;
    T &operator*() const { return *p_; }
    T *operator->() const { return p_.get(); }
    explicit operator bool() const { return p_ != nullptr; }

private:
    std::unique_ptr<T> p_;
};

// Owns a T that copies by value into an allocation of its own (the
// recording: a copy is an independent run).
template <class T> class Deep {
public:
    Deep() : p_(std::make_unique<T>()) {}
    Deep(const Deep &o) : p_(std::make_unique<T>(*o.p_)) {}
    Deep(Deep &&) noexcept = default;
    Deep &operator=(const Deep &o)
    {
        if (this != &o)
            p_ = std::make_unique<T>(*o.p_);
        return *this;
    }
    Deep &operator=(Deep &&) noexcept = default;
    T &operator*() const { return *p_; }
    T *operator->() const { return p_.get(); }

private:
    std::unique_ptr<T> p_;
};

// A pointer to an observer that copies do not inherit: a copy starts
// detached and an assignment keeps the observer it had.
template <class T> class Unshared {
public:
    Unshared() = default;
    Unshared(const Unshared &) {}
    Unshared(Unshared &&) noexcept = default;
    // Keeps its own observer whatever it is assigned, itself included.
    Unshared &operator=(const Unshared &) { return *this; } // NOLINT(bugprone-unhandled-self-assignment)
    Unshared &operator=(Unshared &&) noexcept = default;
    Unshared &operator=(T *p)
    {
        p_ = p;
        return *this;
    }
    T *get() const { return p_; }
    T *operator->() const { return p_; }
    explicit operator bool() const { return p_ != nullptr; }

private:
    T *p_ = nullptr;
};

} // namespace schedscope
