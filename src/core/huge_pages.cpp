#include "dcsweep/core/huge_pages.hpp"

#include <cstdint>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace dcsweep {

void advise_huge_pages(const void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  if (data == nullptr || bytes < kHuge) return;
  const auto at = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = (at + kHuge - 1) & ~(kHuge - 1), last = (at + bytes) & ~(kHuge - 1);
  // A hint: an error (an old kernel, THP compiled out) leaves the memory as it was.
  if (last > first)
    (void)madvise(static_cast<char*>(const_cast<void*>(data)) + (first - at), last - first, MADV_HUGEPAGE);
#else
  (void)data, (void)bytes;
#endif
}

}  // namespace dcsweep
