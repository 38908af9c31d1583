#include "dcsweep/sim/runtime_model.hpp"

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/rng.hpp"

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
  /// [P1] Eq. 3.
  static double tau(double cc, double r) { return 0.9875 + 0.0962 * cc + r; }

 private:
  double c_, noise_;
  RngStream rng_;
};

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
                  "gives no value; 0: the regression line)"}},
        [](const BuildContext& ctx, const Platform& platform) -> std::unique_ptr<RuntimeModel> {
          if (platform.network == NetworkKind::none) {
            throw InputError("runtime_model 'meng_tau' needs a platform with a network (mesh or torus); platform '" +
                             platform.name + "' has none");
          }
          return std::make_unique<MengTau>(ctx.params, ctx.key);
        }}});
  return registry;
}

}  // namespace dcsweep
