#pragma once
// Large arrays in transparent huge pages where the kernel gives them on request
// (/sys/kernel/mm/transparent_hugepage/enabled = madvise, as on this project's VM). A whole-trace
// run first touches about 100 MB (the inflated trace, its records, the jobs, the engine's per-job
// state); in 4 KiB pages that is about 29,000 page faults, which cost about 7 us each on a
// paravirtualized VM: a third of a whole CEA-Curie run's 0.63 s. A hint only: the contents, and
// so every result, are the same; where the kernel has no huge pages to give it does nothing.
// (Where /sys/kernel/mm/transparent_hugepage/defrag compacts memory for advised ranges, the
// default, a first touch on a fragmented node may wait for that compaction before it falls back
// to small pages.)
#include <cstddef>

namespace dcsweep {

/// Asks for huge pages (madvise MADV_HUGEPAGE) over the 2 MiB-aligned part of [data, data +
/// bytes), for memory not yet touched; nothing where the system has no such hint.
void advise_huge_pages(const void* data, std::size_t bytes);

/// `v.reserve(n)`, new storage advised into huge pages before the container writes to it: all of
/// it for a container without storage yet; where it holds elements, reserve copies them in first
/// (their pages small).
template <class Vector>
void reserve_in_huge_pages(Vector& v, std::size_t n) {
  v.reserve(n);
  advise_huge_pages(v.data(), v.capacity() * sizeof(typename Vector::value_type));
}

}  // namespace dcsweep
