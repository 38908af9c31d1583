#include "dcsweep/core/int_runs.hpp"

#include <charconv>
#include <stdexcept>

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

std::string runs_text(std::span<const std::int32_t> values) {
  std::string out;
  for (std::size_t i = 0; i < values.size();) {
    std::size_t j = i + 1;
    while (j < values.size() && values[j] == values[j - 1] + 1) ++j;
    if (!out.empty()) out += ' ';
    out += std::to_string(values[i]);
    if (j - i > 1) out += '-' + std::to_string(values[j - 1]);
    i = j;
  }
  return out;
}

std::vector<std::int32_t> parse_runs_text(std::string_view text) {
  std::vector<std::int32_t> out;
  auto number = [&](std::string_view s) {
    std::int32_t v = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || s.empty()) {
      throw std::invalid_argument("not a node list: '" + std::string(text) + "'");
    }
    return v;
  };
  while (!text.empty()) {
    const std::size_t space = text.find(' ');
    const std::string_view item = text.substr(0, space);
    const std::size_t dash = item.find('-');
    const std::int32_t first = number(item.substr(0, dash));
    const std::int32_t last = dash == std::string_view::npos ? first : number(item.substr(dash + 1));
    if (last < first) throw std::invalid_argument("not a node list: '" + std::string(text) + "'");
    for (std::int32_t v = first; v <= last; ++v) out.push_back(v);
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
  }
  return out;
}

}  // namespace dcsweep
