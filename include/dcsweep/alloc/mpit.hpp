#pragma once
// Cooling-aware placement ([P1] Sec. 4.1, after Tang et al.): MPIT chooses the job's nodes so
// that the peak inlet temperature after the job starts is as low as possible, given the room's
// power state now. It solves the LP relaxation
//   minimise t  subject to  t >= rise_i + sum_p D(i, zone_p) w_p   for every inlet (zone) i,
//                           sum_p w_p / delta_p = n,   0 <= w_p <= delta_p free_p,
// over pools p = the free nodes of one zone and one node type (a node at node level), w_p the
// power the job adds in pool p (kW) and delta_p = busy - idle power of one of its nodes, with
// COIN-OR Clp (warm-started from the previous decision's basis; on rooms of many zones over the
// inlets that can bind, by row generation: MpitRows), then rounds the fractional
// node counts x_p = w_p / delta_p to the nearest integer allocation: floors first, then one more
// node for the pools with the largest fractional parts (ties: the lowest node id). At node level
// that is SST's rule, the n largest x. Then single-node moves between pools that lower the peak
// (the rounded relaxation can be far from the integer optimum for small jobs; at most 64 moves
// on rooms of more than 256 pools, 10 x pools + 100 otherwise). Within a pool the
// lowest free node ids are taken. A one-node job needs no LP: the best pool by enumeration.
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "dcsweep/alloc/machine.hpp"
#include "dcsweep/core/params.hpp"
#include "dcsweep/platform/platform.hpp"
#include "dcsweep/thermal/room_view.hpp"
#include "dcsweep/workload/workload.hpp"

namespace dcsweep {

/// InputError unless a thermal allocator can read the room: the platform has one, the thermal
/// model is the recirculation model (D) and nodes draw power. Names the allocator.
void require_room(const Platform& platform, const ParamSet& params, std::string_view allocator);
/// The part of require_room the parameters alone decide (thermal model, node power): checked on
/// every point of a sweep before any simulation starts (check_policy_params, sim/scenario.hpp).
void require_room_params(const ParamSet& params, std::string_view allocator);

/// The room's D, or InputError "<who> needs the room's state: ..." when the room has none (no
/// room, another thermal model, or no node power): the check every thermal allocator makes.
const HeatDistribution& heat_of(const RoomView& room, std::string_view who);

/// The largest inlet rise over the supply (K) once a node set runs in a job's configuration, from
/// the rises now: max_i rise_i + sum over the nodes of D(i, zone) (busy - idle), O(nodes + zones x
/// runs of consecutive zones adding equal power). For the many sets of one decision (mpit's,
/// joint's shells): each node's zone and power delta are read from the room once per decision;
/// the zones' added power is summed in node order and D's cumulative columns added at the edges
/// of those runs, in ascending zone order, whatever the set.
class PeakRise {
 public:
  /// A new decision on `room` (InputError naming `who` without D) for a job in `config`.
  void start(const RoomView& room, const JobConfig& config, std::int32_t node_count, std::string_view who);
  /// The peak once `nodes` run the job (in any order; each zone's power is summed in it).
  double peak(std::span<const NodeId> nodes);
  /// The largest rise over `inlets` only once `nodes` run the job: a lower bound of peak(nodes)
  /// (the same entries of D summed another way: up to rounding, far below 1e-9 K), O(nodes x inlets).
  double peak_over(std::span<const NodeId> nodes, std::span<const Eigen::Index> inlets);
  /// Every node's share of each inlet's rise, were it to run the job: `weights[n * m + k]` =
  /// D(inlets[k], zone of n) x its power delta (m inlets; peak_over sums such products), O(N m).
  void node_weights(std::span<const Eigen::Index> inlets, std::vector<double>& weights);
  /// The `count` hottest inlets under the node set of the last peak(), hottest first.
  std::vector<Eigen::Index> hottest(std::size_t count) const;

  /// Lower bounds from counts per zone (joint's large jobs on rooms of few zones): every node's
  /// zone into `zone_of_node`, and per zone the least power delta of its nodes, O(N + zones^2).
  /// False, and no bound, where a delta or an entry of D is negative (a set's peak would not grow
  /// with the set).
  bool prepare_zone_bound(std::vector<std::int32_t>& zone_of_node);
  /// The peak if `counts[z]` nodes of each zone z ran the job at the zone's least delta: a lower
  /// bound of peak(S) for any S holding at least that many nodes of each zone (up to the sums'
  /// rounding), O(zones^2).
  double peak_of_zone_counts(std::span<const std::int32_t> counts);

 private:
  Eigen::MatrixXd dense_d_;   ///< prepare_zone_bound: D, zones x zones
  Eigen::VectorXd zone_w_;    ///< peak_of_zone_counts' scratch
  std::vector<double> least_delta_w_;
  const RoomView* room_ = nullptr;
  const JobConfig* config_ = nullptr;
  const HeatDistribution* d_ = nullptr;
  std::uint32_t decision_ = 0;
  /// A node's zone and power delta for the job, read once per decision (joint asks for the same
  /// nodes thousands of times): one record, so that one cache line serves all three.
  struct NodeTerm {
    double delta_w = 0;
    std::int32_t zone = 0;
    std::uint32_t decision = 0;  ///< the decision it was read in (0: never)
  };
  std::vector<NodeTerm> terms_;
  std::vector<std::int32_t> touched_;
  const NodeTerm& term(NodeId n) {
    NodeTerm& t = terms_[std::size_t(n)];
    if (t.decision != decision_) read_term(n, t);
    return t;
  }
  void read_term(NodeId n, NodeTerm& t) const;
  /// peak_over's inlets are `inlets` from now on (their rows' copy dropped if they changed).
  void use_inlets(std::span<const Eigen::Index> inlets);
  /// Copies D's rows of peak_over's inlets, per zone.
  void copy_inlet_rows();

  std::vector<double> added_w_;  ///< NaN where no node was added
  std::vector<double> over_;             ///< peak_over's sums
  std::vector<Eigen::Index> over_inlets_;  ///< peak_over's inlets since the decision began...
  std::vector<double> over_rows_;          ///< ...their entries of D, per zone (once read enough)
  std::size_t over_reads_ = 0;             ///< entries read for them one by one
  Eigen::VectorXd rise_;
  std::vector<std::pair<Eigen::Index, double>> edges_;  ///< peak's (column of C, weight), then merged:
  std::vector<Eigen::Index> cumulative_;
  std::vector<double> weights_;
};

/// Nearest integer point to the fractional counts `x` with sum n and 0 <= y_p <= cap_p (the sum
/// of x is n): y = floor(x), then one more for the largest x_p - y_p (ties: the lowest p),
/// repeated while nodes remain. Minimises sum (x_p - y_p)^2 under those constraints.
std::vector<std::int32_t> nearest_integer_counts(std::span<const double> x, std::span<const std::int32_t> cap,
                                                 std::int32_t n);

struct MpitDecision {
  std::vector<NodeId> nodes;  ///< ascending
  double lp_peak_rise_k;      ///< a bound no allocation beats: the LP relaxation's optimum (one-node
                              ///< jobs and enumerated decisions: the exact optimum). Not a bound
                              ///< for a job with busy <= idle power: it is placed as if each of
                              ///< its nodes added 1 mW.
  double peak_rise_k;         ///< the chosen nodes' peak (PeakRise)
  bool lp_solved = false;     ///< the LP was solved (false: the only allocation, or enumerated)
};

/// Which inlet rows MPIT's LP holds. `all`: every inlet. `generated`: the inlets that can bind,
/// found by row generation (solve over the rows held, add the inlets the solution overheats,
/// again until none does: then it is an optimum of the whole LP, of the same value; slack rows
/// are dropped when many have gathered). `automatic`: generated on rooms of more than 256 zones.
enum class MpitRows { automatic, all, generated };
/// MpitRows::automatic holds every inlet row up to this many zones; joint bounds its shells
/// above it (the cost model's threshold too).
inline constexpr Eigen::Index kMpitAllRowsMaxZones = 256;
/// joint bounds the shells of jobs of at least this many nodes by their inner cubes (rooms of at
/// most kMpitAllRowsMaxZones zones; the cost model's joint terms change there).
inline constexpr std::int32_t kJointInnerBoundMinNodes = 1024;

struct MpitOptions {
  MpitRows rows = MpitRows::automatic;
  /// The single-node moves after rounding skip a move whose rise at one of the 64 hottest inlets
  /// already reaches the best move's peak (the same moves are made, ties included; false scores
  /// every move over every inlet, for tests).
  bool bounded_moves = true;
};

/// The LP and its pools, built at the first decision (from the room's zones) and kept warm.
/// One per simulation; needs room.thermal() and room.heat_distribution() (InputError otherwise).
class MpitSolver {
 public:
  explicit MpitSolver(const Platform& platform, MpitOptions options = {});
  ~MpitSolver();
  MpitSolver(MpitSolver&&) noexcept;
  MpitSolver& operator=(MpitSolver&&) noexcept;

  /// `nodes` free nodes (1 <= nodes <= machine.free_count()).
  MpitDecision decide(const Machine& machine, const RoomView& room, const JobConfig& config, std::int32_t nodes);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dcsweep
