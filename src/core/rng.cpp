#include "dcsweep/core/rng.hpp"

#include <Random123/philox.h>

#include <cmath>

namespace dcsweep {

RngStream::RngStream(StreamKey key, StreamPurpose purpose)
    : key_{key.seed, static_cast<std::uint64_t>(purpose)},
      counter_{key.point, key.replicate, 0, 0} {}

RngStream::RngStream(StreamKey key, StreamPurpose purpose, std::uint64_t substream) : RngStream(key, purpose) {
  counter_[3] = substream;
}

void RngStream::refill() {
  r123::Philox4x64 philox;
  const r123::Philox4x64::ctr_type counter = {{counter_[0], counter_[1], counter_[2], counter_[3]}};
  const r123::Philox4x64::key_type key = {{key_[0], key_[1]}};
  const auto out = philox(counter, key);
  for (unsigned i = 0; i < 4; ++i) block_[i] = out.v[i];
  ++counter_[2];  // block index within this stream
  used_ = 0;
}

std::uint64_t RngStream::next_u64() {
  if (used_ == 4) refill();
  return block_[used_++];
}

double RngStream::uniform01() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

double RngStream::uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }

std::int64_t RngStream::integer(std::int64_t lo, std::int64_t hi) {
  const std::uint64_t span = static_cast<std::uint64_t>(hi - lo) + 1;
  if (span == 0) return static_cast<std::int64_t>(next_u64());  // the full 64-bit range
  const std::uint64_t limit = UINT64_MAX - UINT64_MAX % span;    // largest multiple of span
  std::uint64_t x = next_u64();
  while (x >= limit) x = next_u64();
  return lo + static_cast<std::int64_t>(x % span);
}

double RngStream::exponential(double rate) { return -std::log1p(-uniform01()) / rate; }

}  // namespace dcsweep
