#include "dcsweep/core/int_runs.hpp"

#ifdef __AVX2__
#include <immintrin.h>
#endif

namespace dcsweep {

bool ascending(std::span<const std::int32_t> values) {
  const std::int32_t* v = values.data();
  std::size_t i = 0;
#ifdef __AVX2__
  for (; i + 9 <= values.size(); i += 8) {
    const __m256i a = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + i));
    const __m256i b = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + i + 1));
    const __m256i descending = _mm256_cmpgt_epi32(a, b);
    if (!_mm256_testz_si256(descending, descending)) return false;
  }
#endif
  for (; i + 1 < values.size(); ++i) {
    if (v[i] > v[i + 1]) return false;
  }
  return true;
}

bool consecutive(std::span<const std::int32_t> values) {
  if (values.empty()) return true;
  const std::int32_t* v = values.data();
  const std::int32_t first = v[0];
  std::size_t i = 0;
#ifdef __AVX2__
  const __m256i step = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (; i + 8 <= values.size(); i += 8) {
    const __m256i expected = _mm256_add_epi32(_mm256_set1_epi32(first + static_cast<std::int32_t>(i)), step);
    const __m256i got = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(v + i));
    if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(got, expected)) != -1) return false;
  }
#endif
  for (; i < values.size(); ++i) {
    if (v[i] != first + static_cast<std::int32_t>(i)) return false;
  }
  return true;
}

}  // namespace dcsweep
