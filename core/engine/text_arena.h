#pragma once
// Storage for the words of a run's decisions. A wakeup storm keeps about a
// hundred thousand decisions a simulated second, each with a reason of a
// hundred characters or so; as one std::string each, every decision cost a
// heap allocation and its own free, and the text spread over fresh pages
// that each cost the process a page fault. Here reasons are written one
// after the other into large chunks, and a reason is a counted reference to
// its bytes in its chunk.
//
// Lifetime: a ReasonText keeps its chunk alive, so a Decision copied out of
// a Recording (the GUI ships them to its own thread in frames) stays valid
// after the Recording is gone. A chunk's bytes never change once written: a
// TextArena that is copied, or rewound to a checkpoint, starts a new chunk
// for what it writes next instead of writing over text somebody may hold.
//
// Big arrays: BigArrayAllocator gives a std::vector of many megabytes its
// memory in 2 MiB-aligned blocks and, on Linux, asks for transparent huge
// pages there (madvise), so that filling it faults once per 2 MiB instead
// of once per 4 KiB. Smaller arrays go to the ordinary heap.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <string_view>

namespace schedscope {

namespace big_memory {
// The block size huge pages come in on x86-64 and arm64 (4 KiB base pages).
inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;
// `bytes` rounded up to whole huge pages, 2 MiB-aligned, with huge pages
// asked for where the system offers them. Throws std::bad_alloc.
void *allocate(std::size_t bytes);
void release(void *p) noexcept;
} // namespace big_memory

template <class T> struct BigArrayAllocator {
    using value_type = T;
    BigArrayAllocator() = default;
    template <class U> BigArrayAllocator(const BigArrayAllocator<U> &) noexcept {}

    T *allocate(std::size_t n)
    {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < big_memory::kHugePageBytes)
            return std::allocator<T>{}.allocate(n);
        return static_cast<T *>(big_memory::allocate(bytes));
    }
    void deallocate(T *p, std::size_t n) noexcept
    {
        if (n * sizeof(T) < big_memory::kHugePageBytes)
            std::allocator<T>{}.deallocate(p, n);
        else
            big_memory::release(p);
    }
    template <class U> bool operator==(const BigArrayAllocator<U> &) const noexcept { return true; }
};

// A decision's reason: immutable text that shares ownership of the chunk it
// was written into. Reads like a string_view.
class ReasonText {
public:
    ReasonText() = default;
    // Text of its own (tests, or a reason made outside a recording).
    ReasonText(std::string_view text);
    ReasonText(const char *text) : ReasonText(std::string_view(text)) {}
    ReasonText(const std::string &text) : ReasonText(std::string_view(text)) {}

    std::string_view view() const { return {text_.get(), size_}; }
    operator std::string_view() const { return view(); }
    std::string str() const { return std::string(view()); }
    const char *data() const { return text_.get(); }
    std::size_t size() const { return size_; }
    bool empty() const { return size_ == 0; }
    std::size_t find(std::string_view what, std::size_t from = 0) const { return view().find(what, from); }
    friend bool operator==(const ReasonText &a, std::string_view b) { return a.view() == b; }

private:
    friend class TextArena;
    ReasonText(std::shared_ptr<const char> text, std::size_t size) : text_(std::move(text)), size_(size) {}
    std::shared_ptr<const char> text_; // points at the first character; owns the chunk
    std::size_t size_ = 0;
};

class TextArena {
public:
    // Chunks start small and double up to kChunkBytes, so a run that keeps
    // a few decisions does not take a 2 MiB page for them. Text of up to a
    // quarter of a chunk shares one; longer text gets its own.
    static constexpr std::size_t kFirstChunkBytes = std::size_t{64} << 10;
    static constexpr std::size_t kChunkBytes = big_memory::kHugePageBytes;

    TextArena() = default;
    // A copy writes into chunks of its own (see the lifetime note above).
    TextArena(const TextArena &) {}
    TextArena &operator=(const TextArena &other)
    {
        if (this != &other)
            start_new_chunk();
        return *this;
    }
    TextArena(TextArena &&) noexcept = default;
    TextArena &operator=(TextArena &&) noexcept = default;

    ReasonText store(std::string_view text);
    // What is written next goes into a new chunk; text already handed out
    // stays as it is.
    void start_new_chunk()
    {
        chunk_.reset();
        used_ = 0;
    }

private:
    std::shared_ptr<char> chunk_;
    std::size_t used_ = 0;
    std::size_t size_ = 0; // of chunk_
};

} // namespace schedscope
