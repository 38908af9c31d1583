#include "dcsweep/alloc/machine.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "dcsweep/core/error.hpp"

namespace dcsweep {
namespace {

constexpr std::uint64_t bit(NodeId node) { return std::uint64_t{1} << (node & 63); }

}  // namespace

Machine::Machine(std::int32_t node_count)
    : node_count_(node_count),
      free_count_(node_count),
      free_bits_((static_cast<std::size_t>(node_count) + 63) / 64, ~std::uint64_t{0}) {
  if (node_count % 64 != 0) free_bits_.back() = (std::uint64_t{1} << (node_count % 64)) - 1;
  free_words_.assign((free_bits_.size() + 63) / 64, 0);
  for (std::size_t w = 0; w < free_bits_.size(); ++w) sync_word(w);
}

namespace {

/// Applies `op(word, mask)` to the nodes' words, one mask per run of nodes in the same word (a
/// first-fit job is whole words): no load-store chain per node. `ok(word, mask)` must hold for each
/// run, and a run's nodes must be distinct (the mask's popcount is the run's length); else the
/// first offending node is named through `fail`.
template <class Ok, class Op, class Fail, class Done>
void for_each_word(std::span<const NodeId> nodes, std::vector<std::uint64_t>& bits, Ok ok, Op op, Fail fail,
                   Done done) {
  for (std::size_t i = 0; i < nodes.size();) {
    const NodeId w = nodes[i] >> 6;
    std::uint64_t mask = 0;
    const std::size_t begin = i;
    if ((nodes[i] & 63) == 0 && i + 64 <= nodes.size() && consecutive(nodes.subspan(i, 64))) {
      mask = ~std::uint64_t{0};
      i += 64;
    }
    for (; i < nodes.size() && (nodes[i] >> 6) == w; ++i) mask |= bit(nodes[i]);
    std::uint64_t& word = bits[std::size_t(w)];
    if (!ok(word, mask) || std::popcount(mask) != int(i - begin)) {
      std::uint64_t seen = 0;  // the slow path: find the node to name
      for (std::size_t k = begin; k < i; ++k) {
        if (!ok(word, bit(nodes[k])) || (seen & bit(nodes[k]))) fail(nodes[k]);
        seen |= bit(nodes[k]);
      }
    }
    op(word, mask);
    done(std::size_t(w));
  }
}

}  // namespace

void Machine::occupy(std::span<const NodeId> nodes) {
  for_each_word(
      nodes, free_bits_, [](std::uint64_t word, std::uint64_t mask) { return (word & mask) == mask; },
      [](std::uint64_t& word, std::uint64_t mask) { word &= ~mask; },
      [](NodeId node) { throw SimulationError("node " + std::to_string(node) + " given to two jobs at once"); },
      [this](std::size_t w) { sync_word(w); });
  free_count_ -= static_cast<std::int32_t>(nodes.size());
}

void Machine::occupy(std::span<const NodeRun> runs) { mark_runs(runs, true); }

void Machine::release(std::span<const NodeRun> runs) { mark_runs(runs, false); }

void Machine::mark_runs(std::span<const NodeRun> runs, bool busy) {
  const std::uint64_t was = busy ? ~std::uint64_t{0} : 0;  // each word's free bits before, in the run
  for (const NodeRun& run : runs) {
    if (run.count < 0 || run.first < 0 || run.first > node_count_ - run.count) {
      throw SimulationError("nodes " + std::to_string(run.first) + "+" + std::to_string(run.count) +
                            " are not all on the machine (" + std::to_string(node_count_) + " nodes)");
    }
    if (run.count == 0) continue;
    const NodeId last = run.first + run.count - 1;
    const auto w0 = std::size_t(run.first >> 6), w1 = std::size_t(last >> 6);
    std::uint64_t head = ~std::uint64_t{0} << (run.first & 63);
    const std::uint64_t tail = ~std::uint64_t{0} >> (63 - (last & 63));
    if (w0 == w1) head &= tail;
    // Checked before anything changes: whole words in between compared without a branch each.
    bool ok = (free_bits_[w0] & head) == (was & head);
    if (w0 != w1) {
      ok = ok && (free_bits_[w1] & tail) == (was & tail);
      std::uint64_t differ = 0;
      for (std::size_t w = w0 + 1; w < w1; ++w) differ |= free_bits_[w] ^ was;
      ok = ok && differ == 0;
    }
    if (!ok) {
      for (NodeId node = run.first; node <= last; ++node) {
        if (is_free(node) == busy) continue;
        throw SimulationError("node " + std::to_string(node) + (busy ? " given to two jobs at once" : " released twice"));
      }
    }
    const auto apply = [&](std::size_t w, std::uint64_t mask) {
      free_bits_[w] = busy ? free_bits_[w] & ~mask : free_bits_[w] | mask;
      sync_word(w);
    };
    apply(w0, head);
    if (w0 != w1) {
      apply(w1, tail);
      if (w1 > w0 + 1) {
        std::fill(free_bits_.begin() + std::ptrdiff_t(w0 + 1), free_bits_.begin() + std::ptrdiff_t(w1), ~was);
        mark_words(w0 + 1, w1, !busy);
      }
    }
    free_count_ += busy ? -run.count : run.count;  // per run: right even if a later run is refused
  }
}

void Machine::mark_words(std::size_t from, std::size_t to, bool has_free) {
  for (std::size_t s = from >> 6; s <= (to - 1) >> 6; ++s) {
    const std::size_t lo = std::max(from, s * 64) - s * 64, hi = std::min(to, s * 64 + 64) - s * 64;
    const std::uint64_t mask = (hi - lo == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << (hi - lo)) - 1) << lo;
    free_words_[s] = has_free ? free_words_[s] | mask : free_words_[s] & ~mask;
  }
}

void Machine::release(std::span<const NodeId> nodes) {
  for_each_word(
      nodes, free_bits_, [](std::uint64_t word, std::uint64_t mask) { return (word & mask) == 0; },
      [](std::uint64_t& word, std::uint64_t mask) { word |= mask; },
      [](NodeId node) { throw SimulationError("node " + std::to_string(node) + " released twice"); },
      [this](std::size_t w) { sync_word(w); });
  free_count_ += static_cast<std::int32_t>(nodes.size());
}

namespace {

/// Moves nodes from the set `from` (which each must be in, else `what` fails) to `to`.
void move_bits(std::span<const NodeId> nodes, std::vector<std::uint64_t>& from, std::vector<std::uint64_t>* to,
               const char* what) {
  for (const NodeId node : nodes) {
    std::uint64_t& word = from[node >> 6];
    if ((word & bit(node)) == 0) throw SimulationError("node " + std::to_string(node) + " " + what);
    word &= ~bit(node);
    if (to) (*to)[node >> 6] |= bit(node);
  }
}

}  // namespace

void Machine::power_off(std::span<const NodeId> nodes) {
  if (off_bits_.empty()) {
    off_bits_.assign(free_bits_.size(), 0);
    booting_bits_.assign(free_bits_.size(), 0);
  }
  move_bits(nodes, free_bits_, &off_bits_, "switched off while not free");
  for (const NodeId node : nodes) sync_word(std::size_t(node >> 6));
  free_count_ -= static_cast<std::int32_t>(nodes.size());
  off_count_ += static_cast<std::int32_t>(nodes.size());
}

void Machine::begin_boot(std::span<const NodeId> nodes) {
  if (off_bits_.empty() && !nodes.empty()) throw SimulationError("node " + std::to_string(nodes[0]) + " booted while not off");
  move_bits(nodes, off_bits_, &booting_bits_, "booted while not off");
  off_count_ -= static_cast<std::int32_t>(nodes.size());
  booting_count_ += static_cast<std::int32_t>(nodes.size());
}

void Machine::end_boot(std::span<const NodeId> nodes) {
  if (booting_bits_.empty() && !nodes.empty()) throw SimulationError("node " + std::to_string(nodes[0]) + " not booting");
  move_bits(nodes, booting_bits_, &free_bits_, "finished a boot it had not begun");
  for (const NodeId node : nodes) sync_word(std::size_t(node >> 6));
  booting_count_ -= static_cast<std::int32_t>(nodes.size());
  free_count_ += static_cast<std::int32_t>(nodes.size());
}

void Machine::lowest_free(std::int32_t count, std::vector<NodeId>& out) const {
  const std::size_t start = out.size();
  out.resize(start + static_cast<std::size_t>(count));
  NodeId* next = out.data() + start;
  for (std::size_t s = 0; count > 0 && s < free_words_.size(); ++s) {
    for (std::uint64_t words = free_words_[s]; words != 0 && count > 0; words &= words - 1) {
      const std::size_t w = s * 64 + std::size_t(std::countr_zero(words));  // skips busy words
      std::uint64_t bits = free_bits_[w];
      const auto base = static_cast<NodeId>(w * 64);
      if (bits == ~std::uint64_t{0} && count >= 64) {  // a whole free word: 64 consecutive ids
        for (NodeId i = 0; i < 64; ++i) next[i] = base + i;
        next += 64;
        count -= 64;
        continue;
      }
      for (; bits != 0 && count > 0; bits &= bits - 1, --count) {
        *next++ = base + static_cast<NodeId>(std::countr_zero(bits));
      }
    }
  }
}

void Machine::lowest_free(std::int32_t count, std::vector<NodeRun>& out) const {
  for (std::size_t s = 0; count > 0 && s < free_words_.size(); ++s) {
    for (std::uint64_t words = free_words_[s]; words != 0 && count > 0; words &= words - 1) {
      const std::size_t w = s * 64 + std::size_t(std::countr_zero(words));  // skips busy words
      const auto base = static_cast<NodeId>(w * 64);
      for (std::uint64_t bits = free_bits_[w]; bits != 0 && count > 0;) {
        const int lo = std::countr_zero(bits);
        const int len = std::min(std::countr_one(bits >> lo), count);
        push_run(out, {base + lo, len});
        count -= len;
        bits = lo + len == 64 ? 0 : bits & ~((std::uint64_t{2} << (lo + len - 1)) - 1);
      }
    }
  }
}

void append_runs(std::span<const NodeId> nodes, std::vector<NodeRun>& out) {
  for_each_run(nodes, [&](NodeId first, NodeId end) { push_run(out, {first, end - first}); });
}

void append_ids(std::span<const NodeRun> runs, std::vector<NodeId>& out) {
  std::size_t at = out.size();
  out.resize(at + static_cast<std::size_t>(node_total(runs)));
  for (const NodeRun& run : runs) {
    for (std::int32_t k = 0; k < run.count; ++k) out[at++] = run.first + k;
  }
}

void sort_runs(std::vector<NodeRun>& runs) {
  const auto by_first = [](const NodeRun& a, const NodeRun& b) { return a.first < b.first; };
  if (std::is_sorted(runs.begin(), runs.end(), by_first) &&
      std::adjacent_find(runs.begin(), runs.end(), [](const NodeRun& a, const NodeRun& b) {
        return a.first + a.count == b.first;
      }) == runs.end()) {
    return;
  }
  std::sort(runs.begin(), runs.end(), by_first);
  std::size_t kept = 0;
  for (const NodeRun& run : runs) {
    if (kept > 0 && runs[kept - 1].first + runs[kept - 1].count == run.first) {
      runs[kept - 1].count += run.count;
    } else {
      runs[kept++] = run;
    }
  }
  runs.resize(kept);
}

}  // namespace dcsweep
