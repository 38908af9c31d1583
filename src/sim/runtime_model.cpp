#include "dcsweep/sim/runtime_model.hpp"

#include <algorithm>
#include <map>

#include "dcsweep/alloc/nearest.hpp"
#include "dcsweep/comm/comm.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/core/rng.hpp"
#include "dcsweep/power/pass_model.hpp"

namespace dcsweep {
namespace {

/// Work conserved at linear speedup when a job runs on another node count than the trace's.
double node_factor(const RuntimeQuery& q) { return double(q.job.nodes) / double(q.config.nodes_of(q.job)); }

class TraceRuntime final : public RuntimeModel {
 public:
  RuntimeEffect effect(const RuntimeQuery& q) override { return {node_factor(q), 1.0}; }
};

/// t' = (1 - c) t + c s t: the communication part stretched by s.
RuntimeEffect comm_stretched(const RuntimeQuery& q, double c, double s) {
  return {node_factor(q) * ((1 - c) + c * s), s};
}

class MengTau final : public RuntimeModel {
 public:
  MengTau(const ParamSet& p, StreamKey key)
      : c_(p.real("comm_fraction")), noise_(p.real("meng_tau_noise")), rng_(key, StreamPurpose::runtime) {}
  bool uses_comm_cost() const override { return true; }
  RuntimeEffect effect(const RuntimeQuery& q) override {
    if (std::isnan(q.comm_cost)) return {node_factor(q), 1.0};  // one node: nothing to communicate
    const double r = noise_ > 0 ? rng_.uniform(-noise_, noise_) * q.comm_cost : 0.0;
    return comm_stretched(q, c_, tau(q.comm_cost, r));
  }
  /// [P1] Eq. 3, never below 0: with a wide noise term r the line would give the communication
  /// part a negative time (a job ending before it started).
  static double tau(double cc, double r) { return std::max(0.0, 0.9875 + 0.0962 * cc + r); }

 private:
  double c_, noise_;
  RngStream rng_;
};

/// [P0] section 5.3: the communication part scaled by CC_job over the cost of the best
/// allocation of the same size on an empty machine, with the job's pattern and the simulation's
/// task mapping (once per size and pattern). The exact optimum is a hard problem: the best of
/// mc1x1's and genalg's allocations stands for it (mc1x1's alone above 4,096 nodes, where genalg
/// takes a second a decision), so a rare placement better than both runs slightly faster.
class MengRelative final : public RuntimeModel {
 public:
  MengRelative(const ParamSet& p, const Platform& platform)
      : c_(p.real("comm_fraction")),
        platform_(platform),
        mapping_(comm::mapping_of(p.text("task_mapping"))),
        search_(platform),
        empty_(platform.node_count) {}
  bool uses_comm_cost() const override { return true; }
  RuntimeEffect effect(const RuntimeQuery& q) override {
    if (std::isnan(q.comm_cost)) return {node_factor(q), 1.0};
    const double best = best_cost(static_cast<std::int32_t>(q.nodes.size()), q.attributes.comm_pattern);
    return comm_stretched(q, c_, best > 0 ? q.comm_cost / best : 1.0);
  }

 private:
  double best_cost(std::int32_t n, std::uint8_t pattern) {
    auto [it, added] = best_.try_emplace({n, pattern}, 0.0);
    if (added) {
      const comm::TaskGraph graph = comm::task_graph(pattern, n);
      it->second = INFINITY;
      // Genalg minimises pairwise hops over its centres; mc1x1 is the fast one for large rooms.
      const bool small = platform_.node_count <= 4096;
      for (const NearestKind kind : {NearestKind::mc1x1, NearestKind::genalg}) {
        if (kind == NearestKind::genalg && !small) continue;
        std::vector<NodeId> nodes = search_.allocate(kind, empty_, n);
        comm::map_tasks(platform_, nodes, graph, mapping_);
        it->second = std::min(it->second, comm::comm_cost(platform_, nodes, graph));
      }
    }
    return it->second;
  }

  double c_;
  const Platform& platform_;
  comm::Mapping mapping_;
  NearestSearch search_;
  Machine empty_;
  std::map<std::pair<std::int32_t, std::uint8_t>, double> best_;
};

/// [P2] PASS (power/pass_model.hpp): a job's trace runtime is its time on its trace node count
/// (max N_j) at the reference cap; on n nodes under cap p it runs t(n, p) / t(max N_j, p_ref) times
/// that. Its application parameters come from its own substream (sample_pass_job), keyed like the
/// workload (workload_seed), so every policy of a sweep runs the same applications. A job started
/// without a cap runs at the power preset's cpu_power_cap_w (as it draws).
class PassRuntime final : public RuntimeModel {
 public:
  explicit PassRuntime(const BuildContext& ctx)
      : key_(workload_stream_key(static_cast<std::uint64_t>(ctx.params.integer("workload_seed")), ctx.key)),
        reference_cap_w_(ctx.params.real("pass_reference_cap_w")),
        default_cap_w_(ctx.params.real("cpu_power_cap_w")) {}
  RuntimeEffect effect(const RuntimeQuery& q) override {
    const PassJob job = sample_pass_job(key_, q.job.id, q.job.nodes);
    const double cap = std::isnan(q.config.cpu_cap_w) ? default_cap_w_ : q.config.cpu_cap_w;
    const double nodes = double(q.config.nodes_of(q.job));
    return {job.time_fraction(nodes, cap) / job.time_fraction(double(q.job.nodes), reference_cap_w_), 1.0};
  }

 private:
  StreamKey key_;
  double reference_cap_w_, default_cap_w_;
};

void require_network_for(const Platform& platform, const char* name) {
  if (platform.network == NetworkKind::none) {
    throw InputError(std::string("runtime_model '") + name +
                     "' needs a platform with a network (mesh or torus); platform '" + platform.name + "' has none");
  }
}

}  // namespace

const RuntimeModelRegistry& runtime_model_registry() {
  static const RuntimeModelRegistry registry(
      "runtime_model",
      {{"trace", "the trace's runtime (at linear speedup if a scheduler changes the node count)", {},
        [](const BuildContext&, const Platform&) { return std::make_unique<TraceRuntime>(); }},
       {"meng_tau",
        "[P1] Eq. 2-3: t' = (1 - comm_fraction) t + comm_fraction tau t, tau = 0.9875 + 0.0962 CC_job + r",
        {{.name = "meng_tau_noise", .type = ParamType::real, .default_value = 0.0, .min = 0, .max = 10,
          .help = "spread of tau's random term r, per unit of CC_job: r uniform in [-x, x] x CC_job ([P1] "
                  "gives no value; 0: the regression line); tau is held at 0 or above"}},
        [](const BuildContext& ctx, const Platform& platform) -> std::unique_ptr<RuntimeModel> {
          require_network_for(platform, "meng_tau");
          return std::make_unique<MengTau>(ctx.params, ctx.key);
        }},
       {"meng_relative",
        "[P0] section 5.3: the communication part scaled by CC_job / CC of the best allocation of the same size on "
        "an empty machine (the better of mc1x1's and genalg's, same pattern and task mapping)",
        {},
        [](const BuildContext& ctx, const Platform& platform) -> std::unique_ptr<RuntimeModel> {
          require_network_for(platform, "meng_relative");
          return std::make_unique<MengRelative>(ctx.params, platform);
        }},
       {"pass",
        "[P2] PASS: t(n, p) / t(trace nodes, pass_reference_cap_w) x the trace runtime, Downey scaling x the "
        "frequency model x the inverse-cubic power map, per-job parameters sampled from Table IV's ranges",
        {{.name = "pass_reference_cap_w", .type = ParamType::real, .unit = "W", .default_value = 60.0, .min = 0,
          .max = 1.0e4, .min_open = true,
          .help = "CPU cap at which the trace's runtimes were measured (on the trace's node count); [P2]: full "
                  "power, 60 W"}},
        [](const BuildContext& ctx, const Platform&) -> std::unique_ptr<RuntimeModel> {
          return std::make_unique<PassRuntime>(ctx);
        }}});
  return registry;
}

}  // namespace dcsweep
