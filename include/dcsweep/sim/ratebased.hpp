#pragma once
// `model = ratebased` ([P3], issue 12): a point that solves one epoch of [P3]'s rate-based
// problem on the point's room instead of simulating a job trace. It reads the rate tables
// (ratebased_* files), builds the platform's CRAC + node room (thermal_model crac_node,
// aisle_containment), solves with ratebased_technique (greedy, ga) for the objective (rr, nerr)
// under facility_power_budget_w (phi) and redline_c, checks the answer on the room model itself,
// optionally bounds it (the LP of ratebased/bound.hpp) and checks it by a discrete-event
// simulation of Poisson arrivals (ratebased_validate). Its metrics are its own
// (ratebased_metric_specs); a sweep never mixes them with a trace-driven point's (docs/models.md).
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dcsweep/core/rng.hpp"
#include "dcsweep/ratebased/bound.hpp"
#include "dcsweep/ratebased/model.hpp"
#include "dcsweep/ratebased/validate.hpp"
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/core/report.hpp"

namespace dcsweep {

/// `model` and every parameter of a ratebased point (the room's come from room_params()).
std::vector<ParamSpec> ratebased_params();
/// Every metric of a ratebased point, in result-file order.
std::vector<MetricSpec> ratebased_metric_specs();

/// model = ratebased.
bool is_ratebased(const ParamSet& params);
/// What the parameters alone rule out (InputError naming the parameter): a thermal model other
/// than crac_node, a platform without a room. (nlp on a room above kNlpMaxCores cores is refused
/// by ratebased_shape, which knows the cores.)
void check_ratebased_params(const ParamSet& params);

/// One rank's reusable pieces of ratebased points, so that the points of a sweep sharing tables,
/// a room or an instance do not rebuild them: the tables by their three paths, the room's
/// linear map by the room's key, the reward bound by everything it depends on. Not thread-safe
/// (a rank simulates on one thread).
class RatebasedCache {
 public:
  const RateTables& tables(const ParamSet& params);
  std::shared_ptr<const RoomResponse> response(const std::string& room_key, const CracNodeModel& room);
  /// The bound of an instance, computed on first use with `options`.
  const RewardBound& bound(const std::string& key, const RateInstance& instance, const BoundOptions& options);

 private:
  std::map<std::string, RateTables> tables_;
  std::map<std::string, std::shared_ptr<const RoomResponse>> responses_;
  std::map<std::string, RewardBound> bounds_;
};

/// The point's platform (the room it needs), tables checked against it, without building the
/// room: what `validate` and the cost estimate do for every distinct ratebased point.
struct RatebasedShape {
  Platform platform;
  std::int64_t cores = 0, zones = 0, tasks = 0;
  double idle_w = 0;     ///< every node's static power (the idle room's compute power)
  double budget_w = 0;   ///< phi of the point (facility_power_budget_w or the platform's)
  double redline_c = 0;  ///< the point's redline (redline_c or the platform's)
};
RatebasedShape ratebased_shape(const ParamSet& params, StreamKey key, RatebasedCache& cache);

/// The problem of a point: tables (the workload environment, arrival rates scaled), the room and
/// the constraints.
RateInstance ratebased_instance(const ParamSet& params, StreamKey key, const HeatProvider& heat,
                                RatebasedCache& cache);

struct RatebasedEpoch {
  RateInstance instance;
  RateResult result;        ///< the technique's answer
  RateEvaluation exact;     ///< that answer on the CRAC + node model itself
  std::optional<RewardBound> bound;
  std::optional<RealizedRate> realized;  ///< ratebased_validate
  bool feasible = false;    ///< the technique found an answer and it meets both constraints exactly
  Report report;
};

/// Solves the point's epoch. Randomness (GA, validation) only from streams of `key`. An
/// infeasible epoch is a result (feasible = 0), not an error; InputError on bad input.
RatebasedEpoch solve_ratebased_epoch(const ParamSet& params, StreamKey key, const HeatProvider& heat,
                                     RatebasedCache& cache);

}  // namespace dcsweep
