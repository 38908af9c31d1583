// [P2] PARM: power-aware scheduling of moldable and malleable jobs under a node power budget,
// and the two baselines it is compared with, as one scheduler `parm` with parm_scheme:
//
//   nomm, nose, wse  At each trigger (a job arrival or end; nothing else runs the decision) the ILP
//                    of [P2] Eq. 1-6 (power/parm_ilp.hpp) over the running jobs and the first
//                    parm_queue_window queued jobs (arrival order) is solved exactly
//                    (solve_parm_ilp). A job offers every (n, p): n among parm_node_levels counts
//                    spread over [min N_j, max N_j] (max N_j = its trace node count, min N_j =
//                    theta max N_j, theta uniform on [parm_theta_min, parm_theta_max] from the
//                    job's PASS substream), p among the cap levels parm_cpu_caps_w at or above the
//                    job's p_l ([P2] section V-B-2: below it the CPU throttles; the top level is
//                    always offered). Value w_j s_{j,n,p} (Eq. 7-8): s = t(min N, min P) / t(n, p)
//                    by the PASS model, w_j = (t_rem + t_now - t_arrival)^parm_fairness_alpha with
//                    t_rem the remaining time at (min N, min P) (a queued job: its requested time
//                    rescaled from (max N, pass_reference_cap_w); a running one: its estimated
//                    end, rescaled from its configuration). Chosen queued jobs start in queue
//                    order with their (n, p); running jobs take their chosen cap at once.
//                      nomm: a queued job offers only n = min N_j ([P2] section VI-D: "the number of
//                            nodes allocated to a job were the minimum number of nodes on which
//                            the noSE and wSE versions can run the same job"); running jobs keep n
//                            (Eq. 6), only caps change;
//                      nose: moldable at start; running jobs keep n (Eq. 6);
//                      wse:  running jobs may also shrink or expand, at most once per
//                            parm_se_interval_s (f_se, counted from the start or the last
//                            shrink/expand: a choice, [P2] counts from the last one only); every
//                            job resized in a decision pauses 2 t_se^max ([P2] section VII-A),
//                            t_se = Eq. 20 (memory parm_job_memory_mb_per_node x max N_j, links of
//                            parm_link_bandwidth_mb_s) + Eq. 21 boot time for an expand.
//                            With parm_se_cost_in_objective (ours, default) a resize option is
//                            valued at its speedup times the share of its committed window (f_se,
//                            or the rest of the run if shorter) left after its pause: [P2]'s Eq. 1
//                            has no resize cost and, as printed, resizes for any gain; under load
//                            its pauses put wSE behind noSE (ParmDirection tests, docs/reproduction.md).
//   baseline         [P2]'s SLURM-like baseline: EASY backfilling (sched/easy.cpp) on the trace
//                    node counts at full power (the top cap level), on as many nodes as the budget
//                    powers busy at that cap while the others idle (all of them when it suffices);
//                    a job wider than those nodes runs on all of them (it would never start).
//   naive            [P2] section VII-D: the same EASY with every job at parm_naive_cap_w, on as
//                    many nodes as the budget powers at that cap (on a platform of
//                    floor(budget / (cap + W_mem + W_base)) nodes, Table VI, that is all of them).
//
// Power accounting (a decision): the simulation's node power model counts every node, idle ones at
// their idle power (node_power `parm`: cpu_idle_power_w + memory + base). The ILP's budget is
// therefore power_budget_w minus the whole machine idle, and an option (n, p) costs n (busy(p) -
// idle) (Eq. 5 with W_base + W_mem moved to the idle part): total node power <= power_budget_w at
// every moment. With budget_includes_cooling, the cooling controller's power is budgeted too: the
// nodes get power_budget_w / (1 + cooling / compute) of the moment, and since a redline controller
// answers the decision's own load with a colder supply (a lower CoP, a higher ratio), the decision
// is retaken with the ratio it left until nodes + cooling fit (schedule()); the thermostat, whose
// power no decision controls, is refused. The baselines use the same accounting.
// Assumed: identical nodes (as [P2]; on mixed types the largest node power of each kind is used),
// nodes never switched off by another policy while PARM runs.
// If the running jobs cannot all fit (a cooling budget that fell), they drop to their lowest cap
// and nothing starts until they fit again.
#include "dcsweep/sched/parm.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"
#include "dcsweep/power/node_power.hpp"
#include "dcsweep/power/parm_ilp.hpp"
#include "dcsweep/power/pass_model.hpp"
#include "dcsweep/thermal/room_view.hpp"
#include "waiting_queue.hpp"

namespace dcsweep {
namespace {

enum class Scheme { baseline, naive, nomm, nose, wse };

Scheme scheme_of(const std::string& name) {
  if (name == "baseline") return Scheme::baseline;
  if (name == "naive") return Scheme::naive;
  if (name == "nomm") return Scheme::nomm;
  if (name == "nose") return Scheme::nose;
  return Scheme::wse;
}

/// The parameters, read once.
struct ParmSettings {
  Scheme scheme;
  double budget_w;
  bool budget_includes_cooling;
  std::vector<double> caps_w;  ///< ascending
  int node_levels;
  double alpha;
  double f_se_s;
  bool se_cost_in_objective;
  double link_mb_per_s;
  double memory_mb_per_node;
  std::size_t window;
  double naive_cap_w;
  double reference_cap_w;
  PassRanges ranges;
  StreamKey key;  ///< of the PASS substreams (like the runtime model's)
  ParmWorkLimit work;  ///< of each ILP solve
};

ParmSettings settings_of(const BuildContext& ctx) {
  const ParamSet& p = ctx.params;
  ParmSettings s{scheme_of(p.text("parm_scheme")),
                 p.real("power_budget_w"),
                 p.boolean("budget_includes_cooling"),
                 parm_cap_levels(p),
                 static_cast<int>(p.integer("parm_node_levels")),
                 p.real("parm_fairness_alpha"),
                 p.real("parm_se_interval_s"),
                 p.boolean("parm_se_cost_in_objective"),
                 p.real("parm_link_bandwidth_mb_s"),
                 p.real("parm_job_memory_mb_per_node"),
                 static_cast<std::size_t>(p.integer("parm_queue_window")),
                 p.real("parm_naive_cap_w"),
                 p.real("pass_reference_cap_w"),
                 {},
                 workload_stream_key(static_cast<std::uint64_t>(p.integer("workload_seed")), ctx.key)};
  s.ranges.theta_lo = p.real("parm_theta_min");
  s.ranges.theta_hi = p.real("parm_theta_max");
  s.work.search_nodes = static_cast<std::uint64_t>(p.integer("parm_search_node_limit"));
  s.work.dp_cells = static_cast<std::uint64_t>(p.integer("parm_dp_cell_limit"));
  return s;
}

/// The machine's power as the budget sees it: every node idle, and what a busy node at a cap adds.
class BudgetView {
 public:
  explicit BudgetView(const ParmSettings& s) : settings_(s) {}

  /// Watts the busy nodes may draw above idle now.
  double headroom_w(const SchedulingContext& ctx) {
    learn(ctx);
    double budget = settings_.budget_w;
    if (settings_.budget_includes_cooling) {
      const RoomView& room = ctx.room();
      const double compute = room.compute_power_w(), cooling = room.cooling_power_w();
      if (compute > 0 && cooling > 0) budget /= 1 + cooling / compute;
    }
    return budget - idle_machine_w_;
  }
  /// Nodes plus cooling draw more than the budget (budget_includes_cooling).
  bool over_budget(const SchedulingContext& ctx) const {
    const RoomView& room = ctx.room();
    return room.compute_power_w() + room.cooling_power_w() > settings_.budget_w * (1 + 1e-12) + 1e-9;
  }
  /// A busy node at `cap_w` over an idle one (>= 0).
  double marginal_w(const SchedulingContext& ctx, double cap_w) {
    learn(ctx);
    double worst = 0;
    for (const double idle : idle_by_kind_) worst = std::max(worst, busy_of(ctx, cap_w) - idle);
    return worst;
  }
  /// Nodes that can be busy at `cap_w` at once while the rest idle.
  std::int32_t pool_nodes(const SchedulingContext& ctx, double cap_w) {
    const double extra = marginal_w(ctx, cap_w), room = headroom_w(ctx);
    const std::int32_t all = ctx.machine().node_count();
    if (room < 0) return 0;
    if (extra <= 0) return all;
    return static_cast<std::int32_t>(std::min<double>(all, std::floor(room / extra * (1 + 1e-12))));
  }

 private:
  void learn(const SchedulingContext& ctx) {
    if (learned_) return;
    learned_ = true;
    const RoomView& room = ctx.room();
    for (std::int32_t n = 0; n < ctx.machine().node_count(); ++n) {
      const double idle = room.idle_power_w(n);
      idle_machine_w_ += idle;
      if (std::find(idle_by_kind_.begin(), idle_by_kind_.end(), idle) == idle_by_kind_.end()) {
        idle_by_kind_.push_back(idle);
        kind_node_.push_back(n);
      }
    }
  }
  double busy_of(const SchedulingContext& ctx, double cap_w) const {
    JobConfig config;
    config.cpu_cap_w = cap_w;
    double worst = 0;
    for (const std::int32_t n : kind_node_) worst = std::max(worst, ctx.room().busy_power_w(n, config));
    return worst;
  }

  const ParmSettings& settings_;
  bool learned_ = false;
  double idle_machine_w_ = 0;
  std::vector<double> idle_by_kind_;
  std::vector<std::int32_t> kind_node_;
};

/// The real context, seen as a pool of `pool` nodes whose jobs run at one CPU cap: what the
/// baselines' EASY schedules on. `jobs`: the jobs as the pool sees them (none wider than it).
class PoolContext final : public SchedulingContext {
 public:
  PoolContext(SchedulingContext& real, std::int32_t pool, double cap_w, std::span<const Job> jobs)
      : real_(real), pool_(pool), cap_w_(cap_w), jobs_(jobs) {}
  double now() const override { return real_.now(); }
  std::int32_t free_nodes() const override {
    return std::max(0, real_.free_nodes() - (real_.machine().node_count() - pool_));
  }
  std::span<const Job> jobs() const override { return jobs_; }
  const RunningSet& running() const override { return real_.running(); }
  bool reconfigure(JobIndex index, const JobConfig& config, double s) override { return real_.reconfigure(index, config, s); }
  const JobConfig& config(JobIndex index) const override { return real_.config(index); }
  const JobAttributes& attributes(JobIndex index) const override { return real_.attributes(index); }
  const Machine& machine() const override { return real_.machine(); }
  const RoomView& room() const override { return real_.room(); }
  NodeControl& node_control() override { return real_.node_control(); }

 protected:
  bool start_job(JobIndex index, const JobConfig& config, const StartCheck& accept) override {
    if (config.nodes_of(job(index)) > free_nodes()) return false;
    JobConfig capped = config;
    if (std::isnan(capped.cpu_cap_w)) capped.cpu_cap_w = cap_w_;
    capped.nodes = config.nodes_of(job(index));  // a clipped job runs on the pool's count
    return real_.start_if(index, capped, accept);
  }

 private:
  SchedulingContext& real_;
  std::int32_t pool_;
  double cap_w_;
  std::span<const Job> jobs_;
};

/// baseline and naive: EASY on the nodes the budget powers busy at one cap.
class BudgetEasy final : public Scheduler {
 public:
  BudgetEasy(const BuildContext& ctx, ParmSettings settings)
      : settings_(std::move(settings)),
        budget_(settings_),
        easy_(easy_scheduler_entry().make(ctx)),
        cap_w_(settings_.scheme == Scheme::naive ? settings_.naive_cap_w : settings_.caps_w.back()) {}
  void submit(JobIndex index, const SchedulingContext& ctx) override { easy_->submit(index, ctx); }
  std::size_t queued() const override { return easy_->queued(); }
  void schedule(SchedulingContext& ctx) override {
    const std::int32_t pool = budget_.pool_nodes(ctx, cap_w_);
    PoolContext view(ctx, pool, cap_w_, clipped_jobs(ctx, std::max(pool, 1)));
    easy_->schedule(view);
  }

 private:
  /// The jobs with every width above `pool` cut to it: when the budget cannot power a job's trace
  /// width at the baseline's cap (4.5 MW powers 32,581 of Intrepid's 40,960 nodes at 60 W), the
  /// job runs on all the nodes that are powered (PASS: slower) instead of never starting.
  std::span<const Job> clipped_jobs(const SchedulingContext& ctx, std::int32_t pool) {
    const std::span<const Job> jobs = ctx.jobs();
    if (clipped_.size() != jobs.size() || clipped_pool_ != pool) {
      clipped_.assign(jobs.begin(), jobs.end());
      for (Job& job : clipped_) job.nodes = std::min(job.nodes, pool);
      clipped_pool_ = pool;
    }
    return clipped_;
  }

  ParmSettings settings_;
  BudgetView budget_;
  std::unique_ptr<Scheduler> easy_;
  double cap_w_;
  std::vector<Job> clipped_;
  std::int32_t clipped_pool_ = -1;
};

/// What PARM knows of a job (from its PASS substream) and of its past.
struct JobModel {
  PassJob pass;
  std::vector<std::int64_t> levels;  ///< node counts it may run on, ascending
  std::vector<double> caps_w;        ///< cap levels it may run at, ascending
  double t_min = 1;                  ///< t(min N, min P) / T_1
  double t_ref = 1;                  ///< t(max N, reference cap) / T_1: the trace's configuration
  double last_change_s = -INFINITY;  ///< start or last shrink/expand
};

/// What resizing a running job costs it: its pause 2 t_se over its remaining work.
struct ResizeCost {
  std::int64_t from_nodes;
  double memory_mb;
  double remaining_min_s;  ///< the remaining time at (min N, min P)
  double pause_floor_s;    ///< the decision's pause as far as it is known (see decide)
};

/// One job of a decision: its options' (n, p), parallel to the ILP job's options.
struct Candidate {
  JobIndex job;
  std::vector<std::pair<std::int32_t, double>> configs;
};

class ParmScheduler final : public Scheduler {
 public:
  explicit ParmScheduler(ParmSettings settings) : settings_(std::move(settings)), budget_(settings_) {}

  void submit(JobIndex index, const SchedulingContext& ctx) override {
    queue_.push(index);
    learn(index, ctx.job(index));
    triggered_ = true;
  }
  std::size_t queued() const override { return queue_.size(); }
  void report(Report& report) const override {
    const std::vector<MetricSpec> specs = parm_metric_specs();
    report.add(specs[0], double(decisions_));
    report.add(specs[1], double(unproven_));
    report.add(specs[2], max_gap_);
  }

  void schedule(SchedulingContext& ctx) override {
    if (!triggered_ && ctx.running().size() == running_after_) return;  // no arrival, no end
    triggered_ = false;
    decide(ctx);
    // With the cooling in the budget: the decision's own load changes the cooling (a redline
    // controller answers more heat with a colder supply, a lower CoP), so the decision is taken
    // again with the ratio it left until nodes + cooling fit (the jobs it started now run and may
    // only be re-capped); the last resort is every running job at its lowest cap.
    for (int round = 0; settings_.budget_includes_cooling && budget_.over_budget(ctx); ++round) {
      if (round == kCoolingRounds) {
        drop_to_lowest_caps(ctx);
        break;
      }
      decide(ctx);
    }
    running_after_ = ctx.running().size();
  }

 private:
  void learn(JobIndex index, const Job& job);
  double weight(double remaining_min_s, double waited_s) const {
    return std::pow(std::max(0.0, remaining_min_s + waited_s), settings_.alpha);
  }
  /// `resize`: a malleable running job whose options other than its node count pay the pause.
  void add_options(ParmInstance& instance, std::vector<Candidate>& candidates, const SchedulingContext& ctx,
                   JobIndex index, std::span<const std::int64_t> node_counts, double w, bool running,
                   const std::optional<ResizeCost>& resize = std::nullopt);
  /// A resize commits the job to its new size for f_se (it cannot be resized back sooner), or
  /// for the rest of its run when that is shorter (`run_s` at the new size; f_se = 0 commits it
  /// for that too): the share of the window plus the pause that the job runs.
  double committed_share(double run_s, double pause_s) const {
    const double window = settings_.f_se_s > 0 ? std::min(settings_.f_se_s, run_s) : run_s;
    return window / (window + pause_s);
  }
  double memory_mb(JobIndex index) const {
    return settings_.memory_mb_per_node * double(models_[std::size_t(index)]->pass.max_nodes);
  }
  /// The decision's ILP; its first `running_` jobs are the running ones. `pause_floor_s`: the
  /// least pause a resize option is valued with (parm_se_cost_in_objective).
  void build(const SchedulingContext& ctx, ParmInstance& instance, std::vector<Candidate>& candidates,
             double pause_floor_s);
  void decide(SchedulingContext& ctx);
  /// 2 t_se^max over the running jobs `solution` resizes ([P2] section VII-A), 0 when none.
  double decision_pause_s(const SchedulingContext& ctx, std::span<const Candidate> candidates,
                          const ParmSolution& solution) const;
  void apply_running(SchedulingContext& ctx, std::span<const Candidate> candidates, const ParmSolution& solution);
  void start_chosen(SchedulingContext& ctx, std::span<const Candidate> candidates, const ParmSolution& solution);
  void drop_to_lowest_caps(SchedulingContext& ctx);

  static constexpr int kCoolingRounds = 20;

  ParmSettings settings_;
  BudgetView budget_;
  detail::WaitingQueue queue_;
  std::vector<std::optional<JobModel>> models_;
  bool triggered_ = false;
  std::size_t running_after_ = 0;
  std::size_t running_ = 0;  ///< running jobs in the decision under way
  std::uint64_t decisions_ = 0, unproven_ = 0;  ///< ILP solves, and those a work limit stopped
  double max_gap_ = 0;
};

void ParmScheduler::learn(JobIndex index, const Job& job) {
  if (models_.size() <= std::size_t(index)) models_.resize(std::size_t(index) + 1);
  JobModel m{sample_pass_job(settings_.key, job.id, job.nodes, settings_.ranges), {}, {}, 1, 1, -INFINITY};
  m.levels = node_levels(m.pass.min_nodes, m.pass.max_nodes, settings_.node_levels);
  for (const double cap : settings_.caps_w) {
    if (pass_admits_cap(m.pass.params, cap)) m.caps_w.push_back(cap);
  }
  if (m.caps_w.empty() || m.caps_w.back() != settings_.caps_w.back()) m.caps_w.push_back(settings_.caps_w.back());
  m.t_min = m.pass.time_fraction(double(m.pass.min_nodes), m.caps_w.front());
  m.t_ref = m.pass.time_fraction(double(m.pass.max_nodes), settings_.reference_cap_w);
  models_[std::size_t(index)] = std::move(m);
}

void ParmScheduler::add_options(ParmInstance& instance, std::vector<Candidate>& candidates,
                                const SchedulingContext& ctx, JobIndex index, std::span<const std::int64_t> node_counts,
                                double w, bool running, const std::optional<ResizeCost>& resize) {
  const JobModel& m = *models_[std::size_t(index)];
  ParmJob ilp_job{{}, running};
  Candidate candidate{index, {}};
  for (const std::int64_t n : node_counts) {
    // The pause a resize to n costs (the decision's 2 t_se^max is at least the job's own 2 t_se).
    const double pause_s =
        resize && n != resize->from_nodes
            ? std::max(resize->pause_floor_s,
                       2 * shrink_expand_time_s(resize->memory_mb, resize->from_nodes, n, settings_.link_mb_per_s))
            : 0.0;
    for (const double cap : m.caps_w) {
      double speedup = m.t_min / m.pass.time_fraction(double(n), cap);  // Eq. 7
      if (pause_s > 0) speedup *= committed_share(resize->remaining_min_s / speedup, pause_s);
      ilp_job.options.push_back({n, budget_.marginal_w(ctx, cap), w * speedup});
      candidate.configs.emplace_back(static_cast<std::int32_t>(n), cap);
    }
  }
  instance.jobs.push_back(std::move(ilp_job));
  candidates.push_back(std::move(candidate));
}

void ParmScheduler::build(const SchedulingContext& ctx, ParmInstance& instance, std::vector<Candidate>& candidates,
                          double pause_floor_s) {
  const double now = ctx.now();
  instance.node_static_w = 0;  // the options carry each node's power above idle (see the top)
  instance.power_budget_w = std::max(0.0, budget_.headroom_w(ctx));
  instance.node_capacity = ctx.free_nodes();
  std::vector<EstimatedEnd> running(ctx.running().begin(), ctx.running().end());
  std::sort(running.begin(), running.end(), [](const EstimatedEnd& a, const EstimatedEnd& b) { return a.job < b.job; });
  running_ = running.size();
  for (const EstimatedEnd& end : running) {
    const JobModel& m = *models_[std::size_t(end.job)];
    const JobConfig& config = ctx.config(end.job);
    const std::int64_t n = config.nodes_of(ctx.job(end.job));
    instance.node_capacity += n;
    const double remaining = std::max(0.0, end.time_s - now) * m.t_min / m.pass.time_fraction(double(n), config.cpu_cap_w);
    const bool malleable = settings_.scheme == Scheme::wse && now - m.last_change_s >= settings_.f_se_s;
    const std::int64_t pinned[] = {n};
    std::optional<ResizeCost> resize;
    if (malleable && settings_.se_cost_in_objective) resize = ResizeCost{n, memory_mb(end.job), remaining, pause_floor_s};
    add_options(instance, candidates, ctx, end.job,
                malleable ? std::span<const std::int64_t>(m.levels) : std::span<const std::int64_t>(pinned),
                weight(remaining, now - ctx.job(end.job).submit_s), true, resize);
  }
  const std::size_t window = settings_.window == 0 ? queue_.size() : std::min(queue_.size(), settings_.window);
  for (std::size_t i = 0; i < window; ++i) {
    const JobIndex index = queue_[i];
    const Job& job = ctx.job(index);
    const JobModel& m = *models_[std::size_t(index)];
    const std::int64_t least[] = {m.pass.min_nodes};
    add_options(instance, candidates, ctx, index,
                settings_.scheme == Scheme::nomm ? std::span<const std::int64_t>(least)
                                                 : std::span<const std::int64_t>(m.levels),
                weight(job.estimate_s * m.t_min / m.t_ref, now - job.submit_s), false);
  }
}

// With parm_se_cost_in_objective, a resize option is first valued with the job's own pause; when
// the solution's pause 2 t_se^max (one expand's boot time makes every resize of the decision wait)
// is longer than what some chosen resize was valued with, the ILP is solved again with every
// resize valued with at least that pause. The floor rises strictly and only takes the options'
// pauses, so this ends; the solution kept pays no pause longer than its resizes were valued with.
void ParmScheduler::decide(SchedulingContext& ctx) {
  const bool priced = settings_.scheme == Scheme::wse && settings_.se_cost_in_objective;
  double pause_floor_s = 0;
  for (;;) {
    ParmInstance instance;
    std::vector<Candidate> candidates;
    build(ctx, instance, candidates, pause_floor_s);
    const ParmSolution solution = solve_parm_ilp(instance, settings_.work);
    decisions_ += 1;
    if (!solution.proven) unproven_ += 1, max_gap_ = std::max(max_gap_, solution.gap());
    if (!solution.feasible) return drop_to_lowest_caps(ctx);
    const double pause_s = priced ? decision_pause_s(ctx, candidates, solution) : 0.0;
    if (pause_s > pause_floor_s) {
      pause_floor_s = pause_s;
      continue;
    }
    apply_running(ctx, candidates, solution);
    return start_chosen(ctx, candidates, solution);
  }
}

double ParmScheduler::decision_pause_s(const SchedulingContext& ctx, std::span<const Candidate> candidates,
                                       const ParmSolution& solution) const {
  double t_se_max = 0;
  for (std::size_t k = 0; k < running_; ++k) {
    const JobIndex index = candidates[k].job;
    const std::int32_t n = candidates[k].configs[std::size_t(solution.choice[k])].first;
    const std::int32_t from = ctx.config(index).nodes_of(ctx.job(index));
    if (n != from) t_se_max = std::max(t_se_max, shrink_expand_time_s(memory_mb(index), from, n, settings_.link_mb_per_s));
  }
  return 2 * t_se_max;
}

/// Re-caps, shrinks and expands the running jobs as chosen: every change that frees nodes first.
void ParmScheduler::apply_running(SchedulingContext& ctx, std::span<const Candidate> candidates,
                                  const ParmSolution& solution) {
  struct Change {
    JobIndex job;
    JobConfig config;
    std::int32_t from_nodes;
  };
  std::vector<Change> changes;
  for (std::size_t k = 0; k < running_; ++k) {
    const JobIndex index = candidates[k].job;
    const auto [n, cap] = candidates[k].configs[std::size_t(solution.choice[k])];
    const JobConfig& now_config = ctx.config(index);
    const std::int32_t from = now_config.nodes_of(ctx.job(index));
    if (n == from && cap == now_config.cpu_cap_w) continue;
    JobConfig next = now_config;
    next.nodes = n;
    next.cpu_cap_w = cap;
    changes.push_back({index, next, from});
  }
  const double pause_s = decision_pause_s(ctx, candidates, solution);
  std::stable_partition(changes.begin(), changes.end(), [](const Change& c) { return c.config.nodes <= c.from_nodes; });
  for (const Change& c : changes) {
    const bool resized = c.config.nodes != c.from_nodes;
    if (ctx.reconfigure(c.job, c.config, resized ? pause_s : 0.0)) {
      if (resized) models_[std::size_t(c.job)]->last_change_s = ctx.now();
      continue;
    }
    JobConfig capped = ctx.config(c.job);  // an expand the allocator refused: the cap alone (less power)
    capped.cpu_cap_w = c.config.cpu_cap_w;
    ctx.reconfigure(c.job, capped, 0.0);
  }
}

void ParmScheduler::start_chosen(SchedulingContext& ctx, std::span<const Candidate> candidates,
                                 const ParmSolution& solution) {
  std::vector<std::size_t> started;  // queue positions
  for (std::size_t k = running_; k < candidates.size(); ++k) {
    if (solution.choice[k] == ParmSolution::kNone) continue;
    const auto [n, cap] = candidates[k].configs[std::size_t(solution.choice[k])];
    JobConfig config;
    config.nodes = n;
    config.cpu_cap_w = cap;
    if (!ctx.start(candidates[k].job, config)) continue;
    models_[std::size_t(candidates[k].job)]->last_change_s = ctx.now();
    started.push_back(k - running_);
  }
  queue_.erase_positions(started);
}

void ParmScheduler::drop_to_lowest_caps(SchedulingContext& ctx) {
  std::vector<JobIndex> running;
  for (const EstimatedEnd& end : ctx.running()) running.push_back(end.job);
  for (const JobIndex index : running) {
    JobConfig lowest = ctx.config(index);
    lowest.cpu_cap_w = models_[std::size_t(index)]->caps_w.front();
    ctx.reconfigure(index, lowest, 0.0);
  }
}

// The work limits' defaults (docs/performance.md, PARM: what they cost and how many decisions they leave unproven).
constexpr std::int64_t kParmSearchNodes = 2'000'000;
constexpr std::int64_t kParmDpCells = 2'000'000'000;

ParamSpec watts(std::string name, double fallback, std::string help) {
  return real_param(std::move(name), "W", fallback, 0, 1.0e12, std::move(help), true);
}

std::vector<ParamSpec> parm_params() {
  return {
      {.name = "parm_scheme", .type = ParamType::choice, .default_value = std::string("wse"),
       .choices = {"nomm", "nose", "wse", "baseline", "naive"},
       .help = "[P2] nomm: fixed node counts (min N_j), caps chosen; nose: moldable at start; wse: also shrink/expand "
               "running jobs; baseline: EASY at the trace's node counts at full power; naive: EASY with every job "
               "at parm_naive_cap_w"},
      watts("power_budget_w", 4751360.0,
            "[P2] W_max: the nodes' total power (idle ones included) never exceeds it; Intrepid: 116 W x 40,960"),
      {.name = "budget_includes_cooling", .type = ParamType::boolean, .default_value = false,
       .help = "parm: power_budget_w also pays the cooling controller's power (nodes get budget / (1 + "
               "cooling / compute) of the moment)"},
      {.name = "parm_cpu_caps_w", .type = ParamType::text, .unit = "W", .default_value = std::string("30,33,36,44,50,60"),
       .help = "CPU power cap levels P_j, comma-separated ([P2] Intrepid projection: 30,33,36,44,50,60)"},
      {.name = "parm_node_levels", .type = ParamType::integer, .default_value = std::int64_t{8}, .min = 1, .max = 64,
       .help = "node counts offered per job, spread over [min N_j, max N_j] ([P2]: |N_j| = 8)"},
      {.name = "parm_theta_min", .type = ParamType::real, .default_value = 0.2, .min = 0, .max = 1, .min_open = true,
       .help = "min N_j = theta max N_j, theta uniform on [parm_theta_min, parm_theta_max] ([P2]: 0.2-0.6)"},
      {.name = "parm_theta_max", .type = ParamType::real, .default_value = 0.6, .min = 0, .max = 1, .min_open = true,
       .help = "upper end of theta's range (see parm_theta_min)"},
      {.name = "parm_fairness_alpha", .type = ParamType::real, .default_value = 1.0, .min = 0, .max = 10,
       .help = "alpha of w_j = (t_rem + t_now - t_arrival)^alpha ([P2] Eq. 8; not printed for Table V: 1 assumed)"},
      {.name = "parm_se_interval_s", .type = ParamType::real, .unit = "s", .default_value = 500.0, .min = 0,
       .max = 1.0e9, .help = "f_se: a job shrinks or expands at most once per this long ([P2]: 500 s)"},
      {.name = "parm_se_cost_in_objective", .type = ParamType::boolean, .default_value = true,
       .help = "wse: a running job's shrink/expand option is valued at its speedup over its remaining work with "
               "its own pause 2 t_se (ours: [P2] Eq. 1 has no resize cost; false: as printed, a resize for any "
               "gain however small)"},
      {.name = "parm_link_bandwidth_mb_s", .type = ParamType::real, .unit = "MB/s", .default_value = 425.0, .min = 0,
       .max = 1.0e9, .min_open = true,
       .help = "b of Eq. 20, per torus link (Blue Gene/P: 425 MB/s per link and direction)"},
      {.name = "parm_job_memory_mb_per_node", .type = ParamType::real, .unit = "MB", .default_value = 1024.0,
       .min = 0, .max = 1.0e9,
       .help = "a job's memory m_j of Eq. 20 is this x its trace node count (assumed; BG/P nodes have 2 GB)"},
      {.name = "parm_queue_window", .type = ParamType::integer, .default_value = std::int64_t{200}, .min = 0,
       .max = 1.0e9,
       .help = "queued jobs (oldest first) a decision considers; 0: all ([P2]: up to 200 per ILP)"},
      watts("parm_naive_cap_w", 30.0, "parm_scheme = naive: the one CPU cap of every job ([P2] Table VI: 30-60 W)"),
      {.name = "parm_search_node_limit", .type = ParamType::integer, .default_value = std::int64_t{kParmSearchNodes},
       .min = 1, .max = 1.0e15,
       .help = "branch-and-bound nodes one decision may spend, every phase counted; past it the best choice found "
               "is taken (parm_decisions_unproven, parm_max_gap). A count, not seconds: results do not depend on "
               "the machine"},
      {.name = "parm_dp_cell_limit", .type = ParamType::integer, .default_value = std::int64_t{kParmDpCells},
       .min = 1, .max = 1.0e15,
       .help = "dynamic-programming cell updates one decision may spend (the node-row DP, power/parm_ilp.cpp "
               "section 6); past it, as parm_search_node_limit"},
  };
}

}  // namespace

std::vector<double> parm_cap_levels(const ParamSet& params) {
  const std::string& text = params.text("parm_cpu_caps_w");
  std::vector<double> levels;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) {
    const std::string value(trim_blanks(item));
    std::size_t used = 0;
    double cap = NAN;
    try {
      cap = std::stod(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (value.empty() || used != value.size() || !(cap > 0) || !std::isfinite(cap)) {
      throw InputError("parameter 'parm_cpu_caps_w': '" + value + "' is not a positive number of watts (in '" + text +
                       "')");
    }
    levels.push_back(cap);
  }
  if (levels.empty()) throw InputError("parameter 'parm_cpu_caps_w': no CPU cap levels (give e.g. 30,33,36,44,50,60)");
  std::sort(levels.begin(), levels.end());
  levels.erase(std::unique(levels.begin(), levels.end()), levels.end());
  return levels;
}

void parm_check_params(const ParamSet& params) {
  if (params.text("scheduler") != "parm") return;
  parm_cap_levels(params);
  if (params.real("parm_theta_min") > params.real("parm_theta_max")) {
    throw InputError("parameter 'parm_theta_min': " + format_number(params.real("parm_theta_min")) +
                     " is above parm_theta_max = " + format_number(params.real("parm_theta_max")));
  }
  if (params.boolean("budget_includes_cooling") && params.text("cooling") == "thermostat") {
    throw InputError("parameter 'budget_includes_cooling': the thermostat's cooling power follows its mode and the "
                     "room's temperature, not the scheduler's decisions, so no decision can keep it in "
                     "power_budget_w (use cooling = redline or static)");
  }
  if (params.text("runtime_model") != "pass") {
    throw InputError("parameter 'runtime_model': scheduler 'parm' plans with the PASS model, so jobs must run by it "
                     "(runtime_model = pass, not '" + params.text("runtime_model") + "')");
  }
}

void parm_check_platform(const ParamSet& params, const Platform& platform) {
  if (params.text("scheduler") != "parm") return;
  const auto power = make_node_power(params, platform, {});
  if (!power || std::any_of(power->begin(), power->end(), [](const TypePower& t) { return std::isnan(t.cap_offset_w); })) {
    throw InputError("scheduler 'parm' needs CPU power caps: node_power 'parm' (platform '" + platform.name +
                     "' runs '" + params.text("node_power") + "')");
  }
  double idle = 0;
  for (std::int32_t n = 0; n < platform.node_count; ++n) {
    idle += (*power)[platform.node_type.empty() ? 0 : platform.node_type[std::size_t(n)]].idle_w;
  }
  const double budget = params.real("power_budget_w");
  if (budget < idle) {
    throw InputError("parameter 'power_budget_w': " + format_number(budget) + " W is below the idle power of platform '" +
                     platform.name + "' (" + format_number(idle) + " W for " + std::to_string(platform.node_count) +
                     " nodes)");
  }
}

std::vector<MetricSpec> parm_metric_specs() {
  return {{"parm_decisions", "", "parm: ILP solves (a trigger solves again for a resize pause or the cooling's share)"},
          {"parm_decisions_unproven", "",
           "parm: ILP solves stopped by parm_search_node_limit or parm_dp_cell_limit before the optimum was proven"},
          {"parm_max_gap", "",
           "parm: largest relative gap (bound - value) / bound of a decision's choice (0: every decision proven)"}};
}

SchedulerRegistry::Entry parm_scheduler_entry() {
  return {"parm",
          "[P2] PARM: at each arrival or end, the ILP of Eq. 1-6 picks each job's node count and CPU cap within "
          "power_budget_w (parm_scheme nomm | nose | wse), or the baselines (baseline, naive: EASY under the budget)",
          parm_params(),
          [](const BuildContext& ctx) -> std::unique_ptr<Scheduler> {
            ParmSettings settings = settings_of(ctx);
            if (settings.scheme == Scheme::baseline || settings.scheme == Scheme::naive) {
              return std::make_unique<BudgetEasy>(ctx, std::move(settings));
            }
            return std::make_unique<ParmScheduler>(std::move(settings));
          }};
}

}  // namespace dcsweep
