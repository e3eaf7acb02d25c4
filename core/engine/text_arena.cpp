// Chunked reason text and huge-page-backed big arrays (text_arena.h).

#include "engine/text_arena.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace schedscope {

namespace big_memory {

void *allocate(std::size_t bytes)
{
    const std::size_t rounded = (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    void *p = std::aligned_alloc(kHugePageBytes, rounded);
    if (p == nullptr)
        throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    // Only advice: where transparent huge pages are off (or "never"), the
    // memory is used in ordinary pages and nothing else changes.
    madvise(p, rounded, MADV_HUGEPAGE);
#endif
    return p;
}

void release(void *p) noexcept { std::free(p); }

} // namespace big_memory

namespace {
std::shared_ptr<char> new_chunk(std::size_t bytes)
{
    if (bytes >= big_memory::kHugePageBytes)
        return {static_cast<char *>(big_memory::allocate(bytes)), big_memory::release};
    return {new char[bytes], std::default_delete<char[]>()};
}
} // namespace

ReasonText::ReasonText(std::string_view text)
{
    if (text.empty())
        return;
    std::shared_ptr<char> own = new_chunk(text.size());
    std::memcpy(own.get(), text.data(), text.size());
    text_ = std::move(own);
    size_ = text.size();
}

ReasonText TextArena::store(std::string_view text)
{
    if (text.empty())
        return {};
    if (text.size() > kChunkBytes / 4)
        return ReasonText(text);
    if (!chunk_ || used_ + text.size() > size_) {
        size_ = std::max(text.size(), chunk_ ? std::min(kChunkBytes, 2 * size_) : kFirstChunkBytes);
        chunk_ = new_chunk(size_);
        used_ = 0;
    }
    char *at = chunk_.get() + used_;
    std::memcpy(at, text.data(), text.size());
    used_ += text.size();
    // Shares the chunk's ownership, points at this text.
    return ReasonText(std::shared_ptr<const char>(chunk_, at), text.size());
}

} // namespace schedscope
