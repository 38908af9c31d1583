// The fast nearest allocators. They return exactly what the straightforward definition
// (nearest_reference.cpp) returns, with three exact accelerations:
// - MC1x1's score depends only on how many free nodes each shell holds: with F(r) the free
//   nodes within L_inf radius r of the centre (a box: O(1) from a 3D prefix-count table, the
//   torus unrolled to twice its length so a wrapped box stays one box) and R the first radius
//   with F(R) >= k, the sum of the k nodes' radii is sum over r < R of (k - F(r)). Nodes are
//   only collected for the winning centre.
// - Every term of that sum is positive, and a pair-distance sum only grows as nodes are
//   added, so a centre is dropped as soon as its partial score reaches the best so far
//   (ties keep the earlier centre, as the definition does).
// - Collection walks one precomputed list of offsets sorted in collection order (the whole
//   torus once; on a mesh every offset, skipping those off the edges), and pairwise hop sums
//   come from per-axis histograms in O(k + dimension sizes) (comm_cost.hpp).
#include <algorithm>
#include <limits>
#include <unordered_map>

#include "dcsweep/alloc/nearest.hpp"
#include "dcsweep/platform/network.hpp"
#include "network_grid.hpp"

namespace dcsweep {

using namespace nearest_detail;

struct NearestSearch::Impl {
  explicit Impl(const Platform& platform);

  std::vector<NodeId> allocate(NearestKind kind, const Machine& machine, std::int32_t k);
  std::vector<NodeId> mc1x1_around(const Machine& machine, NodeId centre, std::int32_t k) const {
    std::vector<NodeId> out = collect(shell_order_, machine, grid_.coordinate(centre), k);
    std::sort(out.begin(), out.end());
    return out;
  }

 private:
  // MC1x1
  std::vector<NodeId> mc1x1(const Machine& machine, std::int32_t k);
  void build_prefix(const Machine& machine);
  std::int64_t box_count(const Offset& centre, std::int32_t r) const;
  std::int64_t mc1x1_score(const Offset& centre, std::int32_t k, std::int64_t bound) const;
  // MM, Genalg
  std::vector<NodeId> by_pairwise_hops(NearestKind kind, const Machine& machine, std::int32_t k);
  std::vector<Offset> centres(NearestKind kind, const Machine& machine) const;
  std::int64_t l1_score(const Machine& machine, const Offset& centre, std::int32_t k, std::int64_t bound);
  std::int64_t histogram_score();
  std::int64_t ideal_score(std::int32_t k);
  bool box_all_free(const Offset& centre, std::int32_t r) const;
  // shared
  std::vector<NodeId> collect(const std::vector<Offset>& order, const Machine& machine, const Offset& centre,
                              std::int32_t k) const;
  template <class Visit>
  void walk(const std::vector<Offset>& order, const Offset& centre, Visit&& visit) const;

  NetworkGrid grid_;
  std::array<std::int32_t, 3> ext_;  ///< prefix table extent per dimension (torus: 2L)
  std::vector<std::int32_t> prefix_;
  std::vector<std::uint8_t> free_;  ///< per node, for the prefix build
  /// shifted_[d][v + L]: the coordinate v in [-L, 2L) lands on (wrapped on a torus, -1 off a mesh)
  std::array<std::vector<std::int32_t>, 3> shifted_;
  std::vector<Offset> shell_order_, l1_order_;
  std::array<AxisHistogram, 3> axes_;
  std::vector<NodeId> taken_;
  std::unordered_map<std::int32_t, std::int64_t> ideal_;  ///< ideal_score by k
};

namespace {

/// Every offset a collector can visit, sorted by `key`: the torus's canonical range once, or on
/// a mesh every offset from -(L-1) to L-1 (a centre skips those off its edges).
template <class Key>
std::vector<Offset> sorted_offsets(const NetworkGrid& grid, Key key) {
  std::array<std::int32_t, 3> lo, hi;
  for (int d = 0; d < 3; ++d) {
    lo[d] = grid.torus() ? -((grid.dims()[d] - 1) / 2) : -(grid.dims()[d] - 1);
    hi[d] = grid.torus() ? grid.dims()[d] / 2 : grid.dims()[d] - 1;
  }
  std::vector<Offset> out;
  for (std::int32_t x = lo[0]; x <= hi[0]; ++x) {
    for (std::int32_t y = lo[1]; y <= hi[1]; ++y) {
      for (std::int32_t z = lo[2]; z <= hi[2]; ++z) out.push_back({x, y, z});
    }
  }
  std::sort(out.begin(), out.end(), [&](const Offset& a, const Offset& b) { return key(a) < key(b); });
  return out;
}

}  // namespace

NearestSearch::Impl::Impl(const Platform& platform)
    : grid_(platform),
      shell_order_(sorted_offsets(grid_, shell_key)),
      l1_order_(sorted_offsets(grid_, l1_key)) {
  for (int d = 0; d < 3; ++d) {
    ext_[d] = grid_.torus() ? 2 * grid_.dims()[d] : grid_.dims()[d];
    axes_[d].count.assign(std::size_t(grid_.dims()[d]), 0);
    axes_[d].wrap = grid_.torus() ? grid_.dims()[d] : 0;
    const std::int32_t len = grid_.dims()[d];
    for (std::int32_t v = -len; v < 2 * len; ++v) {
      shifted_[d].push_back(grid_.torus() ? (v + len) % len : (v >= 0 && v < len ? v : -1));
    }
  }
  prefix_.assign(std::size_t(ext_[0] + 1) * std::size_t(ext_[1] + 1) * std::size_t(ext_[2] + 1), 0);
}

std::vector<NodeId> NearestSearch::Impl::allocate(NearestKind kind, const Machine& machine, std::int32_t k) {
  std::vector<NodeId> out;
  if (machine.free_count() == k) {
    machine.lowest_free(k, out);
    return out;
  }
  out = kind == NearestKind::mc1x1 ? mc1x1(machine, k) : by_pairwise_hops(kind, machine, k);
  std::sort(out.begin(), out.end());
  return out;
}

template <class Visit>
void NearestSearch::Impl::walk(const std::vector<Offset>& order, const Offset& centre, Visit&& visit) const {
  std::array<const std::int32_t*, 3> along;  // coordinate at offset o along d: along[d][o]
  for (int d = 0; d < 3; ++d) along[d] = shifted_[d].data() + grid_.dims()[d] + centre[d];
  const std::int32_t ly = grid_.dims()[1], lz = grid_.dims()[2];
  for (const Offset& o : order) {
    const Offset c{along[0][o[0]], along[1][o[1]], along[2][o[2]]};
    if ((c[0] | c[1] | c[2]) < 0) continue;  // off a mesh's edge
    if (!visit((c[0] * ly + c[1]) * lz + c[2], c)) return;
  }
}

std::vector<NodeId> NearestSearch::Impl::collect(const std::vector<Offset>& order, const Machine& machine,
                                                 const Offset& centre, std::int32_t k) const {
  std::vector<NodeId> out;
  walk(order, centre, [&](NodeId n, const Offset&) {
    if (machine.is_free(n)) out.push_back(n);
    return std::ssize(out) < k;
  });
  return out;
}

// ---- MC1x1 -------------------------------------------------------------------------------------

void NearestSearch::Impl::build_prefix(const Machine& machine) {
  const auto [lx, ly, lz] = grid_.dims();
  free_.resize(std::size_t(grid_.node_count()));
  for (NodeId n = 0; n < grid_.node_count(); ++n) free_[std::size_t(n)] = machine.is_free(n) ? 1 : 0;
  const std::size_t sy = std::size_t(ext_[2] + 1), sx = sy * std::size_t(ext_[1] + 1);
  for (std::int32_t x = 0; x < ext_[0]; ++x) {
    for (std::int32_t y = 0; y < ext_[1]; ++y) {
      const std::uint8_t* line_free = free_.data() + std::size_t(((x % lx) * ly + y % ly) * lz);
      std::int32_t* at = prefix_.data() + std::size_t(x + 1) * sx + std::size_t(y + 1) * sy + 1;
      std::int32_t line = 0;  // running count along z; the x and y prefixes added
      for (std::int32_t z = 0; z < ext_[2]; ++z, ++at) {
        line += line_free[z < lz ? z : z - lz];
        *at = line + at[-std::ptrdiff_t(sx)] + at[-std::ptrdiff_t(sy)] - at[-std::ptrdiff_t(sx + sy)];
      }
    }
  }
}

std::int64_t NearestSearch::Impl::box_count(const Offset& centre, std::int32_t r) const {
  std::array<std::size_t, 3> lo, hi;  // half-open [lo, hi) in the (unrolled) table
  for (int d = 0; d < 3; ++d) {
    const std::int32_t len = grid_.dims()[d];
    if (grid_.torus()) {
      const bool whole = 2 * r + 1 >= len;
      const std::int32_t start = whole ? 0 : centre[d] - r + (centre[d] < r ? len : 0);
      lo[d] = std::size_t(start), hi[d] = std::size_t(start + (whole ? len : 2 * r + 1));
    } else {
      lo[d] = std::size_t(std::max(0, centre[d] - r)), hi[d] = std::size_t(std::min(len, centre[d] + r + 1));
    }
  }
  const std::size_t sy = std::size_t(ext_[2] + 1), sx = sy * std::size_t(ext_[1] + 1);
  auto p = [&](std::size_t x, std::size_t y, std::size_t z) { return std::int64_t{prefix_[x * sx + y * sy + z]}; };
  return p(hi[0], hi[1], hi[2]) - p(lo[0], hi[1], hi[2]) - p(hi[0], lo[1], hi[2]) - p(hi[0], hi[1], lo[2]) +
         p(lo[0], lo[1], hi[2]) + p(lo[0], hi[1], lo[2]) + p(hi[0], lo[1], lo[2]) - p(lo[0], lo[1], lo[2]);
}

/// Sum over r < R of (k - F(r)); stops at `bound` (the centre cannot win then).
std::int64_t NearestSearch::Impl::mc1x1_score(const Offset& centre, std::int32_t k, std::int64_t bound) const {
  std::int64_t partial = 0;
  for (std::int32_t r = 0;; ++r) {
    const std::int64_t found = box_count(centre, r);
    if (found >= k) return partial;
    partial += k - found;
    if (partial >= bound) return partial;
  }
}

std::vector<NodeId> NearestSearch::Impl::mc1x1(const Machine& machine, std::int32_t k) {
  build_prefix(machine);
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  Offset best_centre{};
  const auto [lx, ly, lz] = grid_.dims();
  NodeId n = 0;
  for (std::int32_t x = 0; x < lx; ++x) {
    for (std::int32_t y = 0; y < ly; ++y) {
      for (std::int32_t z = 0; z < lz; ++z, ++n) {
        if (!free_[std::size_t(n)]) continue;
        const std::int64_t s = mc1x1_score({x, y, z}, k, best);
        if (s < best) best = s, best_centre = {x, y, z};
      }
    }
  }
  return collect(shell_order_, machine, best_centre, k);
}

// ---- MM, Genalg ----------------------------------------------------------------------------------

std::vector<Offset> NearestSearch::Impl::centres(NearestKind kind, const Machine& machine) const {
  std::vector<Offset> out;
  if (kind == NearestKind::genalg) {
    for (NodeId n = 0; n < grid_.node_count(); ++n) {
      if (machine.is_free(n)) out.push_back(grid_.coordinate(n));
    }
    return out;
  }
  std::array<std::vector<bool>, 3> present;  // MM: coordinates some free node has
  for (int d = 0; d < 3; ++d) present[d].assign(std::size_t(grid_.dims()[d]), false);
  for (NodeId n = 0; n < grid_.node_count(); ++n) {
    if (!machine.is_free(n)) continue;
    const Offset c = grid_.coordinate(n);
    for (int d = 0; d < 3; ++d) present[d][std::size_t(c[d])] = true;
  }
  for (NodeId n = 0; n < grid_.node_count(); ++n) {
    const Offset c = grid_.coordinate(n);
    if (present[0][std::size_t(c[0])] && present[1][std::size_t(c[1])] && present[2][std::size_t(c[2])]) out.push_back(c);
  }
  return out;
}

std::int64_t NearestSearch::Impl::histogram_score() {
  std::int64_t total = 0;
  for (const AxisHistogram& axis : axes_) total += axis_pair_distance_sum(axis);
  return total;
}

/// Pairwise hops of the k nodes collected around `centre`. The sum of the nodes taken so far
/// is a lower bound, checked every max(16, k/16) nodes (O(dimension sizes) each).
std::int64_t NearestSearch::Impl::l1_score(const Machine& machine, const Offset& centre, std::int32_t k,
                                           std::int64_t bound) {
  taken_.clear();
  std::int64_t score = 0;
  std::int32_t check_at = k / 2;
  walk(l1_order_, centre, [&](NodeId n, const Offset& c) {
    if (!machine.is_free(n)) return true;
    taken_.push_back(n);
    for (int d = 0; d < 3; ++d) ++axes_[d].count[std::size_t(c[d])];
    const auto size = static_cast<std::int32_t>(taken_.size());
    if (size == k || size == check_at) {
      score = histogram_score();
      check_at = size + std::max<std::int32_t>(1, std::min(k - size, std::max(16, k / 16)));
      return size < k && score < bound;
    }
    return true;
  });
  for (const NodeId n : taken_) {
    const Offset c = grid_.coordinate(n);
    for (int d = 0; d < 3; ++d) --axes_[d].count[std::size_t(c[d])];
  }
  return score;
}

/// The pairwise hops of the first k offsets of l1_order_: what every centre collects whose
/// surroundings are free (box_all_free at their largest L1 radius). Translation-invariant.
std::int64_t NearestSearch::Impl::ideal_score(std::int32_t k) {
  if (const auto it = ideal_.find(k); it != ideal_.end()) return it->second;
  std::array<AxisHistogram, 3> axes;
  for (int d = 0; d < 3; ++d) {
    const std::int32_t len = grid_.dims()[d];
    axes[d].wrap = grid_.torus() ? len : 0;
    axes[d].count.assign(std::size_t(grid_.torus() ? len : 2 * len - 1), 0);
  }
  for (std::int32_t i = 0; i < k; ++i) {
    for (int d = 0; d < 3; ++d) {
      const std::int32_t len = grid_.dims()[d], o = l1_order_[std::size_t(i)][d];
      ++axes[d].count[std::size_t(grid_.torus() ? (o + len) % len : o + len - 1)];
    }
  }
  std::int64_t total = 0;
  for (const AxisHistogram& axis : axes) total += axis_pair_distance_sum(axis);
  return ideal_[k] = total;
}

/// Whether every node within L_inf radius r of `centre` is free and, on a mesh, inside it: then
/// every offset of L1 length <= r is a free node, and a centre needing no farther one collects
/// exactly l1_order_'s first nodes (needs build_prefix).
bool NearestSearch::Impl::box_all_free(const Offset& centre, std::int32_t r) const {
  std::int64_t volume = 1;
  for (int d = 0; d < 3; ++d) {
    const std::int32_t len = grid_.dims()[d];
    if (grid_.torus()) {
      volume *= std::min(2 * r + 1, len);
    } else {
      if (centre[d] < r || centre[d] + r >= len) return false;
      volume *= 2 * r + 1;
    }
  }
  return box_count(centre, r) == volume;
}

/// Below this many nodes the walks are short: no prefix table.
constexpr std::int32_t kIdealSkipMinNodes = 32;

std::vector<NodeId> NearestSearch::Impl::by_pairwise_hops(NearestKind kind, const Machine& machine, std::int32_t k) {
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  Offset best_centre{};
  // Every centre with a free box of radius r (the k-th offset's L1 length) scores ideal_score(k):
  // the first one is scored without a walk, the later ones only tie (ties keep the earlier).
  const bool skip = k >= kIdealSkipMinNodes;
  const std::int32_t r = skip ? l1(l1_order_[std::size_t(k - 1)]) : 0;
  bool ideal_seen = false;
  if (skip) build_prefix(machine);
  for (const Offset& centre : centres(kind, machine)) {
    if (skip && box_all_free(centre, r)) {
      if (ideal_seen) continue;
      ideal_seen = true;
      const std::int64_t s = ideal_score(k);
      if (s < best) best = s, best_centre = centre;
      continue;
    }
    const std::int64_t s = l1_score(machine, centre, k, best);
    if (s < best) best = s, best_centre = centre;
  }
  return collect(l1_order_, machine, best_centre, k);
}

// ---- public ------------------------------------------------------------------------------------

NearestSearch::NearestSearch(const Platform& platform) : impl_(std::make_unique<Impl>(platform)) {}
NearestSearch::~NearestSearch() = default;
NearestSearch::NearestSearch(NearestSearch&&) noexcept = default;
NearestSearch& NearestSearch::operator=(NearestSearch&&) noexcept = default;

std::vector<NodeId> NearestSearch::allocate(NearestKind kind, const Machine& machine, std::int32_t nodes) {
  return impl_->allocate(kind, machine, nodes);
}

std::vector<NodeId> NearestSearch::mc1x1_around(const Machine& machine, NodeId centre, std::int32_t nodes) {
  return impl_->mc1x1_around(machine, centre, nodes);
}

std::vector<NodeId> nearest_allocate(NearestKind kind, const Platform& platform, const Machine& machine,
                                     std::int32_t nodes) {
  return NearestSearch(platform).allocate(kind, machine, nodes);
}

std::string_view nearest_name(NearestKind kind) {
  switch (kind) {
    case NearestKind::mc1x1: return "mc1x1";
    case NearestKind::mm: return "mm";
    case NearestKind::genalg: return "genalg";
  }
  return "?";
}

void require_network(const Platform& platform, std::string_view allocator) {
  if (platform.network == NetworkKind::none) {
    throw InputError("allocator '" + std::string(allocator) + "' needs a platform with a network (mesh or torus); platform '" +
                     platform.name + "' has none");
  }
  NetworkGrid{platform};  // dimensions covering the nodes
}

}  // namespace dcsweep

// ---- the Allocator -------------------------------------------------------------------------------

#include "nearest_allocator.hpp"

namespace dcsweep {
namespace {

class NearestAllocator final : public Allocator {
 public:
  NearestAllocator(NearestKind kind, const Platform& platform) : kind_(kind), search_(platform) {}

  bool allocate(const AllocationRequest& request, std::vector<NodeId>& out) override {
    out = search_.allocate(kind_, request.machine, request.nodes);
    return true;
  }

 private:
  NearestKind kind_;
  NearestSearch search_;
};

}  // namespace

AllocatorRegistry::Entry nearest_allocator_entry(NearestKind kind, std::string help) {
  return {std::string(nearest_name(kind)), std::move(help), {},
          [kind](const BuildContext&, const Platform& platform) -> std::unique_ptr<Allocator> {
            require_network(platform, nearest_name(kind));
            return std::make_unique<NearestAllocator>(kind, platform);
          }};
}

}  // namespace dcsweep
