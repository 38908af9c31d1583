#pragma once
// The denominator of [P4]'s SP-EIR (Sec. IV, VII-A): a lower bound on the energy of the optimal
// placement given the start times. At every moment the schedule fixes how many nodes are busy
// (k_busy) and on (k_on: busy, idle or booting; the rest off); the optimal placement of that
// moment would let the thermostat go highest ([P4] Eq. 6), so it is bounded by the LP
//   maximise z  subject to  s_i z + sum_p D(i, zone_p) (off_p c_p + (idle_p - off_p) y_p + delta_p x_p) <= T_red
//                           for every inlet (zone) i,
//                           sum_p x_p = k_busy,  sum_p y_p = k_on,  0 <= x_p <= y_p <= c_p,
// over pools p = the nodes of one zone and one type (c_p of them; a node at node level), x_p / y_p
// the busy / on nodes in p, s_i the inlet's share of supply air (F; 1 without). z is the highest
// supply any placement of the moment allows (the relaxation is never below the integer
// optimum). The compute power is bounded below separately: every node off, plus the k_on
// smallest idle - off steps, plus the k_busy smallest busy - idle steps.
// One LP per distinct (k_busy, k_on) (COIN-OR Clp), kept. With every node on, k_busy = 0, 1, 2, ...
// are solved in that order on one model, each warm from the last (the same values in every run);
// with nodes off, each pair by row generation over the inlets from the same first rows.
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "dcsweep/power/node_power.hpp"
#include "dcsweep/thermal/room.hpp"

class ClpSimplex;

namespace dcsweep {

/// Rooms with more zones report no sp_eir (the LP holds D densely).
inline constexpr Eigen::Index kSpEirMaxZones = 2048;

struct MomentBound {
  double supply_bound_c;   ///< the LP's z: the highest supply an optimal placement of the moment allows
  double compute_power_w;  ///< the least compute power of k_busy busy and k_on on nodes
};

class SpEirBound {
 public:
  /// `heat` must hold a D (recirculation model); `off_w`: a switched-off node's power.
  SpEirBound(const Platform& platform, const NodePowerTable& power, const HeatDistributionBuild& heat,
             double off_w, double redline_c);
  ~SpEirBound();

  /// The bound for `busy` busy and `on` on nodes (0 <= busy <= on <= the node count, else
  /// SimulationError). After a SimulationError from Clp the object is not to be used again.
  const MomentBound& at(std::int32_t busy, std::int32_t on);
  /// Inlet rows the pairs with nodes off added beyond their first ones, so far (tests, diagnostics).
  std::int64_t generated_rows() const { return generated_rows_; }

 private:
  struct Pool {
    std::int32_t zone, count;
    double off_w, idle_w, busy_w;
    double busy_step_w() const { return busy_w - idle_w; }  ///< x_p's power per node
    double on_step_w() const { return idle_w - off_w; }     ///< y_p's power per node
  };
  /// The LP with the count rows' bounds left at 0 (solve sets them).
  std::unique_ptr<ClpSimplex> build() const;
  MomentBound solve(ClpSimplex& lp, std::int32_t busy, std::int32_t on, int start_finish) const;
  MomentBound solve_by_rows(std::int32_t busy, std::int32_t on);
  std::vector<int> first_rows(std::int32_t busy, std::int32_t on) const;
  double compute_bound_w(std::int32_t busy, std::int32_t on) const;
  static void run_clp(ClpSimplex& lp, std::int32_t busy, std::int32_t on, int start_finish);

  std::vector<Pool> pools_;
  Matrix d_;                  ///< D (zones x zones)
  Eigen::VectorXd share_;     ///< s_i
  Eigen::VectorXd rhs_;       ///< T_red less the inlet's rise with every node off
  std::vector<int> recirculation_order_;  ///< pools by D's column sum, ascending (first_rows)
  double redline_c_;
  std::int32_t node_count_;
  std::vector<double> on_steps_w_, busy_steps_w_;  ///< per node, ascending
  double all_off_w_ = 0;
  std::map<std::pair<std::int32_t, std::int32_t>, MomentBound> cache_;
  std::unique_ptr<ClpSimplex> chain_;  ///< every node on: k_busy = 0, 1, ... solved in turn on it
  std::int32_t chain_next_ = 0;        ///< the next k_busy of the chain
  std::int64_t generated_rows_ = 0;
  /// Solves the chain up to `busy`.
  void extend_chain(std::int32_t busy);
};

}  // namespace dcsweep
