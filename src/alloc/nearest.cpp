// The fast nearest allocators. They return exactly what the straightforward definition
// (nearest_reference.cpp) returns, with four exact accelerations:
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
// - MM and Genalg score most centres from the ideal shape (l1_order's first k offsets) less its
//   busy nodes, without walking (shape_score).
#include "dcsweep/alloc/nearest.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <unordered_map>

#include "dcsweep/platform/network.hpp"
#include "network_grid.hpp"

namespace dcsweep {

using namespace nearest_detail;

namespace {

/// On a torus, MM and Genalg score a centre from plane tables (ball_score) for jobs of this many
/// nodes or more; smaller ones are scored from the ideal shape as fast or faster (on intrepid,
/// CEA-Curie's jobs of 2-3 nodes took 8-11% longer from balls, of 4-7 about as long, of 8-63
/// 8-34% less long).
constexpr std::int32_t kBallMinNodes = 8;

/// The plane tables hold balls of volume ball_reach x k / (free share) nodes: enough for most of
/// the kind's centres (those that need more are scored from rows of busy bits, slower). MM's
/// centres include busy nodes in busy regions, far from k free nodes: on intrepid, the 512-node
/// decisions of CEA-Curie from record 10,500 (one core, medians) took 41 ms at 3, 29 at 6, 26 at
/// 10, 26 at 15 and 29 at 25 (the tables' build grows with the radius); Genalg's centres are free:
/// 13.6, 14.7, 15.3, 16.0 ms. Oxley4320's decisions the same at each.
/// On a torus, MM's tables are rebuilt once, to the widest radius the O(1) recurrence builds
/// (recurrence_reach: 15 on intrepid), the first time a centre's ball at their radius holds too
/// few free nodes: MM's centres in the busy blocks of large jobs were grown ring by ring from rows
/// of busy bits (radius_beyond_tables). On intrepid from record 10,500 its jobs of 8-15 nodes spent
/// 35% of their centres' time there (7% of the centres); the 2,000-job run's decisions took 27.1
/// -> 24.6 CPU s (p99 111 -> 69 ms), `k~512` the same; the cell (both binaries at once, cores
/// swapped, medians of 4) 26.7 -> 24.3 s, every decision the same. Wider than the recurrence's
/// reach was slower (each ball then a sum of lines; since December 2 wider balls come from the
/// plane's diagonals in O(1) too, and growing to 32 still gave a k~512 median of 10.9-11.0 ms
/// against 10.2-10.3 at 15, one core in turn), as was growing Genalg's (11.97 -> 12.65 s: its
/// centres are free nodes, few beyond its tables); a random half-busy machine's decisions the
/// same (+-3%). A decision after one whose centres needed the wider balls builds them at once
/// (large jobs' blocks outlast a decision): the cell about 2% less again (four runs each way).
double ball_reach(NearestKind kind) { return kind == NearestKind::mm ? 10.0 : 3.0; }
/// MM's tables grow to at most this radius (intrepid's recurrence reach): on a larger torus the
/// tables (3 x nodes x (radius + 1) counts, their changed planes rebuilt each decision) would grow
/// with its sides.
constexpr std::int32_t kMaxGrownRadius = 15;
/// A decision keeps the plane tables of an earlier one that hold balls up to at most this much
/// beyond its own radius, building again only the planes where a node changed since
/// (build_ball_tables; a score does not depend on the tables' radius, only where its counts are
/// read from). On intrepid from record 10,500, 895 of MM's 1,978 builds asked for the radius of the
/// build before, and about 8 of the 32-40 planes of each axis had changed since it; one core, eight
/// pairs in turn: the run's decisions 0.91-0.96 x, `k~512` median 0.89-0.98 x (a slack of 0, 10 or
/// 20 about alike). MM's tables grown to 20 or 25 instead of 15 with it: no gain. Where every
/// plane changed, the tables are built at the decision's own radius (no wider than asked).
constexpr std::int32_t kKeptTablesSlack = 10;

/// From this many nodes, a decision scored from balls tests no centre's L_inf box (the balls show
/// the same centres collecting the ideal shape) and builds no prefix table. On intrepid a third
/// busy or more, the boxes of 512-node jobs (about 19^3 nodes) were free around a fifth of the
/// centres; without the boxes and their table those decisions took 5-6% less (genalg 12.8 -> 12.1
/// ms, mm 25.7 -> 24.5 ms), and the 2,000-job run's decisions about the same (from 64 nodes too).
constexpr std::int32_t kBallsAloneMinNodes = 256;
/// Whether a decision is scored from balls alone (no boxes, no prefix table).
bool balls_alone(bool balls, std::int32_t k) { return balls && k >= kBallsAloneMinNodes; }

/// Job sizes whose scores a NearestSearch keeps between decisions (ScoreMemo: at most 14 bytes a
/// node each).
constexpr std::size_t kMemoSizes = 8;

/// ball_score's answer for a centre that collects the ideal shape (scores are at least 0).
constexpr std::int64_t kIdealShape = -2;

/// Sorts distinct node ids below `limit` ascending: LSD radix by bytes (joint sorts a shell per
/// centre, hundreds of nodes each); std::sort for short lists.
void sort_ids(std::vector<NodeId>& ids, std::int32_t limit) {
  if (ids.size() < 64) {
    std::sort(ids.begin(), ids.end());
    return;
  }
  std::vector<NodeId> other(ids.size());
  for (int shift = 0; shift < 32 && (limit - 1) >> shift > 0; shift += 8) {
    std::array<std::size_t, 257> start{};
    for (const NodeId n : ids) ++start[std::size_t((n >> shift) & 0xff) + 1];
    for (std::size_t b = 1; b < start.size(); ++b) start[b] += start[b - 1];
    for (const NodeId n : ids) other[start[std::size_t((n >> shift) & 0xff)]++] = n;
    ids.swap(other);
  }
}

/// Word `word` of a row of bits, kept to the bits of coordinates a..e.
std::uint64_t row_bits_between(const std::uint64_t* row, std::int32_t word, std::int32_t a, std::int32_t e) {
  std::uint64_t bits = row[word];
  if (word == a / 64) bits &= ~std::uint64_t{0} << (a % 64);
  if (word == e / 64 && e % 64 != 63) bits &= (std::uint64_t{1} << (e % 64 + 1)) - 1;
  return bits;
}

/// Pairwise hops of the nodes counted in three axis histograms.
std::int64_t pair_hops(const std::array<AxisHistogram, 3>& axes) {
  std::int64_t total = 0;
  for (const AxisHistogram& axis : axes) total += axis_pair_distance_sum(axis);
  return total;
}

}  // namespace

struct NearestSearch::Impl {
  explicit Impl(const Platform& platform);

  std::vector<NodeId> allocate(NearestKind kind, const Machine& machine, std::int32_t k);
  std::int64_t centre_score(NearestKind kind, const Machine& machine, NodeId centre, std::int32_t k);
  void mc1x1_around(const Machine& machine, NodeId centre, std::int32_t k, std::vector<NodeId>& out) const {
    collect(shell_order_, machine, grid_.coordinate(centre), k, out);
  }
  void sort_ascending(std::vector<NodeId>& ids) const { sort_ids(ids, grid_.node_count()); }
  bool prepare_zone_counts(const Machine& machine, std::span<const std::int32_t> zone_of_node, std::int32_t zones);
  bool prepare_box_sums(const Machine& machine, std::span<const double> weights, std::size_t width);
  void surely_taken_sums(NodeId centre, std::int32_t k, std::span<double> sums) const;
  void surely_taken_per_zone(NodeId centre, std::int32_t k, std::vector<std::int32_t>& counts) const;
  void add_last_shell_per_zone(const Machine& machine, NodeId centre, std::int32_t k,
                               std::span<const std::int32_t> zone_of_node, std::vector<std::int32_t>& counts) const;

 private:
  // MC1x1
  std::vector<NodeId> mc1x1(const Machine& machine, std::int32_t k);
  void read_free(const Machine& machine);
  void build_prefix(const Machine& machine);
  template <class T, class Add>
  void build_cell_prefix(const Machine& machine, std::vector<T>& table, std::size_t width, Add&& add);
  std::int64_t box_count(const Offset& centre, std::int32_t r) const;
  /// The cube inside the last shell MC1x1 opens around `centre` for k nodes (L_inf radius R - 1):
  /// R, and the cube's corners in a prefix table `cell` entries wide (R = 0: no cube, no corners).
  std::int32_t inner_cube(NodeId centre, std::int32_t k, std::size_t cell, std::array<std::size_t, 8>& corner) const;
  /// Entry q of a box's sum from the entries at its corners (box_corners' signs; unsigned T wraps).
  template <class T>
  static T box_sum(const T* table, const std::array<std::size_t, 8>& corner, std::size_t q) {
    const auto p = [&](std::size_t i) { return table[corner[i] + q]; };
    return T(p(0) - p(1) - p(2) - p(3) + p(4) + p(5) + p(6) - p(7));
  }
  /// The first L_inf radius whose cube around `c` holds k free nodes (after build_prefix): the
  /// last shell MC1x1 opens there.
  std::int32_t last_shell_radius(const Offset& c, std::int32_t k) const;
  /// The box of L_inf radius r around centre in the (unrolled) prefix tables: start, length.
  std::pair<Offset, Offset> box_range(const Offset& centre, std::int32_t r) const;
  /// Free nodes in the box of `len` coordinates from `start` per dimension (start in [0, L),
  /// len <= L; wrapped on a torus). Needs build_prefix.
  std::int64_t range_count(const Offset& start, const Offset& len) const {
    return box_sum(prefix_.data(), box_corners(start, len, 1), 0);
  }
  /// The prefix-table entries at a box's 8 corners, each cell `cell` entries wide (prefix_: 1,
  /// zone_prefix_: zones); the box's sum is + [0] - [1] - [2] - [3] + [4] + [5] + [6] - [7].
  std::array<std::size_t, 8> box_corners(const Offset& start, const Offset& len, std::size_t cell) const {
    const std::size_t sy = std::size_t(ext_[2] + 1) * cell, sx = sy * std::size_t(ext_[1] + 1);
    const std::size_t x0 = std::size_t(start[0]) * sx, y0 = std::size_t(start[1]) * sy, z0 = std::size_t(start[2]) * cell;
    const std::size_t x1 = x0 + std::size_t(len[0]) * sx, y1 = y0 + std::size_t(len[1]) * sy,
                      z1 = z0 + std::size_t(len[2]) * cell;
    return {x1 + y1 + z1, x0 + y1 + z1, x1 + y0 + z1, x1 + y1 + z0, x0 + y0 + z1, x0 + y1 + z0, x1 + y0 + z0, x0 + y0 + z0};
  }
  std::int64_t mc1x1_score(const Offset& centre, std::int32_t k, std::int64_t bound) const;
  // MM, Genalg
  std::vector<NodeId> by_pairwise_hops(NearestKind kind, const Machine& machine, std::int32_t k);
  /// The centres in the order they are scored (centres_, refilled).
  const std::vector<Offset>& centres(NearestKind kind, const Machine& machine);
  std::int64_t l1_score(const Machine& machine, const Offset& centre, std::int32_t k, std::int64_t bound);
  /// l1_order's first k offsets: the L1 length of the last, their histogram per axis (by offset
  /// from the range's lowest) and their pairwise hops.
  struct IdealShape {
    std::int32_t r = 0;
    std::array<std::vector<std::int64_t>, 3> count;
    /// attach[d][o - lo]: distance along d from offset o to the shape's nodes, summed; a node's
    /// hops to the whole shape are its three attach values
    std::array<std::vector<std::int64_t>, 3> attach;
    std::int64_t score = 0;
    /// Its nodes at L1 length r per x offset o (index o + r): how many it takes (a prefix of
    /// each plane's ring in l1_order_), of how many offsets the ring has.
    std::vector<std::int32_t> shell_take, shell_ring;
    /// l1_order_'s range of the one plane whose ring it takes in part (empty: none).
    std::size_t partial_begin = 0, partial_end = 0;
  };
  const IdealShape& ideal_shape(std::int32_t k);
  bool prepare_pairwise(NearestKind kind, const Machine& machine, std::int32_t k);
  std::int64_t pairwise_score(const Machine& machine, const Offset& centre, std::int32_t k, const IdealShape* ideal,
                              bool balls, std::int64_t bound);
  /// The scores an earlier decision of the same kind and job size left (by_pairwise_hops, from
  /// balls): a centre's answer is a function of the free nodes within L1 distance R of it (R its
  /// ball's radius), so it holds until one of those changes.
  struct ScoreMemo {
    NearestKind kind = NearestKind::mm;
    std::int32_t k = 0;
    std::uint64_t used = 0;            ///< memo_clock_ at its last decision
    std::vector<std::uint8_t> free;    ///< the machine its entries hold for (free_ then)
    std::vector<std::int64_t> value;   ///< pairwise_score's answer, by centre node
    std::vector<std::int32_t> radius;  ///< R; -1: no entry
    std::vector<std::uint8_t> exact;   ///< value is the score (else a lower bound, at or above that decision's best)
  };
  /// The memo of (kind, k), its entries kept where no node within their radius changed since
  /// (after prepare_pairwise: free_ holds the machine); a new one, replacing the least recently
  /// used of kMemoSizes, where there is none.
  ScoreMemo& score_memo(NearestKind kind, std::int32_t k);
  /// change_dist_[n]: L1 distance (wrapped on a torus) from node n to the nearest node whose
  /// free_ differs from `before`, or more than any radius where none does.
  void distance_to_changes(const std::vector<std::uint8_t>& before);
  bool box_all_free(const Offset& centre, std::int32_t r) const;
  void build_busy_rows();
  std::int64_t shape_score(const Machine& machine, const Offset& centre, std::int32_t k, const IdealShape& ideal,
                           std::int64_t bound);
  // MM, Genalg: balls from per-plane tables
  void build_ball_tables(std::int32_t rho);
  template <class Slice>
  void diagonal_balls(const std::vector<std::uint16_t>& lines, std::int32_t la, std::int32_t lb, std::int32_t cap,
                      std::int32_t direct, std::size_t line_stride, Slice&& slice);
  /// On a torus, the widest radius build_ball_tables builds in O(1) a cell on every plane (the
  /// ball does not wrap onto itself); -1 on a mesh.
  std::int32_t recurrence_reach() const;
  std::int32_t ball_radius(NearestKind kind, std::int32_t k, std::int32_t free) const;
  /// kIdealShape where the centre collects the ideal shape (l1_order_'s first k offsets all free).
  std::int64_t ball_score(const Machine& machine, const Offset& centre, std::int32_t k, const IdealShape& ideal,
                          std::int64_t bound);
  bool shell_as_ideal(const Machine& machine, const Offset& centre, const IdealShape& ideal) const;
  static std::int32_t free_between(const std::uint64_t* row, std::int32_t a, std::int32_t e);
  static std::int32_t free_at_offsets(const std::uint64_t* row, std::int32_t len, std::int32_t c, std::int32_t lo,
                                      std::int32_t hi);
  std::int32_t plane_ball_rows(int d, std::int32_t v, std::int32_t rho, const Offset& centre,
                               const std::array<std::int32_t, 3>& first, const std::array<std::int32_t, 3>& last);
  void build_busy_cols();
  /// Walks plane x's ring at 2D L1 radius s around `centre`: walk_ring_window where the ring can
  /// be read from free_rows2_ (a torus whose z rows fit, a ring inside the offsets' range along y
  /// and z, so no offset wraps onto another), else walk_ring_bits.
  template <class Visit>
  void walk_ring(std::int32_t x, std::int32_t s, const Offset& centre, const std::array<std::int32_t, 3>& first,
                 const std::array<std::int32_t, 3>& last, Visit&& visit) const {
    if (!free_rows2_.empty() && -s >= first[1] && s <= last[1] && -s >= first[2] && s <= last[2]) {
      walk_ring_window(x, s, centre, visit);
    } else {
      walk_ring_bits(x, s, centre, first, last, visit);
    }
  }
  template <class Visit>
  void walk_ring_bits(std::int32_t x, std::int32_t s, const Offset& centre, const std::array<std::int32_t, 3>& first,
                      const std::array<std::int32_t, 3>& last, Visit&& visit) const;
  /// walk_ring_bits for a ring inside the offsets' range on a torus at most 32 long along z, each
  /// row's two bits read from one shifted word of free_rows2_.
  template <class Visit>
  void walk_ring_window(std::int32_t x, std::int32_t s, const Offset& centre, Visit&& visit) const;
  std::int32_t radius_beyond_tables(const Offset& centre, std::int32_t k, const std::array<std::int32_t, 3>& first,
                                    const std::array<std::int32_t, 3>& last, std::int32_t& inside);
  /// Free nodes of plane v of axis d (the other two axes in order: a, b) within L1 distance
  /// (on a torus, wrapped) rho of the plane's point (a, b) of `centre`; rho in [0, ball_rho_].
  std::int32_t plane_ball(int d, std::int32_t v, std::int32_t rho, const Offset& centre) const {
    return PlaneBalls(*this, d, centre)(v, rho);
  }
  std::int64_t offset_index(std::int32_t ox, std::int32_t oy, std::int32_t oz) const {
    return (std::int64_t(ox - lo_[0]) * span_[1] + (oy - lo_[1])) * span_[2] + (oz - lo_[2]);
  }
  // shared
  std::vector<NodeId> collect(const std::vector<Offset>& order, const Machine& machine, const Offset& centre,
                              std::int32_t k) const {
    std::vector<NodeId> out;
    collect(order, machine, centre, k, out);
    return out;
  }
  void collect(const std::vector<Offset>& order, const Machine& machine, const Offset& centre, std::int32_t k,
               std::vector<NodeId>& out) const;
  template <class Visit>
  void walk(std::span<const Offset> order, const Offset& centre, Visit&& visit) const;

  NetworkGrid grid_;
  std::array<std::int32_t, 3> ext_;  ///< prefix table extent per dimension (torus: 2L)
  std::vector<std::int32_t> prefix_;
  /// prepare_zone_counts: per prefix cell, the free nodes of each zone (mod 2^16: a box's
  /// count, at most a zone's size, comes out exact), zone_prefix_[cell * zones_ + z]
  std::vector<std::uint16_t> zone_prefix_;
  std::int32_t zones_ = 0;
  /// prepare_box_sums: per prefix cell, each score's fixed-point weights summed (mod 2^64),
  /// box_prefix_[cell * box_width_ + s]; a score's weights are scaled by 2^box_exponent_[s]
  std::vector<std::uint64_t> box_prefix_;
  std::vector<int> box_exponent_;
  std::size_t box_width_ = 0;  ///< 0: no sums prepared
  std::vector<std::uint8_t> free_;  ///< per node, for the prefix build
  /// shifted_[d][v + L]: the coordinate v in [-L, 2L) lands on (wrapped on a torus, -1 off a mesh)
  std::array<std::vector<std::int32_t>, 3> shifted_;
  std::vector<Offset> shell_order_, l1_order_;
  std::vector<std::size_t> shell_begin_;  ///< per L_inf radius r, the first of shell_order_'s offsets at r or more
  std::array<AxisHistogram, 3> axes_;
  std::vector<NodeId> taken_;
  std::unordered_map<std::int32_t, IdealShape> ideal_;  ///< by k
  /// The offsets' range per dimension (as sorted_offsets): lowest, count.
  std::array<std::int32_t, 3> lo_, span_;
  std::vector<std::int32_t> rank_;  ///< position in l1_order_, by offset_index
  std::int32_t row_words_ = 0;       ///< 64-bit words per (x, y) row of busy_rows_
  std::vector<std::uint64_t> busy_rows_;  ///< bit z of row (x, y): node (x, y, z) is not free
  /// On a torus at most 32 long along z (else empty): bit j of row (x, y) is 1 where node
  /// (x, y, j mod L) is free, j < 2L: a window of a row's coordinates around any z is one shift.
  std::vector<std::uint64_t> free_rows2_;
  std::int32_t col_words_ = 0;           ///< 64-bit words per (x, z) row of busy_cols_
  std::vector<std::uint64_t> busy_cols_;  ///< bit y of row (x, z) (built when first needed in a decision)
  std::vector<std::int32_t> wide_up_, wide_ring_;  ///< radius_beyond_tables' scratch, by x offset + L
  std::array<AxisHistogram, 3> shape_axes_;  ///< shape_score's scratch
  std::vector<Offset> busy_;                 ///< shape_score's scratch: busy nodes of the shape
  /// build_ball_tables: per axis d, count[((v * La + a) * (cap + 1) + rho) * Lb + b] = free
  /// nodes of the plane at coordinate v of d within 2D L1 distance rho (wrapped on a torus; capped at the
  /// plane's widest, cap) of its point (a, b), a and b the other two axes in order (a centre's
  /// balls at rho and rho - 1 in neighbouring cache lines)
  struct PlaneTable {
    int a = 0, b = 0;
    std::int32_t cap = 0;
    std::size_t plane = 0;
    std::vector<std::uint16_t> count;
  };
  /// plane_ball's counts of axis d at one centre, the table's position for that centre found once.
  struct PlaneBalls {
    PlaneBalls(const Impl& search, int d, const Offset& centre)
        : t(search.ball_[std::size_t(d)]),
          at(t.count.data() +
             std::size_t(centre[t.a]) * std::size_t(t.cap + 1) * std::size_t(search.grid_.dims()[t.b]) +
             std::size_t(centre[t.b])),
          per_plane(std::size_t(t.cap + 1) * t.plane),
          line(std::size_t(search.grid_.dims()[t.b])) {}
    std::int32_t operator()(std::int32_t v, std::int32_t rho) const {
      return at[std::size_t(v) * per_plane + std::size_t(std::min(rho, t.cap)) * line];
    }
    const PlaneTable& t;
    const std::uint16_t* at;
    std::size_t per_plane, line;  ///< count's stride between planes v, and between radii
  };
  std::array<PlaneTable, 3> ball_;
  std::int32_t ball_rho_ = -1;  ///< the tables hold balls up to this radius (-1: none)
  /// ...and are rebuilt once to this one when a centre's ball at ball_rho_ holds too few free
  /// nodes (MM on a torus: recurrence_reach), or -1
  std::int32_t ball_rho_grown_ = -1;
  std::vector<std::uint8_t> tables_free_;                   ///< free_ when the tables were last built
  std::array<std::vector<std::uint8_t>, 3> plane_changed_;  ///< build_ball_tables' scratch, per axis and plane
  std::int32_t ball_rho_own_ = -1;  ///< the decision's own radius (ball_radius)
  /// A centre of this decision needed a ball wider than ball_rho_own_, where the tables can grow:
  /// the next decision builds them at ball_rho_grown_ from the start (large jobs' busy blocks
  /// outlast a decision); speed only
  bool wide_needed_ = false;
  std::int32_t last_radius_ = 1;           ///< ball_score's previous centre's R (neighbours share it)
  std::int32_t scored_radius_ = 0;         ///< pairwise_score's last centre's R (balls only)
  std::vector<ScoreMemo> memos_;
  std::uint64_t memo_clock_ = 0;
  std::vector<std::int32_t> change_dist_;  ///< distance_to_changes'
  std::vector<std::int32_t> l1_start_;     ///< l1_start_[rho]: first index of l1_order_ at L1 length rho
  /// ball_volume_[rho]: nodes within L1 distance rho of the grid's middle node (a torus: of any)
  std::vector<std::int32_t> ball_volume_;
  std::vector<Offset> centres_;
  // build_ball_tables' scratch (diagonal_balls)
  std::vector<std::uint16_t> diag_anti_, diag_main_, running_totals_, line_prefix_, line_total_;
  std::vector<std::int32_t> inside_, ring_;  ///< ball_score's scratch, by x offset + R
  std::vector<std::int64_t> window_;         ///< ball_score's scratch: counts by offset in a window
  std::vector<std::int64_t> shell_y_, shell_z_;  ///< ball_score's scratch: the shell's nodes by offset + R
  /// ball_score's scratch: B's nodes by y and by z coordinate ([1], [2]; [0] unused: along x the
  /// counts stay in window_)
  std::array<AxisHistogram, 3> ball_axes_;
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
  for (std::size_t i = 0; i < shell_order_.size(); ++i) {
    while (std::ssize(shell_begin_) <= linf(shell_order_[i])) shell_begin_.push_back(i);
  }
  shell_begin_.push_back(shell_order_.size());
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
  for (int d = 0; d < 3; ++d) {
    const std::int32_t len = grid_.dims()[d];
    lo_[d] = grid_.torus() ? -((len - 1) / 2) : -(len - 1);
    span_[d] = grid_.torus() ? len : 2 * len - 1;
  }
  rank_.assign(std::size_t(span_[0]) * std::size_t(span_[1]) * std::size_t(span_[2]), 0);
  for (std::size_t i = 0; i < l1_order_.size(); ++i) {
    const Offset& o = l1_order_[i];
    rank_[std::size_t(offset_index(o[0], o[1], o[2]))] = std::int32_t(i);
  }
  shape_axes_ = axes_;
  ball_axes_ = axes_;
  row_words_ = (grid_.dims()[2] + 63) / 64;
  for (std::size_t i = 0; i < l1_order_.size(); ++i) {
    while (std::ssize(l1_start_) <= l1(l1_order_[i])) l1_start_.push_back(std::int32_t(i));
  }
  l1_start_.push_back(std::int32_t(l1_order_.size()));
  ball_volume_.assign(l1_start_.size() - 1, 0);
  for (const Offset& o : l1_order_) {
    bool inside = true;
    for (int d = 0; d < 3; ++d) {
      const std::int32_t middle = (grid_.dims()[d] - 1) / 2;
      inside = inside && (grid_.torus() || (middle + o[d] >= 0 && middle + o[d] < grid_.dims()[d]));
    }
    if (inside) ++ball_volume_[std::size_t(l1(o))];
  }
  for (std::size_t rho = 1; rho < ball_volume_.size(); ++rho) ball_volume_[rho] += ball_volume_[rho - 1];
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
void NearestSearch::Impl::walk(std::span<const Offset> order, const Offset& centre, Visit&& visit) const {
  std::array<const std::int32_t*, 3> along;  // coordinate at offset o along d: along[d][o]
  for (int d = 0; d < 3; ++d) along[d] = shifted_[d].data() + grid_.dims()[d] + centre[d];
  const std::int32_t ly = grid_.dims()[1], lz = grid_.dims()[2];
  for (const Offset& o : order) {
    const Offset c{along[0][o[0]], along[1][o[1]], along[2][o[2]]};
    if ((c[0] | c[1] | c[2]) < 0) continue;  // off a mesh's edge
    if (!visit((c[0] * ly + c[1]) * lz + c[2], c)) return;
  }
}

void NearestSearch::Impl::collect(const std::vector<Offset>& order, const Machine& machine, const Offset& centre,
                                  std::int32_t k, std::vector<NodeId>& out) const {
  out.clear();
  out.reserve(std::size_t(k));
  walk(order, centre, [&](NodeId n, const Offset&) {
    if (machine.is_free(n)) out.push_back(n);
    return std::ssize(out) < k;
  });
}

// ---- MC1x1 -------------------------------------------------------------------------------------

void NearestSearch::Impl::read_free(const Machine& machine) {
  free_.resize(std::size_t(grid_.node_count()));
  for (NodeId n = 0; n < grid_.node_count(); ++n) free_[std::size_t(n)] = machine.is_free(n) ? 1 : 0;
}

void NearestSearch::Impl::build_prefix(const Machine& machine) {
  const auto [lx, ly, lz] = grid_.dims();
  read_free(machine);
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

std::pair<Offset, Offset> NearestSearch::Impl::box_range(const Offset& centre, std::int32_t r) const {
  Offset start, len;  // in the (unrolled) table
  for (int d = 0; d < 3; ++d) {
    const std::int32_t size = grid_.dims()[d];
    if (grid_.torus()) {
      const bool whole = 2 * r + 1 >= size;
      start[d] = whole ? 0 : centre[d] - r + (centre[d] < r ? size : 0), len[d] = whole ? size : 2 * r + 1;
    } else {
      start[d] = std::max(0, centre[d] - r), len[d] = std::min(size, centre[d] + r + 1) - start[d];
    }
  }
  return {start, len};
}

std::int64_t NearestSearch::Impl::box_count(const Offset& centre, std::int32_t r) const {
  const auto [start, len] = box_range(centre, r);
  return range_count(start, len);
}

/// The prefix table of per-node vectors `width` wide over the (unrolled) grid: table[cell * width
/// + q] sums add(n, cell)'s entries over the free nodes n of the box from the origin to the cell
/// (the same inclusion-exclusion as build_prefix, a vector per cell; T unsigned: sums wrap, and
/// a box's sum comes out exact where it fits T).
template <class T, class Add>
void NearestSearch::Impl::build_cell_prefix(const Machine& machine, std::vector<T>& table, std::size_t width, Add&& add) {
  const auto [lx, ly, lz] = grid_.dims();
  const std::size_t sy = std::size_t(ext_[2] + 1) * width, sx = sy * std::size_t(ext_[1] + 1);
  table.assign(sx * std::size_t(ext_[0] + 1), T{0});
  for (std::int32_t x = 0; x < ext_[0]; ++x) {
    for (std::int32_t y = 0; y < ext_[1]; ++y) {
      const NodeId line = ((x % lx) * ly + y % ly) * lz;
      T* at = table.data() + std::size_t(x + 1) * sx + std::size_t(y + 1) * sy + width;
      for (std::int32_t z = 0; z < ext_[2]; ++z, at += width) {
        const T* back_x = at - sx;
        const T* back_y = at - sy;
        const T* back_z = at - width;
        const T* back_xy = at - sx - sy;
        const T* back_xz = at - sx - width;
        const T* back_yz = at - sy - width;
        const T* back_xyz = at - sx - sy - width;
        for (std::size_t q = 0; q < width; ++q) {
          at[q] = T(back_x[q] + back_y[q] + back_z[q] - back_xy[q] - back_xz[q] - back_yz[q] + back_xyz[q]);
        }
        const NodeId n = line + (z < lz ? z : z - lz);
        if (machine.is_free(n)) add(n, at);
      }
    }
  }
}

bool NearestSearch::Impl::prepare_zone_counts(const Machine& machine, std::span<const std::int32_t> zone_of_node,
                                              std::int32_t zones) {
  std::vector<std::int32_t> size(std::size_t(zones), 0);
  for (const std::int32_t z : zone_of_node) {
    if (++size[std::size_t(z)] >= 1 << 16) return false;  // a box's count would not fit the table's cells
  }
  build_prefix(machine);
  zones_ = zones;
  build_cell_prefix(machine, zone_prefix_, std::size_t(zones),
                    [&](NodeId n, std::uint16_t* cell) { ++cell[std::size_t(zone_of_node[std::size_t(n)])]; });
  return true;
}

bool NearestSearch::Impl::prepare_box_sums(const Machine& machine, std::span<const double> weights, std::size_t width) {
  const auto nodes = std::size_t(grid_.node_count());
  if (width == 0 || weights.size() != nodes * width) {
    throw std::invalid_argument("NearestSearch::prepare_box_sums: weights must hold width values per node");
  }
  box_width_ = 0;
  // Per score, the free nodes' weights in fixed point: w x 2^e (exact: a power of two), rounded
  // down, with e the largest that keeps the score's total below 2^61. A box's sum of those
  // integers is exact, and at most its exact sum x 2^e.
  box_exponent_.assign(width, 0);
  std::vector<double> total(width, 0.0);
  for (std::size_t n = 0; n < nodes; ++n) {
    if (!machine.is_free(NodeId(n))) continue;
    for (std::size_t s = 0; s < width; ++s) {
      const double w = weights[n * width + s];
      if (!(w >= 0 && w < INFINITY)) return false;
      total[s] += w;
    }
  }
  for (std::size_t s = 0; s < width; ++s) {
    const double above = total[s] * (1 + 1e-9);  // above the sum's rounding
    if (!(above < INFINITY)) return false;
    int e = 0;
    std::frexp(above, &e);  // total < 2^e
    box_exponent_[s] = 61 - e;
  }
  build_prefix(machine);
  build_cell_prefix(machine, box_prefix_, width, [&](NodeId n, std::uint64_t* cell) {
    const double* w = weights.data() + std::size_t(n) * width;
    for (std::size_t s = 0; s < width; ++s) cell[s] += std::uint64_t(std::ldexp(w[s], box_exponent_[s]));
  });
  box_width_ = width;
  return true;
}

void NearestSearch::Impl::surely_taken_sums(NodeId centre, std::int32_t k, std::span<double> sums) const {
  if (box_width_ == 0 || sums.size() != box_width_) {
    throw std::logic_error("NearestSearch::surely_taken_sums: prepare_box_sums first, with as many scores");
  }
  std::fill(sums.begin(), sums.end(), 0.0);
  std::array<std::size_t, 8> corner;
  if (inner_cube(centre, k, box_width_, corner) == 0) return;
  for (std::size_t s = 0; s < box_width_; ++s) {
    // (the conversion rounds to the nearest double: at most one unit of its last place above)
    sums[s] = std::ldexp(double(box_sum(box_prefix_.data(), corner, s)), -box_exponent_[s]);
  }
}

std::int32_t NearestSearch::Impl::inner_cube(NodeId centre, std::int32_t k, std::size_t cell,
                                            std::array<std::size_t, 8>& corner) const {
  const Offset c = grid_.coordinate(centre);
  const std::int32_t r = last_shell_radius(c, k);  // shells below it are taken whole
  if (r == 0) return r;
  const auto [start, len] = box_range(c, r - 1);
  corner = box_corners(start, len, cell);
  return r;
}

std::int32_t NearestSearch::Impl::last_shell_radius(const Offset& c, std::int32_t k) const {
  std::int32_t r = 0;
  const std::int32_t widest = std::max({grid_.dims()[0], grid_.dims()[1], grid_.dims()[2]});
  while (r <= widest && box_count(c, r) < k) ++r;
  return r;
}

void NearestSearch::Impl::surely_taken_per_zone(NodeId centre, std::int32_t k,
                                                std::vector<std::int32_t>& counts) const {
  counts.assign(std::size_t(zones_), 0);
  std::array<std::size_t, 8> corner;
  if (inner_cube(centre, k, std::size_t(zones_), corner) == 0) return;
  for (std::size_t q = 0; q < std::size_t(zones_); ++q) counts[q] = box_sum(zone_prefix_.data(), corner, q);
}

void NearestSearch::Impl::add_last_shell_per_zone(const Machine& machine, NodeId centre, std::int32_t k,
                                                  std::span<const std::int32_t> zone_of_node,
                                                  std::vector<std::int32_t>& counts) const {
  // counts: the shells below the last one (surely_taken_per_zone); the last shell's first free
  // nodes in shell order complete collect()'s set.
  if (counts.size() != std::size_t(zones_)) {
    throw std::logic_error("NearestSearch::add_last_shell_per_zone: counts are surely_taken_per_zone's");
  }
  const Offset c = grid_.coordinate(centre);
  const std::int32_t r = last_shell_radius(c, k);
  std::int64_t left = k - (r == 0 ? 0 : box_count(c, r - 1));
  if (left <= 0 || std::size_t(r) + 1 >= shell_begin_.size()) return;
  const std::span<const Offset> shell(shell_order_.data() + shell_begin_[std::size_t(r)],
                                      shell_begin_[std::size_t(r) + 1] - shell_begin_[std::size_t(r)]);
  walk(shell, c, [&](NodeId n, const Offset&) {
    if (!machine.is_free(n)) return true;
    ++counts[std::size_t(zone_of_node[std::size_t(n)])];
    return --left > 0;
  });
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

const std::vector<Offset>& NearestSearch::Impl::centres(NearestKind kind, const Machine& machine) {
  // Nodes in id order: x, then y, then z (z fastest).
  const auto [lx, ly, lz] = grid_.dims();
  centres_.clear();
  if (kind == NearestKind::genalg) {
    NodeId n = 0;
    for (std::int32_t x = 0; x < lx; ++x) {
      for (std::int32_t y = 0; y < ly; ++y) {
        for (std::int32_t z = 0; z < lz; ++z, ++n) {
          if (machine.is_free(n)) centres_.push_back({x, y, z});
        }
      }
    }
    return centres_;
  }
  std::array<std::vector<std::uint8_t>, 3> present;  // MM: coordinates some free node has
  for (int d = 0; d < 3; ++d) present[std::size_t(d)].assign(std::size_t(grid_.dims()[d]), 0);
  NodeId n = 0;
  for (std::int32_t x = 0; x < lx; ++x) {
    for (std::int32_t y = 0; y < ly; ++y) {
      std::uint8_t row = 0;
      for (std::int32_t z = 0; z < lz; ++z, ++n) {
        const std::uint8_t f = machine.is_free(n) ? 1 : 0;
        present[2][std::size_t(z)] |= f, row |= f;
      }
      present[0][std::size_t(x)] |= row, present[1][std::size_t(y)] |= row;
    }
  }
  for (std::int32_t x = 0; x < lx; ++x) {
    if (!present[0][std::size_t(x)]) continue;
    for (std::int32_t y = 0; y < ly; ++y) {
      if (!present[1][std::size_t(y)]) continue;
      for (std::int32_t z = 0; z < lz; ++z) {
        if (present[2][std::size_t(z)]) centres_.push_back({x, y, z});
      }
    }
  }
  return centres_;
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
      score = pair_hops(axes_);
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

const NearestSearch::Impl::IdealShape& NearestSearch::Impl::ideal_shape(std::int32_t k) {
  if (const auto it = ideal_.find(k); it != ideal_.end()) return it->second;
  IdealShape shape;
  shape.r = l1(l1_order_[std::size_t(k - 1)]);
  std::array<AxisHistogram, 3> axes;  // by offset from lo_: translation-invariant pair distances
  for (int d = 0; d < 3; ++d) {
    shape.count[d].assign(std::size_t(span_[d]), 0);
    axes[d].wrap = grid_.torus() ? grid_.dims()[d] : 0;
  }
  for (std::int32_t i = 0; i < k; ++i) {
    for (int d = 0; d < 3; ++d) ++shape.count[d][std::size_t(l1_order_[std::size_t(i)][d] - lo_[d])];
  }
  for (int d = 0; d < 3; ++d) {
    axes[d].count = shape.count[d];
    shape.attach[d].assign(std::size_t(span_[d]), 0);
    for (std::int32_t a = 0; a < span_[d]; ++a) {
      for (std::int32_t b = 0; b < span_[d]; ++b) {
        shape.attach[d][std::size_t(a)] += shape.count[d][std::size_t(b)] * axis_distance(a, b, axes[d].wrap);
      }
    }
  }
  shape.score = pair_hops(axes);
  const std::int32_t r = shape.r;
  shape.shell_take.assign(std::size_t(2 * r + 1), 0), shape.shell_ring.assign(std::size_t(2 * r + 1), 0);
  for (std::int32_t i = l1_start_[std::size_t(r)]; i < l1_start_[std::size_t(r) + 1]; ++i) {
    const std::size_t o = std::size_t(l1_order_[std::size_t(i)][0] + r);
    ++shape.shell_ring[o];
    if (i < k) ++shape.shell_take[o];
  }
  const std::size_t last = std::size_t(l1_order_[std::size_t(k - 1)][0] + r);  // the plane of the k-th offset
  if (shape.shell_take[last] < shape.shell_ring[last]) {  // taken in part: a prefix of its ring
    shape.partial_begin = std::size_t(k - shape.shell_take[last]), shape.partial_end = std::size_t(k);
  }
  return ideal_[k] = std::move(shape);
}

/// From free_ (read_free first).
void NearestSearch::Impl::build_busy_rows() {
  const auto [lx, ly, lz] = grid_.dims();
  busy_rows_.assign(std::size_t(lx) * std::size_t(ly) * std::size_t(row_words_), 0);
  std::size_t n = 0;
  for (std::size_t row = 0; row < std::size_t(lx) * std::size_t(ly); ++row) {
    std::uint64_t* words = busy_rows_.data() + row * std::size_t(row_words_);
    for (std::int32_t z = 0; z < lz; ++z, ++n) {
      if (!free_[n]) words[z / 64] |= std::uint64_t{1} << (z % 64);
    }
  }
  free_rows2_.clear();
  if (grid_.torus() && lz <= 32) {
    const std::uint64_t all = (std::uint64_t{1} << lz) - 1;
    free_rows2_.resize(std::size_t(lx) * std::size_t(ly));
    for (std::size_t row = 0; row < free_rows2_.size(); ++row) {
      const std::uint64_t free = ~busy_rows_[row] & all;
      free_rows2_[row] = free | free << lz;
    }
  }
}

/// Pairwise hops of the k nodes collected around `centre`, from the ideal shape: l1_order's first
/// k offsets, less those that are busy (found row by row in busy_rows_ over the L1 ball of radius
/// ideal.r, kept if their rank is below k), plus as many free nodes as were busy, walked from
/// l1_order's k-th offset on: exactly the walk's nodes. Returns early (a partial score, never
/// above the full one) once the shape less its busy nodes reaches `bound`; -1 where a walk is
/// cheaper or the shape does not apply (a mesh centre whose ball crosses an edge; more than half
/// of the shape busy).
std::int64_t NearestSearch::Impl::shape_score(const Machine& machine, const Offset& centre, std::int32_t k,
                                              const IdealShape& ideal, std::int64_t bound) {
  const std::int32_t r = ideal.r;
  const auto [lx, ly, lz] = grid_.dims();
  std::array<std::int32_t, 3> lo, hi;  // offsets of the ball's range per dimension
  for (int d = 0; d < 3; ++d) {
    if (!grid_.torus() && (centre[d] < r || centre[d] + r >= grid_.dims()[d])) return -1;
    lo[d] = std::max(lo_[d], -r), hi[d] = std::min(lo_[d] + span_[d] - 1, r);
  }
  // The shape's busy nodes, row by row over the ball.
  busy_.clear();
  const auto most = static_cast<std::size_t>(k / 2);
  // The shape less its busy nodes scores ideal.score - detached + their own pairwise hops.
  std::int64_t detached = 0;
  for (std::int32_t ox = lo[0]; ox <= hi[0]; ++ox) {
    const std::int32_t x = shifted_[0][std::size_t(lx + centre[0] + ox)], left = r - std::abs(ox);
    {  // the layer's square around its diamond: all free, nothing to scan
      const std::int32_t ylo = std::max(lo[1], -left), yhi = std::min(hi[1], left);
      const std::int32_t zlo = std::max(lo[2], -left), zhi = std::min(hi[2], left);
      const Offset start{x, shifted_[1][std::size_t(ly + centre[1] + ylo)], shifted_[2][std::size_t(lz + centre[2] + zlo)]};
      const Offset len{1, yhi - ylo + 1, zhi - zlo + 1};
      if (range_count(start, len) == std::int64_t{len[1]} * len[2]) continue;
    }
    const std::int64_t attach_x = ideal.attach[0][std::size_t(ox - lo_[0])];
    for (std::int32_t oy = std::max(lo[1], -left); oy <= std::min(hi[1], left); ++oy) {
      const std::int32_t y = shifted_[1][std::size_t(ly + centre[1] + oy)], w = left - std::abs(oy);
      const std::int64_t attach_y = ideal.attach[1][std::size_t(oy - lo_[1])];
      const std::int32_t zlo = std::max(lo[2], -w), zhi = std::min(hi[2], w);
      const std::uint64_t* row = busy_rows_.data() + (std::size_t(x) * std::size_t(ly) + std::size_t(y)) * std::size_t(row_words_);
      // Busy z in [a, e] (coordinates), whose offset from the centre is `first` + (z - a).
      auto scan = [&](std::int32_t a, std::int32_t e, std::int32_t first) {
        for (std::int32_t word = a / 64; word <= e / 64; ++word) {
          std::uint64_t bits = row_bits_between(row, word, a, e);
          while (bits) {
            const std::int32_t z = word * 64 + std::countr_zero(bits);
            bits &= bits - 1;
            const std::int32_t oz = first + (z - a);
            if (rank_[std::size_t(offset_index(ox, oy, oz))] >= k) continue;
            busy_.push_back({x, y, z});
            detached += attach_x + attach_y + ideal.attach[2][std::size_t(oz - lo_[2])];
          }
        }
      };
      const std::int32_t a = centre[2] + zlo, e = centre[2] + zhi;  // within [-lz, 2 lz), e >= 0
      if (a < 0) {
        scan(a + lz, lz - 1, zlo);
        scan(0, e, zlo - a);
      } else if (e >= lz) {
        scan(a, lz - 1, zlo);
        scan(0, e - lz, zlo + (lz - a));
      } else {
        scan(a, e, zlo);
      }
      if (busy_.size() > most) return -1;
    }
  }
  if (busy_.empty()) return ideal.score;
  if (ideal.score - detached >= bound) return ideal.score - detached;  // at most the shape less its busy nodes
  // The shape's histograms placed at the centre, less its busy nodes.
  for (int d = 0; d < 3; ++d) {
    std::vector<std::int64_t>& count = shape_axes_[d].count;
    std::fill(count.begin(), count.end(), 0);
    const std::int32_t* at = shifted_[d].data() + grid_.dims()[d] + centre[d];
    for (std::int32_t o = lo[d]; o <= hi[d]; ++o) count[std::size_t(at[o])] = ideal.count[d][std::size_t(o - lo_[d])];
  }
  auto& cx = shape_axes_[0].count;
  auto& cy = shape_axes_[1].count;
  auto& cz = shape_axes_[2].count;
  for (const Offset& u : busy_) --cx[std::size_t(u[0])], --cy[std::size_t(u[1])], --cz[std::size_t(u[2])];
  const auto busy = static_cast<std::int32_t>(busy_.size());
  std::int64_t score = pair_hops(shape_axes_);
  if (score >= bound) return score;
  std::int32_t added = 0;
  walk(std::span<const Offset>(l1_order_).subspan(std::size_t(k)), centre, [&](NodeId n, const Offset& c) {
    if (!machine.is_free(n)) return true;
    ++cx[std::size_t(c[0])], ++cy[std::size_t(c[1])], ++cz[std::size_t(c[2])];
    return ++added < busy;
  });
  return pair_hops(shape_axes_);
}

// ---- MM, Genalg: balls from plane tables -------------------------------------------------------
//
// A centre's k nodes are the free nodes of its L1 ball of radius R - 1 (B: R the least radius
// whose ball holds k free nodes) and the first m = k - |B| free nodes of its shell at R in
// l1_order_ (by offset x, then y, then z). The free count of a plane's 2D ball is read from a
// table (ball_), so B's three axis histograms take O(axis lengths) per centre, and so does the
// shell's histogram along x (its free nodes plane by plane, in x order). On a mesh the balls are
// cut at the edges (planes and lines beyond them count no node). With that:
//   score >= pairs_x(B + shell) + pairs_y(B) + m min_{v in [-R, R]} attach_y(v) + the same along z,
// attach_y(v) the hops along y from coordinate v to B's nodes: a bound that drops most centres
// without a walk; the others walk their shell at R only (not their ball) for the exact score.

/// The least radius whose tables the decision builds: balls of volume ball_reach x k / (free share).
std::int32_t NearestSearch::Impl::ball_radius(NearestKind kind, std::int32_t k, std::int32_t free) const {
  const double want = ball_reach(kind) * double(k) * double(grid_.node_count()) / std::max(1, free);
  std::int32_t rho = 0;
  while (rho + 1 < std::ssize(ball_volume_) && double(ball_volume_[std::size_t(rho)]) < want) ++rho;
  return rho;
}

std::int32_t NearestSearch::Impl::recurrence_reach() const {
  if (!grid_.torus()) return -1;
  const auto dims = grid_.dims();
  return (std::min({dims[0], dims[1], dims[2]}) - 1) / 2;  // below ball_volume_'s last radius
}

/// From free_ (read_free first). On a torus, balls of radius r with 2 r below both of the
/// plane's lengths (they do not wrap onto themselves) come from the two smaller ones:
///   D_r(a, b) = D_{r-1}(a - 1, b) + D_{r-1}(a + 1, b) - D_{r-2}(a, b) + f(a, b +- (r - 1)) + f(a, b +- r)
/// (the two balls of radius r - 1 overlap in D_{r-2}(a, b) and miss the four points of line a;
/// r = 1: f(a, b) and f(a, b +- 1)), O(1) a cell. The wider ones, and every ball of a mesh, from
/// the plane's diagonals (diagonal_balls), also O(1) a cell. Both loop along b, which the
/// compiler vectorizes; counts are mod 2^16 on the way (a ball's count fits). On a mesh a line
/// is padded with busy nodes beyond its ends.
void NearestSearch::Impl::build_ball_tables(std::int32_t rho) {
  const auto dims = grid_.dims();
  const bool torus = grid_.torus();
  // Tables holding balls up to a radius from rho to rho + kKeptTablesSlack are kept: only the
  // planes in which a node changed since they were built are built again (every plane: at rho).
  bool keep = ball_rho_ >= rho && ball_rho_ <= rho + kKeptTablesSlack && tables_free_.size() == free_.size();
  for (int d = 0; d < 3; ++d) plane_changed_[std::size_t(d)].assign(std::size_t(dims[d]), keep ? 0 : 1);
  if (keep) {
    const std::size_t row = std::size_t(dims[2]);
    for (std::int32_t x = 0, r = 0; x < dims[0]; ++x) {
      for (std::int32_t y = 0; y < dims[1]; ++y, ++r) {
        const std::uint8_t* now = free_.data() + std::size_t(r) * row;
        const std::uint8_t* then = tables_free_.data() + std::size_t(r) * row;
        if (std::equal(now, now + row, then)) continue;
        plane_changed_[0][std::size_t(x)] = plane_changed_[1][std::size_t(y)] = 1;
        for (std::size_t z = 0; z < row; ++z) plane_changed_[2][z] |= std::uint8_t(now[z] != then[z]);
      }
    }
    const auto all_changed = [&](int d) {
      return std::find(plane_changed_[std::size_t(d)].begin(), plane_changed_[std::size_t(d)].end(), 0) ==
             plane_changed_[std::size_t(d)].end();
    };
    keep = !(all_changed(0) && all_changed(1) && all_changed(2));
    if (keep) {
      rho = ball_rho_;
    } else {
      for (int d = 0; d < 3; ++d) plane_changed_[std::size_t(d)].assign(std::size_t(dims[d]), 1);
    }
  }
  ball_rho_ = -1;  // until every plane is built (nothing kept after an exception on the way)
  inside_.resize(std::size_t(2 * rho + 1)), ring_.resize(std::size_t(2 * rho + 1));
  std::vector<std::uint16_t> lines;  // per line a, its free flags from -lb to 2 lb
  std::vector<std::size_t> wrap_a;
  for (int d = 0; d < 3; ++d) {
    PlaneTable& t = ball_[std::size_t(d)];
    t.a = d == 0 ? 1 : 0, t.b = d == 2 ? 1 : 2;
    const std::int32_t la = dims[t.a], lb = dims[t.b];
    // The widest ball of a plane, and of a line (a larger radius counts the same nodes).
    t.cap = std::min(rho, torus ? la / 2 + lb / 2 : la - 1 + lb - 1);
    t.plane = std::size_t(la) * std::size_t(lb);
    t.count.resize(std::size_t(dims[d]) * std::size_t(t.cap + 1) * t.plane);
    // Radii up to `direct` by the recurrence (none on a mesh), the others from the diagonals.
    const std::int32_t direct = torus ? std::min(t.cap, (std::min(la, lb) - 1) / 2) : -1;
    const std::size_t ub = std::size_t(lb);
    lines.assign(3 * ub * std::size_t(la), 0);
    wrap_a.resize(3 * std::size_t(la));
    for (std::int32_t a = -la; a < 2 * la; ++a) {
      wrap_a[std::size_t(a + la)] = torus ? std::size_t((a + la) % la) : std::size_t(a >= 0 && a < la ? a : la);
    }
    const std::size_t rs = std::size_t(t.cap + 1) * ub;  // count's stride between lines a
    auto slice = [&](std::int32_t v, std::int32_t r) {   // (v, a = 0, r, b = 0)
      return t.count.data() + std::size_t(v) * std::size_t(t.cap + 1) * t.plane + std::size_t(r) * ub;
    };
    Offset p{};
    for (std::int32_t v = 0; v < dims[d]; ++v) {
      if (!plane_changed_[std::size_t(d)][std::size_t(v)]) continue;
      p[d] = v;
      for (std::int32_t a = 0; a < la; ++a) {
        p[t.a] = a;
        std::uint16_t* line = lines.data() + 3 * ub * std::size_t(a);
        for (std::int32_t b = 0; b < lb; ++b) {
          p[t.b] = b;
          const std::uint16_t f = free_[std::size_t((p[0] * dims[1] + p[1]) * dims[2] + p[2])];
          line[ub + std::size_t(b)] = f;
          if (torus) line[std::size_t(b)] = line[2 * ub + std::size_t(b)] = f;
        }
      }
      for (std::int32_t r = 0; r <= direct; ++r) {
        std::uint16_t* out = slice(v, r);
        for (std::int32_t a = 0; a < la; ++a) {
          std::uint16_t* at = out + std::size_t(a) * rs;
          const std::uint16_t* f = lines.data() + 3 * ub * std::size_t(a) + ub;
          if (r == 0) {
            std::copy(f, f + ub, at);
            continue;
          }
          const std::uint16_t* below = slice(v, r - 1) + wrap_a[std::size_t(a - 1 + la)] * rs;
          const std::uint16_t* above = slice(v, r - 1) + wrap_a[std::size_t(a + 1 + la)] * rs;
          if (r == 1) {
            for (std::size_t b = 0; b < ub; ++b) {
              at[b] = std::uint16_t(below[b] + above[b] + f[b - 1] + f[b] + f[b + 1]);
            }
            continue;
          }
          const std::uint16_t* middle = slice(v, r - 2) + std::size_t(a) * rs;
          const std::uint16_t *near_lo = f - (r - 1), *near_hi = f + (r - 1), *far_lo = f - r, *far_hi = f + r;
          for (std::size_t b = 0; b < ub; ++b) {
            at[b] = std::uint16_t(below[b] + above[b] - middle[b] + near_lo[b] + near_hi[b] + far_lo[b] + far_hi[b]);
          }
        }
      }
      if (t.cap > direct) diagonal_balls(lines, la, lb, t.cap, direct, rs, [&](std::int32_t r) { return slice(v, r); });
    }
  }
  tables_free_ = free_;
  ball_rho_ = rho;
}

/// A plane's balls of radius direct + 1 .. cap (a torus's wrapped), from its lines (`lines`: per
/// line a, 3 lb flags, the line's own from lb). The ball of radius r at (a, b) sums, over the
/// lines a + s (|s| <= r), line a + s's free nodes within u = r - |s| of b: P(a + s, b + u + 1)
/// - P(a + s, b - u), P(a', j) the line's free nodes before j (on a torus its copies end to end,
/// on a mesh none beyond its ends; lines beyond a mesh's edges are empty). Over s >= 0 those
/// points lie on two diagonals, (a + s, b + r + 1 - s) and (a + s, b - r + s), and over s < 0 on
/// two others, so each sum is the difference of two running sums along a diagonal (an entry of
/// diag_anti_ adds the one at (a' - 1, j + 1), of diag_main_ the one at (a' - 1, j - 1); a chain
/// restarts at the first row and at the edge column, which no sum crosses), read for a whole line
/// of b at once. On a torus the offsets s are -(la - 1)/2 .. la/2, and a line within u >= lb/2 of
/// b is whole (the segment would count nodes twice): those lines, |s| <= r - lb/2, are summed
/// from running line totals.
template <class Slice>
void NearestSearch::Impl::diagonal_balls(const std::vector<std::uint16_t>& lines, std::int32_t la, std::int32_t lb,
                                         std::int32_t cap, std::int32_t direct, std::size_t line_stride,
                                         Slice&& slice) {
  const bool torus = grid_.torus();
  const std::int32_t half_b = lb / 2;
  // Offsets s from -s_down to s_up; the running sums' rows a0 .. la + s_up - 1 and columns j0 ..
  // lb + cap + 1 hold every end of every sum (and so every point in between).
  const std::int32_t s_up = torus ? la / 2 : cap, s_down = torus ? (la - 1) / 2 : cap;
  const std::int32_t a0 = -s_down - 1, rows = la + s_up - a0;
  const std::int32_t j0 = -cap - 1, width = lb + 2 * cap + 3;
  const std::size_t ub = std::size_t(lb), w = std::size_t(width);
  diag_anti_.resize(std::size_t(rows) * w), diag_main_.resize(std::size_t(rows) * w);
  running_totals_.assign(std::size_t(rows + 1), 0);
  // P of each line (la + 1: an empty one, a mesh's lines beyond its edges), column by column.
  line_prefix_.resize(std::size_t(la + 1) * w);
  std::fill(line_prefix_.begin() + std::ptrdiff_t(std::size_t(la) * w), line_prefix_.end(), std::uint16_t{0});
  std::vector<std::uint16_t>& total = line_total_;
  total.assign(std::size_t(la + 1), 0);
  for (std::int32_t a = 0; a < la; ++a) {
    const std::uint16_t* f = lines.data() + 3 * ub * std::size_t(a) + ub;
    std::uint16_t* out = line_prefix_.data() + std::size_t(a) * w;
    for (std::size_t b = 0; b < ub; ++b) total[std::size_t(a)] = std::uint16_t(total[std::size_t(a)] + f[b]);
    // P(j0): on a torus q whole lines (q = floor(j0 / lb)) and the free nodes before j0 - q lb
    // (a ball takes differences of one line's P, so only the phase j0 - q lb matters)
    std::uint16_t run = 0;
    std::int32_t b = 0;
    if (torus) {
      const std::int32_t q = (j0 - lb + 1) / lb;  // j0 < 0
      b = j0 - q * lb;
      run = std::uint16_t(q * total[std::size_t(a)]);
      for (std::int32_t i = 0; i < b; ++i) run = std::uint16_t(run + f[i]);
    }
    for (std::int32_t c = 0; c < width; ++c) {
      out[c] = run;
      const std::int32_t j = j0 + c;  // P(j + 1) = P(j) + f(j)
      if (torus) {
        run = std::uint16_t(run + f[b]);
        if (++b == lb) b = 0;
      } else if (j >= 0 && j < lb) {
        run = std::uint16_t(run + f[j]);
      }
    }
  }
  for (std::int32_t i = 0; i < rows; ++i) {
    const std::int32_t a = a0 + i;
    const std::int32_t line = torus ? ((a % la) + la) % la : (a >= 0 && a < la ? a : la);
    running_totals_[std::size_t(i) + 1] = std::uint16_t(running_totals_[std::size_t(i)] + total[std::size_t(line)]);
    const std::uint16_t* pj = line_prefix_.data() + std::size_t(line) * w;
    std::uint16_t* anti = diag_anti_.data() + std::size_t(i) * w;
    std::uint16_t* main = diag_main_.data() + std::size_t(i) * w;
    if (i == 0) {
      std::copy(pj, pj + w, anti), std::copy(pj, pj + w, main);
      continue;
    }
    const std::uint16_t* anti_before = anti - w;
    const std::uint16_t* main_before = main - w;
    for (std::size_t c = 0; c + 1 < w; ++c) anti[c] = std::uint16_t(pj[c] + anti_before[c + 1]);
    anti[w - 1] = pj[w - 1];
    main[0] = pj[0];
    for (std::size_t c = 1; c < w; ++c) main[c] = std::uint16_t(pj[c] + main_before[c - 1]);
  }
  // The running sum `table` at row a' from column j, for b = 0 ..
  auto at = [&](const std::vector<std::uint16_t>& table, std::int32_t a, std::int32_t j) {
    return table.data() + std::size_t(a - a0) * w + std::size_t(j - j0);
  };
  auto totals = [&](std::int32_t a) { return running_totals_[std::size_t(a - a0)]; };  // lines a0 .. a - 1
  for (std::int32_t r = direct + 1; r <= cap; ++r) {
    std::uint16_t* out = slice(r);
    for (std::int32_t a = 0; a < la; ++a) {
      std::uint16_t* ball = out + std::size_t(a) * line_stride;
      std::int32_t up_lo = 0, up_hi = std::min(r, s_up), down_lo = 1, down_hi = std::min(r, s_down);
      std::uint16_t whole = 0;
      if (torus && r >= half_b) {
        const std::int32_t m = r - half_b;
        whole = std::uint16_t(totals(a + std::min(m, s_up) + 1) - totals(a - std::min(m, s_down)));
        up_lo = std::max(up_lo, m + 1), down_lo = std::max(down_lo, m + 1);
      }
      std::fill(ball, ball + ub, whole);
      if (up_lo <= up_hi) {  // s = up_lo .. up_hi
        const std::uint16_t* end_hi = at(diag_anti_, a + up_hi, r + 1 - up_hi);
        const std::uint16_t* end_lo = at(diag_anti_, a + up_lo - 1, r + 2 - up_lo);
        const std::uint16_t* start_hi = at(diag_main_, a + up_hi, up_hi - r);
        const std::uint16_t* start_lo = at(diag_main_, a + up_lo - 1, up_lo - 1 - r);
        for (std::size_t b = 0; b < ub; ++b) {
          ball[b] = std::uint16_t(ball[b] + end_hi[b] - end_lo[b] - start_hi[b] + start_lo[b]);
        }
      }
      if (down_lo <= down_hi) {  // s = -down_lo .. -down_hi
        const std::uint16_t* end_lo = at(diag_main_, a - down_lo, r + 1 - down_lo);
        const std::uint16_t* end_hi = at(diag_main_, a - down_hi - 1, r - down_hi);
        const std::uint16_t* start_lo = at(diag_anti_, a - down_lo, down_lo - r);
        const std::uint16_t* start_hi = at(diag_anti_, a - down_hi - 1, down_hi + 1 - r);
        for (std::size_t b = 0; b < ub; ++b) {
          ball[b] = std::uint16_t(ball[b] + end_lo[b] - end_hi[b] - start_lo[b] + start_hi[b]);
        }
      }
    }
  }
}

/// Whether the ideal shape's nodes on its shell (L1 length ideal.r) are free around `centre`,
/// from ring_ (ball_score's free counts per x plane at that radius) and, for the plane taken in
/// part, node by node. On a mesh the shape must lie inside it.
bool NearestSearch::Impl::shell_as_ideal(const Machine& machine, const Offset& centre, const IdealShape& ideal) const {
  const std::int32_t r = ideal.r;
  if (!grid_.torus()) {
    for (int d = 0; d < 3; ++d) {
      if (centre[d] < r || centre[d] + r >= grid_.dims()[d]) return false;
    }
  }
  for (std::int32_t o = -r; o <= r; ++o) {
    const std::int32_t take = ideal.shell_take[std::size_t(o + r)];
    if (take > 0 && take == ideal.shell_ring[std::size_t(o + r)] && ring_[std::size_t(o + r)] != take) return false;
  }
  bool free = true;
  walk(std::span<const Offset>(l1_order_).subspan(ideal.partial_begin, ideal.partial_end - ideal.partial_begin), centre,
       [&](NodeId n, const Offset&) { return free = machine.is_free(n); });
  return free;
}

/// Free nodes at coordinates a..e (0 <= a <= e < 64 x words) of a row of busy bits.
std::int32_t NearestSearch::Impl::free_between(const std::uint64_t* row, std::int32_t a, std::int32_t e) {
  std::int32_t busy = 0;
  for (std::int32_t word = a / 64; word <= e / 64; ++word) busy += std::popcount(row_bits_between(row, word, a, e));
  return e - a + 1 - busy;
}

/// Free nodes at offsets lo..hi (within the axis's offsets around c: on a torus at most its
/// length, wrapped) of a row of busy bits along an axis of length len.
std::int32_t NearestSearch::Impl::free_at_offsets(const std::uint64_t* row, std::int32_t len, std::int32_t c,
                                                   std::int32_t lo, std::int32_t hi) {
  if (lo > hi) return 0;
  const std::int32_t a = c + lo, e = c + hi;  // in [-len, 2 len)
  if (a < 0) return e < 0 ? free_between(row, a + len, e + len) : free_between(row, a + len, len - 1) + free_between(row, 0, e);
  if (e >= len) return a >= len ? free_between(row, a - len, e - len) : free_between(row, a, len - 1) + free_between(row, 0, e - len);
  return free_between(row, a, e);
}

/// plane_ball at any radius, from the rows of busy bits (O(rho) rows); `first`, `last`: the
/// centre's offsets within the grid per axis.
std::int32_t NearestSearch::Impl::plane_ball_rows(int d, std::int32_t v, std::int32_t rho, const Offset& centre,
                                                  const std::array<std::int32_t, 3>& first,
                                                  const std::array<std::int32_t, 3>& last) {
  const std::int32_t ly = grid_.dims()[1], lz = grid_.dims()[2];
  // The plane's first axis (x, or y in a plane of x) walked offset by offset; rows along the other.
  const int walked = d == 0 ? 1 : 0, row_axis = d == 2 ? 1 : 2;
  if (d == 2 && busy_cols_.empty()) build_busy_cols();
  const std::int32_t* along = shifted_[std::size_t(walked)].data() + grid_.dims()[walked] + centre[walked];
  std::int32_t count = 0;
  for (std::int32_t o = std::max(first[std::size_t(walked)], -rho); o <= std::min(last[std::size_t(walked)], rho); ++o) {
    const std::int32_t u = along[o], w = rho - std::abs(o);
    const std::uint64_t* row =
        d == 0   ? busy_rows_.data() + (std::size_t(v) * std::size_t(ly) + std::size_t(u)) * std::size_t(row_words_)
        : d == 1 ? busy_rows_.data() + (std::size_t(u) * std::size_t(ly) + std::size_t(v)) * std::size_t(row_words_)
                 : busy_cols_.data() + (std::size_t(u) * std::size_t(lz) + std::size_t(v)) * std::size_t(col_words_);
    count += free_at_offsets(row, grid_.dims()[row_axis], centre[row_axis], std::max(first[std::size_t(row_axis)], -w),
                             std::min(last[std::size_t(row_axis)], w));
  }
  return count;
}

/// From free_: bit y of row (x, z) set where node (x, y, z) is not free.
void NearestSearch::Impl::build_busy_cols() {
  const auto [lx, ly, lz] = grid_.dims();
  col_words_ = (ly + 63) / 64;
  busy_cols_.assign(std::size_t(lx) * std::size_t(lz) * std::size_t(col_words_), 0);
  std::size_t n = 0;
  for (std::int32_t x = 0; x < lx; ++x) {
    for (std::int32_t y = 0; y < ly; ++y) {
      for (std::int32_t z = 0; z < lz; ++z, ++n) {
        if (!free_[n]) busy_cols_[(std::size_t(x) * std::size_t(lz) + std::size_t(z)) * std::size_t(col_words_) + std::size_t(y / 64)] |= std::uint64_t{1} << (y % 64);
      }
    }
  }
}

/// Walks plane x's ring at 2D L1 radius s around `centre` (offsets within first..last) in
/// l1_order_'s order, by y offset, then z (-w before +w), reading each node's bit from the rows of
/// busy bits: visit(oy, oz, free), the node's offsets from the centre, returns whether to go on. A
/// visitor that adds `free` without testing it reads a ring without a branch per bit (on a half
/// busy machine the bits are a coin toss, and mispredicted branches were a fifth of a 512-node
/// decision's time).
template <class Visit>
void NearestSearch::Impl::walk_ring_bits(std::int32_t x, std::int32_t s, const Offset& centre,
                                         const std::array<std::int32_t, 3>& first,
                                         const std::array<std::int32_t, 3>& last, Visit&& visit) const {
  const std::int32_t ly = grid_.dims()[1], lz = grid_.dims()[2];
  const std::int32_t* along_y = shifted_[1].data() + ly + centre[1];
  const std::int32_t* along_z = shifted_[2].data() + lz + centre[2];
  const std::uint64_t* plane = busy_rows_.data() + std::size_t(x) * std::size_t(ly) * std::size_t(row_words_);
  for (std::int32_t oy = std::max(first[1], -s); oy <= std::min(last[1], s); ++oy) {
    const std::int32_t y = along_y[oy], w = s - std::abs(oy);
    const std::uint64_t* row = plane + std::size_t(y) * std::size_t(row_words_);
    auto go_on = [&](std::int32_t oz) {
      if (oz < first[2] || oz > last[2]) return true;
      const std::int32_t z = along_z[oz];
      return visit(oy, oz, std::int32_t(((row[z / 64] >> (z % 64)) & 1U) ^ 1U));
    };
    if (w > 0 && !go_on(-w)) return;
    if (!go_on(w)) return;
  }
}

template <class Visit>
void NearestSearch::Impl::walk_ring_window(std::int32_t x, std::int32_t s, const Offset& centre, Visit&& visit) const {
  const std::int32_t ly = grid_.dims()[1], lz = grid_.dims()[2];
  const std::int32_t* along_y = shifted_[1].data() + ly + centre[1];
  const std::uint64_t* rows = free_rows2_.data() + std::size_t(x) * std::size_t(ly);
  // Bit s + oz of a row shifted by `start` is coordinate centre z + oz: start + 2 s < 2 L, as the
  // ring's 2 s + 1 offsets fit the range's L.
  const std::int32_t start = centre[2] - s < 0 ? centre[2] - s + lz : centre[2] - s;
  for (std::int32_t oy = -s; oy <= s; ++oy) {
    const std::uint64_t bits = rows[along_y[oy]] >> start;
    const std::int32_t w = s - std::abs(oy);
    if (w > 0 && !visit(oy, -w, std::int32_t((bits >> (s - w)) & 1U))) return;
    if (!visit(oy, w, std::int32_t((bits >> (s + w)) & 1U))) return;
  }
}

/// R for a centre whose ball at the tables' radius holds fewer than k free nodes: grown from
/// there ring by ring, each x plane's ring at R - |o| read from the rows of busy bits (two bits a
/// row). Fills inside_ and ring_ for that R (as ball_score's loop does) and `inside`.
std::int32_t NearestSearch::Impl::radius_beyond_tables(const Offset& centre, std::int32_t k,
                                                       const std::array<std::int32_t, 3>& first,
                                                       const std::array<std::int32_t, 3>& last, std::int32_t& inside) {
  const std::int32_t lx = grid_.dims()[0];
  const std::int32_t* along_x = shifted_[0].data() + lx + centre[0];
  // wide_up_[o + lx]: plane o's free nodes within R - |o|; R = ball_rho_ to start (the tables')
  wide_up_.assign(std::size_t(2 * lx + 1), 0), wide_ring_.resize(std::size_t(2 * lx + 1));
  std::int32_t R = ball_rho_, all = 0;
  for (std::int32_t o = std::max(first[0], -R); o <= std::min(last[0], R); ++o) {
    all += wide_up_[std::size_t(o + lx)] = inside_[std::size_t(o + R)] + ring_[std::size_t(o + R)];
  }
  do {  // R -> R + 1: a plane's ball inside the new R is its ball within the old one
    ++R;
    inside = all;
    for (std::int32_t o = std::max(first[0], -R); o <= std::min(last[0], R); ++o) {
      std::int32_t ring = 0;
      walk_ring(along_x[o], R - std::abs(o), centre, first, last, [&ring](std::int32_t, std::int32_t, std::int32_t free) {
        ring += free;
        return true;
      });
      wide_ring_[std::size_t(o + lx)] = ring;
      wide_up_[std::size_t(o + lx)] += ring, all += ring;
    }
  } while (all < k);
  inside_.resize(std::size_t(2 * R + 1)), ring_.resize(std::size_t(2 * R + 1));
  for (std::int32_t o = std::max(first[0], -R); o <= std::min(last[0], R); ++o) {
    const std::int32_t ring = wide_ring_[std::size_t(o + lx)];
    inside_[std::size_t(o + R)] = wide_up_[std::size_t(o + lx)] - ring, ring_[std::size_t(o + R)] = ring;
  }
  return R;
}

/// The exact score of `centre`, or a lower bound of it at or above `bound`; kIdealShape where it
/// collects the ideal shape. Centres whose R is beyond the tables are scored from rows of busy
/// bits (radius_beyond_tables, plane_ball_rows).
std::int64_t NearestSearch::Impl::ball_score(const Machine& machine, const Offset& centre, std::int32_t k,
                                             const IdealShape& ideal, std::int64_t bound) {
  // R: the least radius whose ball holds k free nodes (k >= 2: R >= 1), from the previous
  // centre's; with it each x plane's free nodes inside radius R - 1 and at R.
  // Offsets within the grid (a torus: its canonical range) along each axis.
  std::array<std::int32_t, 3> first, last;
  for (int d = 0; d < 3; ++d) first[d] = grid_.lowest_offset(centre, d), last[d] = grid_.highest_offset(centre, d);
  const std::int32_t* along_x = shifted_[0].data() + grid_.dims()[0] + centre[0];
  std::int32_t R = std::clamp(last_radius_, 1, ball_rho_), inside = 0;
  for (;;) {
    const PlaneBalls x_balls(*this, 0, centre);  // the tables may grow below
    inside = 0;
    std::int32_t all = 0;
    std::int32_t* in_of = inside_.data() + R;
    std::int32_t* ring_of = ring_.data() + R;
    for (std::int32_t o = std::max(first[0], -R); o <= std::min(last[0], R); ++o) {
      const std::int32_t t = std::abs(o), v = along_x[o];
      const std::int32_t in = t < R ? x_balls(v, R - 1 - t) : 0, upto = x_balls(v, R - t);
      in_of[o] = in, ring_of[o] = upto - in;
      inside += in, all += upto;
    }
    if (inside >= k) {
      --R;  // R - 1 >= 1: a ball of radius 0 holds one node
    } else if (all < k) {
      if (R == ball_rho_ && ball_rho_ < ball_rho_grown_) {  // once a decision
        build_ball_tables(ball_rho_grown_);
        ++R;
        continue;
      }
      if (R == ball_rho_) {
        R = radius_beyond_tables(centre, k, first, last, inside);
        break;
      }
      ++R;
    } else {
      break;
    }
  }
  last_radius_ = R;
  wide_needed_ = wide_needed_ || (R > ball_rho_own_ && ball_rho_grown_ > ball_rho_own_);
  // B is l1_order_'s first offsets, all free, up to the ideal's shell: the k nodes are the ideal
  // shape if the shell's are (most centres of a mostly free machine whose box is not all free).
  if (R == ideal.r && inside == l1_start_[std::size_t(R)] && shell_as_ideal(machine, centre, ideal)) return kIdealShape;
  const std::int32_t m = k - inside;  // taken from the shell at R
  // Along x: B, and the shell's first m free nodes plane by plane in x order. The counts along
  // an axis are kept by offset from the centre, a window of consecutive coordinates (window_):
  // pairs are as far apart as on a line, less on a torus what going round saves those more than
  // half the axis apart.
  auto window_pairs = [&](int d, std::int32_t o_lo, std::int32_t o_hi) {
    const std::span<const std::int64_t> counts(window_.data(), std::size_t(o_hi - o_lo + 1));
    return grid_.torus() ? ring_window_pair_distance_sum(counts, grid_.dims()[d]) : line_pair_distance_sum(counts);
  };
  std::int32_t left = m;
  const std::int32_t x_lo = std::max(first[0], -R), x_hi = std::min(last[0], R);
  window_.resize(std::size_t(std::max(2 * R + 1, 1)));
  for (std::int32_t o = x_lo; o <= x_hi; ++o) {
    const std::int32_t take = std::min(ring_[std::size_t(o + R)], left);
    window_[std::size_t(o - x_lo)] = inside_[std::size_t(o + R)] + take;
    left -= take;
  }
  const std::int64_t x = window_pairs(0, x_lo, x_hi);
  std::int64_t score = x;
  if (score >= bound) return score;
  // Along y and z: B only (the shell's nodes add at least their least hops to B).
  for (int d = 1; d < 3; ++d) {
    std::vector<std::int64_t>& count = ball_axes_[std::size_t(d)].count;
    std::fill(count.begin(), count.end(), 0);
    const std::int32_t* along = shifted_[std::size_t(d)].data() + grid_.dims()[d] + centre[d];
    const std::int32_t o_lo = std::max(first[std::size_t(d)], 1 - R), o_hi = std::min(last[std::size_t(d)], R - 1);
    const PlaneBalls balls(*this, d, centre);
    for (std::int32_t o = o_lo; o <= o_hi; ++o) {
      const std::int32_t rho = R - 1 - std::abs(o);
      count[std::size_t(along[o])] = window_[std::size_t(o - o_lo)] =
          rho <= ball_rho_ ? balls(along[o], rho) : plane_ball_rows(d, along[o], rho, centre, first, last);
    }
    score += window_pairs(d, o_lo, o_hi);
    if (score >= bound) return score;
  }
  // A shell node's offset along d is within [-R, R]: it adds at least the least, over that range,
  // of its distances along d to B's nodes (window_ holds them along z; along y read again).
  std::int64_t least_attach = 0;
  for (int d = 2; d >= 1; --d) {
    const std::int32_t o_lo = std::max(first[std::size_t(d)], 1 - R), o_hi = std::min(last[std::size_t(d)], R - 1);
    if (d == 1) {
      const std::int32_t* along = shifted_[1].data() + grid_.dims()[1] + centre[1];
      for (std::int32_t o = o_lo; o <= o_hi; ++o) window_[std::size_t(o - o_lo)] = ball_axes_[1].count[std::size_t(along[o])];
    }
    least_attach += least_window_attach(std::span(window_.data(), std::size_t(std::max(o_hi - o_lo + 1, 0))), o_lo,
                                        std::max(first[std::size_t(d)], -R), std::min(last[std::size_t(d)], R),
                                        grid_.torus() ? grid_.dims()[d] : 0);
  }
  const std::int64_t lower = score + std::int64_t{m} * least_attach;
  if (lower >= bound) return lower;
  // Exact: the shell's first m free nodes along y and z, in l1_order_'s order: plane by plane in
  // x order, as many as the x pass took of each (whole rings, then the one taken in part), a
  // plane's ring by y, then z (-w before +w) (walk_ring). The shell's nodes are counted by offset
  // (shell_y_, shell_z_), B's by coordinate.
  shell_y_.assign(std::size_t(2 * R + 1), 0), shell_z_.assign(std::size_t(2 * R + 1), 0);
  std::int64_t* sy = shell_y_.data() + R;
  std::int64_t* sz = shell_z_.data() + R;
  left = m;
  for (std::int32_t o = x_lo; o <= x_hi && left > 0; ++o) {
    std::int32_t take = std::min(ring_[std::size_t(o + R)], left);
    left -= take;
    if (take == 0) continue;
    const std::int32_t s = R - std::abs(o);
    if (take == ring_[std::size_t(o + R)]) {  // the whole ring: every free node, no branch on the bits
      walk_ring(along_x[o], s, centre, first, last, [&](std::int32_t oy, std::int32_t oz, std::int32_t free) {
        sy[oy] += free, sz[oz] += free;
        return true;
      });
      continue;
    }
    walk_ring(along_x[o], s, centre, first, last, [&](std::int32_t oy, std::int32_t oz, std::int32_t free) {
      if (!free) return true;
      ++sy[oy], ++sz[oz];
      return --take > 0;
    });
  }
  std::int64_t exact = x;
  for (int d = 1; d < 3; ++d) {
    const std::int32_t* along = shifted_[std::size_t(d)].data() + grid_.dims()[d] + centre[d];
    const std::int32_t o_lo = std::max(first[std::size_t(d)], -R), o_hi = std::min(last[std::size_t(d)], R);
    const std::vector<std::int64_t>& count = ball_axes_[std::size_t(d)].count;
    const std::int64_t* shell = d == 1 ? sy : sz;
    for (std::int32_t o = o_lo; o <= o_hi; ++o) window_[std::size_t(o - o_lo)] = count[std::size_t(along[o])] + shell[o];
    exact += window_pairs(d, o_lo, o_hi);
  }
  return exact;
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

/// The per-decision state the scores read (the prefix table, rows of busy bits, the plane
/// tables); whether the centres are scored from balls.
bool NearestSearch::Impl::prepare_pairwise(NearestKind kind, const Machine& machine, std::int32_t k) {
  if (k < 2) return false;
  // Centres are scored from balls (ball_score) on grids whose planes' counts fit 16 bits: on a
  // mesh for jobs of every size (oxley4320's balls cross its edges, so the shape does not apply:
  // jobs of 2-63 nodes took 10-40% longer scored as before), on a torus from kBallMinNodes.
  const bool balls = (k >= kBallMinNodes || !grid_.torus()) &&
                     std::int64_t{grid_.node_count()} / std::min({grid_.dims()[0], grid_.dims()[1], grid_.dims()[2]}) < (1 << 16);
  if (balls_alone(balls, k)) {
    read_free(machine);
  } else {
    build_prefix(machine);
  }
  build_busy_rows(), busy_cols_.clear();
  if (balls) {
    ball_rho_own_ = ball_radius(kind, k, machine.free_count());
    ball_rho_grown_ = kind == NearestKind::mm ? std::min(recurrence_reach(), kMaxGrownRadius) : -1;
    build_ball_tables(wide_needed_ ? std::max(ball_rho_own_, ball_rho_grown_) : ball_rho_own_);
    wide_needed_ = false;
  }
  return balls;
}

/// The pairwise hops of the k nodes collected around `centre`, or a lower bound at or above
/// `bound`; kIdealShape where they are the ideal shape (`ideal`: ideal_shape(k), null for k = 1).
/// After prepare_pairwise.
std::int64_t NearestSearch::Impl::pairwise_score(const Machine& machine, const Offset& centre, std::int32_t k,
                                                 const IdealShape* ideal, bool balls, std::int64_t bound) {
  const bool box = ideal && !balls_alone(balls, k);  // the prefix table is built
  if (box && box_all_free(centre, ideal->r)) {
    scored_radius_ = ideal->r;  // the ball of that radius is free: ball_score's R and answer too
    return kIdealShape;
  }
  std::int64_t s = -1;
  if (balls) s = ball_score(machine, centre, k, *ideal, bound), scored_radius_ = last_radius_;
  if (s == kIdealShape) return s;
  if (s < 0 && ideal) s = shape_score(machine, centre, k, *ideal, bound);
  if (s < 0) s = l1_score(machine, centre, k, bound);
  return s;
}

NearestSearch::Impl::ScoreMemo& NearestSearch::Impl::score_memo(NearestKind kind, std::int32_t k) {
  ++memo_clock_;
  const std::size_t nodes = std::size_t(grid_.node_count());
  auto it = std::find_if(memos_.begin(), memos_.end(), [&](const ScoreMemo& m) { return m.kind == kind && m.k == k; });
  if (it != memos_.end()) {
    distance_to_changes(it->free);
    for (std::size_t n = 0; n < nodes; ++n) {
      if (change_dist_[n] <= it->radius[n]) it->radius[n] = -1;
    }
  } else {
    if (memos_.size() < kMemoSizes) {
      it = memos_.emplace(memos_.end());
    } else {
      it = std::min_element(memos_.begin(), memos_.end(),
                            [](const ScoreMemo& a, const ScoreMemo& b) { return a.used < b.used; });
    }
    it->kind = kind, it->k = k;
    it->value.resize(nodes), it->exact.resize(nodes), it->radius.assign(nodes, -1);
  }
  it->free = free_, it->used = memo_clock_;
  return *it;
}

void NearestSearch::Impl::distance_to_changes(const std::vector<std::uint8_t>& before) {
  const auto [lx, ly, lz] = grid_.dims();
  constexpr std::int32_t kFar = 1 << 24;  // beyond any radius (min(value, neighbour + 1) never exceeds it)
  const std::size_t nodes = std::size_t(grid_.node_count());
  change_dist_.resize(nodes);
  for (std::size_t n = 0; n < nodes; ++n) change_dist_[n] = free_[n] != before[n] ? 0 : kFar;
  // L1 distance is separable: along each axis in turn, every line's values become the least of
  // value + hops over the line (twice round on a torus). The lines of an axis are `lines` groups
  // `group` apart, each `inner` lines walked side by side (independent chains of minima), `apart`
  // between neighbouring lines of a group (1 where they are consecutive: a compile-time constant
  // there, so the loop is vectorized), a step of `step` between a line's entries.
  const bool torus = grid_.torus();
  auto axis = [&](std::int32_t len, std::size_t lines, std::size_t group, std::size_t step, std::size_t inner,
                  auto apart) {
    const std::int32_t rounds = torus ? 2 : 1;
    const std::size_t span = inner * apart;
    for (std::size_t g = 0; g < lines; ++g) {
      std::int32_t* line = change_dist_.data() + g * group;
      for (std::int32_t i = 1; i < rounds * len; ++i) {
        std::int32_t* now = line + std::size_t(i % len) * step;
        const std::int32_t* prev = line + std::size_t((i - 1) % len) * step;
        for (std::size_t j = 0; j < span; j += apart) now[j] = std::min(now[j], prev[j] + 1);
      }
      for (std::int32_t i = rounds * len - 2; i >= 0; --i) {
        std::int32_t* now = line + std::size_t(i % len) * step;
        const std::int32_t* next = line + std::size_t((i + 1) % len) * step;
        for (std::size_t j = 0; j < span; j += apart) now[j] = std::min(now[j], next[j] + 1);
      }
    }
  };
  constexpr std::integral_constant<std::size_t, 1> consecutive;
  const std::size_t row = std::size_t(lz), plane = std::size_t(ly) * row;
  axis(lz, std::size_t(lx), plane, 1, std::size_t(ly), row);  // along z: per x, its ly lines row apart
  axis(ly, std::size_t(lx), plane, row, row, consecutive);    // along y: per x, the z lines side by side
  axis(lx, 1, 0, plane, plane, consecutive);                  // along x: every (y, z) side by side
}

std::vector<NodeId> NearestSearch::Impl::by_pairwise_hops(NearestKind kind, const Machine& machine, std::int32_t k) {
  std::int64_t best = std::numeric_limits<std::int64_t>::max();
  Offset best_centre{};
  // Every centre with a free box of radius r (the k-th offset's L1 length), or whose balls show
  // l1_order_'s first k offsets free (ball_score), collects the ideal shape: the first one is
  // scored without a walk, the later ones only tie (ties keep the earlier). The others are scored
  // from the balls (centres beyond the tables from rows of bits), the shape (shape_score) or,
  // failing those, walked.
  // Scored from balls, a centre whose ball at its R is as an earlier decision of the same size
  // saw it keeps that decision's answer (kept in a ScoreMemo): a score, or a lower bound at or
  // above that decision's best, which loses again where it is at or above this one's (ties keep
  // the earlier centre) and is scored again where not.
  const bool balls = prepare_pairwise(kind, machine, k);
  const IdealShape* ideal = k >= 2 ? &ideal_shape(k) : nullptr;
  ScoreMemo* memo = balls ? &score_memo(kind, k) : nullptr;
  bool ideal_seen = false;
  for (const Offset& centre : centres(kind, machine)) {
    const auto id = std::size_t(grid_.node(centre));
    std::int64_t s = 0;
    if (memo && memo->radius[id] >= 0 && memo->exact[id]) {
      s = memo->value[id];
    } else if (memo && memo->radius[id] >= 0 && memo->value[id] >= best) {
      continue;
    } else {
      s = pairwise_score(machine, centre, k, ideal, balls, best);
      if (memo) memo->value[id] = s, memo->radius[id] = scored_radius_, memo->exact[id] = s < best;
    }
    if (s == kIdealShape) {
      if (ideal_seen) continue;
      ideal_seen = true;
      s = ideal->score;
    }
    if (s < best) best = s, best_centre = centre;
    if (best == 0) break;  // one node (k = 1): no later centre can score below, and ties keep this one
  }
  return collect(l1_order_, machine, best_centre, k);
}

std::int64_t NearestSearch::Impl::centre_score(NearestKind kind, const Machine& machine, NodeId centre, std::int32_t k) {
  if (kind == NearestKind::mc1x1) throw InputError("centre_score: mm and genalg score centres by pairwise hops, not mc1x1");
  if (k < 2 || k > machine.free_count() || centre < 0 || centre >= grid_.node_count()) {
    throw InputError("centre_score: " + std::to_string(k) + " nodes around node " + std::to_string(centre) + " of " +
                     std::to_string(machine.free_count()) + " free (needs 2 <= nodes <= free, a node of the grid)");
  }
  const bool balls = prepare_pairwise(kind, machine, k);
  const IdealShape& ideal = ideal_shape(k);
  const std::int64_t s =
      pairwise_score(machine, grid_.coordinate(centre), k, &ideal, balls, std::numeric_limits<std::int64_t>::max());
  return s == kIdealShape ? ideal.score : s;
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
  std::vector<NodeId> out;
  impl_->mc1x1_around(machine, centre, nodes, out);
  impl_->sort_ascending(out);
  return out;
}

void NearestSearch::mc1x1_around_unsorted(const Machine& machine, NodeId centre, std::int32_t nodes,
                                          std::vector<NodeId>& out) {
  impl_->mc1x1_around(machine, centre, nodes, out);
}

void NearestSearch::sort_ascending(std::vector<NodeId>& ids) const { impl_->sort_ascending(ids); }

std::int64_t NearestSearch::centre_score(NearestKind kind, const Machine& machine, NodeId centre, std::int32_t nodes) {
  return impl_->centre_score(kind, machine, centre, nodes);
}

bool NearestSearch::prepare_zone_counts(const Machine& machine, std::span<const std::int32_t> zone_of_node,
                                        std::int32_t zones) {
  return impl_->prepare_zone_counts(machine, zone_of_node, zones);
}

void NearestSearch::surely_taken_per_zone(NodeId centre, std::int32_t nodes, std::vector<std::int32_t>& counts) const {
  impl_->surely_taken_per_zone(centre, nodes, counts);
}

bool NearestSearch::prepare_box_sums(const Machine& machine, std::span<const double> weights, std::size_t width) {
  return impl_->prepare_box_sums(machine, weights, width);
}

void NearestSearch::surely_taken_sums(NodeId centre, std::int32_t nodes, std::span<double> sums) const {
  impl_->surely_taken_sums(centre, nodes, sums);
}

void NearestSearch::add_last_shell_per_zone(const Machine& machine, NodeId centre, std::int32_t nodes,
                                            std::span<const std::int32_t> zone_of_node,
                                            std::vector<std::int32_t>& counts) const {
  impl_->add_last_shell_per_zone(machine, centre, nodes, zone_of_node, counts);
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
