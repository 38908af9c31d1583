// The bqp allocator's gap report and decision time (issue 9).
// 1. Replays every point of the [P0] spec (inputs/specs/meng-p0-dynamic.toml, or --spec: its
//    points as `dcsweep run` simulates them, same parameters and streams): at every decision the
//    heuristic and the exact solve of the same problem; the run continues on the exact choice, as
//    the allocator does on meng40. Prints per weighting the heuristic's gap (cost - exact) /
//    exact, mean and max, and the solve times, and at the joint weighting's decisions what each
//    term of Eq. 11 contributes (the automatic scales' "equal contribution"). Then the same gap on
//    a generated 60-node room (Poisson, 10 queues; the exact solve is still fast there).
// 2. The heuristic alone (bqp_exact_max_nodes = 0) on a generated 1,000-node room (10 x 10 x 10),
//    Poisson load of about half the room: median time of the whole allocate() call.
//   bench_bqp [--spec FILE] [--queues Q] [--rate-1000 R]   (run from the source tree's root)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>

#include "bench_util.hpp"
#include "dcsweep/alloc/bqp.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "dcsweep/sweep/grid.hpp"

namespace dcsweep {
namespace {

using Clock = std::chrono::steady_clock;

/// The two terms of Eq. 11 for one decision (weights included): communication, cooling.
struct Terms {
  double comm = 0, cool = 0;
};

Terms terms(const BqpProblem& p, const std::vector<std::int32_t>& chosen) {
  Terms t{p.pair_weight * double(p.pair_hops(chosen)), 0};
  for (const std::int32_t k : chosen) t.cool += p.linear[std::size_t(k)];
  return t;
}

/// The terms' expected values for `pick` candidates chosen uniformly at random.
Terms random_terms(const BqpProblem& p) {
  double hops = 0, linear = 0;
  for (std::int32_t a = 0; a < p.size(); ++a) {
    linear += p.linear[std::size_t(a)];
    for (std::int32_t b = a + 1; b < p.size(); ++b) hops += p.hops(a, b);
  }
  const double m = p.size(), n = p.pick;
  const double pairs = m > 1 ? hops / (m * (m - 1) / 2) : 0;
  return {p.pair_weight * pairs * n * (n - 1) / 2, linear / m * n};
}

struct Stats {
  std::vector<double> gap, exact_s, heuristic_s;
  /// Per decision, sums: the terms of random nodes, of the chosen nodes, and each term's swing
  /// between the two single-term optima (comm: cooling optimum - communication optimum).
  Terms random, chosen, swing;
  bool contributions = false;  ///< record the sums above (extra exact solves per decision)
};

/// Solves every decision both ways; allocates the exact choice.
class GapRecorder final : public Allocator {
 public:
  GapRecorder(const Scenario& s, Stats& stats) : model_(s.platform, bqp_settings(s.params)), stats_(stats) {}

  bool allocate(const AllocationRequest& r, std::vector<NodeId>& out) override {
    const BqpProblem p = model_.problem(r, candidates_);
    auto t0 = Clock::now();
    const std::vector<std::int32_t> h = bqp_solve_heuristic(p);
    stats_.heuristic_s.push_back(bench::seconds_since(t0));
    t0 = Clock::now();
    const std::vector<std::int32_t> x = bqp_solve_exact(p, h);
    stats_.exact_s.push_back(bench::seconds_since(t0));
    const double exact = p.cost(x), heuristic = p.cost(h);
    stats_.gap.push_back(heuristic > exact ? (heuristic - exact) / std::abs(exact) : 0.0);
    if (stats_.contributions) record_terms(p, x);
    for (const std::int32_t k : x) out.push_back(candidates_[std::size_t(k)]);
    return true;
  }

 private:
  void record_terms(const BqpProblem& p, const std::vector<std::int32_t>& x) {
    BqpProblem comm_only = p, cool_only = p;
    comm_only.linear.assign(p.linear.size(), 0.0);
    cool_only.pair_weight = 0;
    const Terms at_comm = terms(p, bqp_solve_exact(comm_only)), at_cool = terms(p, bqp_solve_exact(cool_only));
    const Terms random = random_terms(p), chosen = terms(p, x);
    stats_.random.comm += random.comm, stats_.random.cool += random.cool;
    stats_.chosen.comm += chosen.comm, stats_.chosen.cool += chosen.cool;
    stats_.swing.comm += at_cool.comm - at_comm.comm, stats_.swing.cool += at_comm.cool - at_cool.cool;
  }

  BqpModel model_;
  Stats& stats_;
  std::vector<NodeId> candidates_;
};

/// Times the registry's allocator.
class Timer final : public Allocator {
 public:
  Timer(const Scenario& s, std::vector<double>& times)
      : real_(allocator_registry().at("bqp").make(BuildContext{s.params, s.key}, s.platform)), times_(times) {}
  bool allocate(const AllocationRequest& r, std::vector<NodeId>& out) override {
    const auto t0 = Clock::now();
    const bool ok = real_->allocate(r, out);
    times_.push_back(bench::seconds_since(t0));
    return ok;
  }

 private:
  std::unique_ptr<Allocator> real_;
  std::vector<double>& times_;
};

Scenario scenario(const std::map<std::string, ParamValue>& values, std::uint64_t queue) {
  ParamSet p(simulation_catalog());
  p.set("workload", std::string("poisson"));
  p.set("allocator", std::string("bqp"));
  for (const auto& [name, value] : values) p.set(name, value);
  return make_scenario(p, queue);
}

void run(const Scenario& s, Allocator& allocator) {
  auto physics = make_datacenter_model(s);
  SimObserver* observers[] = {physics.get()};
  SimulationOptions options{observers, physics.get()};
  options.allocator = &allocator;
  simulate(s, options);
}

double mean(const std::vector<double>& v) {
  double sum = 0;
  for (const double x : v) sum += x;
  return v.empty() ? 0 : sum / double(v.size());
}

double max_of(const std::vector<double>& v) { return v.empty() ? 0 : *std::max_element(v.begin(), v.end()); }

void print_policy(const char* name, const Stats& stats) {
  std::printf("  %-24s %4zu decisions: gap mean %.3f%% max %.3f%%; exact median %.3f ms max %.1f ms; heuristic median "
              "%.3f ms\n",
              name, stats.gap.size(), 100 * mean(stats.gap), 100 * max_of(stats.gap), 1e3 * bench::median(stats.exact_s),
              1e3 * max_of(stats.exact_s), 1e3 * bench::median(stats.heuristic_s));
  if (!stats.contributions || stats.gap.empty()) return;
  const double d = double(stats.gap.size());
  std::printf("    terms of Eq. 11, means over its decisions (alpha' comm / beta' cool): random nodes %.2f / %.2f; "
              "chosen %.2f / %.2f; swing between the single-term optima %.2f / %.2f\n",
              stats.random.comm / d, stats.random.cool / d, stats.chosen.comm / d, stats.chosen.cool / d,
              stats.swing.comm / d, stats.swing.cool / d);
}

void print_all(const std::vector<Stats>& policies) {
  Stats all;
  for (const Stats& stats : policies) {
    for (auto v : {&Stats::gap, &Stats::exact_s, &Stats::heuristic_s}) (all.*v).insert((all.*v).end(), (stats.*v).begin(), (stats.*v).end());
  }
  std::printf("  all %zu decisions: heuristic gap mean %.3f%% max %.3f%% (targets 1%%, 5%%)\n", all.gap.size(),
              100 * mean(all.gap), 100 * max_of(all.gap));
}

/// Every point of the spec at `path`, simulated as `dcsweep run` does (same parameters, streams).
void spec_gap_report(const std::string& path) {
  const SweepSpec spec = read_spec(path, simulation_catalog());
  const Grid grid(spec, simulation_catalog());
  std::printf("%s: %llu points\n", path.c_str(), static_cast<unsigned long long>(grid.size()));
  std::vector<std::pair<std::string, Stats>> policies;  // by weighting, in the spec's order
  for (std::uint64_t flat = 0; flat < grid.size(); ++flat) {
    const ParamSet params = grid.params(flat);
    const double alpha = params.real("alpha"), beta = params.real("beta");
    char name[64];
    std::snprintf(name, sizeof name, "alpha %g beta %g", alpha, beta);
    auto it = std::find_if(policies.begin(), policies.end(), [&](const auto& p) { return p.first == name; });
    if (it == policies.end()) it = policies.insert(policies.end(), {name, Stats{}});
    it->second.contributions = alpha > 0 && beta > 0;
    const Scenario s = make_scenario(params, flat, grid.replicate(flat));
    GapRecorder recorder(s, it->second);
    run(s, recorder);
  }
  std::vector<Stats> all;
  for (const auto& [name, stats] : policies) {
    print_policy(name.c_str(), stats);
    all.push_back(stats);
  }
  print_all(all);
}

/// `room`: the platform's parameters (a generated room with a proportionally higher rate).
void gap_report(int queues, const std::map<std::string, ParamValue>& room, const char* title) {
  std::printf("%s: %d queues of 40 Poisson jobs (1-16 nodes, 1-20 min)\n", title, queues);
  std::vector<Stats> policies;
  for (const auto& [name, alpha, beta] : {std::tuple{"performance-aware", 1.0, 0.0}, std::tuple{"joint", 0.5, 0.5},
                                          std::tuple{"cooling-aware", 0.0, 1.0}}) {
    Stats stats;
    for (int q = 0; q < queues; ++q) {
      std::map<std::string, ParamValue> values = room;
      values["alpha"] = alpha;
      values["beta"] = beta;
      const Scenario s = scenario(values, std::uint64_t(q));
      GapRecorder recorder(s, stats);
      run(s, recorder);
    }
    print_policy(name, stats);
    policies.push_back(stats);
  }
  print_all(policies);
}

/// The exact solve's hardest meng40 decisions: every node free, n = 4 .. 20, each weighting, from
/// the heuristic's choice (as the allocator runs it) and from nothing.
void empty_room_exact() {
  std::printf("exact solve on an empty meng40 (from the heuristic's choice / from nothing), ms:\n");
  for (const auto& [alpha, beta] : {std::pair{1.0, 0.0}, std::pair{0.5, 0.5}, std::pair{0.0, 1.0}}) {
    const Scenario s = scenario({{"platform", std::string("meng40")}, {"alpha", alpha}, {"beta", beta}}, 0);
    auto physics = make_datacenter_model(s);
    BqpModel model(s.platform, bqp_settings(s.params));
    const Machine machine(s.platform.node_count);
    std::printf("  alpha %.1f beta %.1f:", alpha, beta);
    for (std::int32_t n = 4; n <= 20; n += 4) {
      const Job job{0, 0, 1, 1, n};
      const JobConfig config;
      const JobAttributes attributes;
      std::vector<NodeId> candidates;
      const BqpProblem p = model.problem(AllocationRequest{job, n, config, attributes, machine, *physics, 0}, candidates);
      auto t0 = Clock::now();
      const std::vector<std::int32_t> h = bqp_solve_heuristic(p);
      bqp_solve_exact(p, h);
      const double warm = bench::seconds_since(t0);
      t0 = Clock::now();
      bqp_solve_exact(p);
      std::printf("  n=%d %.1f/%.1f", n, 1e3 * warm, 1e3 * bench::seconds_since(t0));
    }
    std::printf("\n");
  }
}

const std::map<std::string, ParamValue> kRoom1000{
    {"platform", std::string("room")}, {"room_rows", std::int64_t{10}}, {"room_racks_per_row", std::int64_t{10}},
    {"room_nodes_per_rack", std::int64_t{10}}, {"bqp_exact_max_nodes", std::int64_t{0}}};

/// Larger jobs on the 1,000-node room, empty and with a seeded random half busy: one decision each.
void room_large_jobs() {
  const Scenario s = scenario(kRoom1000, 0);
  auto physics = make_datacenter_model(s);
  Machine half(s.platform.node_count);
  RngStream rng({42, 0, 0}, StreamPurpose::allocator);
  std::vector<NodeId> busy;
  for (NodeId n = 0; n < s.platform.node_count; ++n) {
    if (rng.uniform01() < 0.5) busy.push_back(n);
  }
  half.occupy(busy);
  const Machine empty(s.platform.node_count);
  std::printf("one heuristic decision on the 1,000-node room (empty / half busy), ms:");
  for (const std::int32_t n : {16, 64, 256, 400}) {
    const auto allocator = allocator_registry().at("bqp").make(BuildContext{s.params, s.key}, s.platform);
    const Job job{0, 0, 1, 1, n};
    const JobConfig config;
    const JobAttributes attributes;
    std::printf("  n=%d", n);
    for (const Machine* m : {&empty, static_cast<const Machine*>(&half)}) {
      std::vector<NodeId> out;
      const auto t0 = Clock::now();
      allocator->allocate(AllocationRequest{job, n, config, attributes, *m, *physics, 0}, out);
      std::printf("%s%.1f", m == &empty ? " " : "/", 1e3 * bench::seconds_since(t0));
    }
  }
  std::printf("\n");
}

void room_timing(double rate_per_h) {
  std::map<std::string, ParamValue> values = kRoom1000;
  values["poisson_rate_per_h"] = rate_per_h;
  values["poisson_jobs"] = std::int64_t{400};
  std::vector<double> times;
  const Scenario s = scenario(values, 0);
  Timer timer(s, times);
  run(s, timer);
  std::printf("generated room 10 x 10 x 10 (1,000 nodes), %zu heuristic decisions (1-16 nodes, %.0f jobs/h): median %.3f "
              "ms, max %.3f ms (target median 10 ms)\n",
              times.size(), rate_per_h, 1e3 * bench::median(times), 1e3 * max_of(times));
}

}  // namespace
}  // namespace dcsweep

static int run_bench(int argc, char** argv) {
  int queues = 10;
  double rate = 340;  // about 500 busy nodes: 340/h x 8.5 nodes x 630 s
  std::string spec = "inputs/specs/meng-p0-dynamic.toml";
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--queues") queues = std::stoi(argv[i + 1]);
    if (arg == "--rate-1000") rate = std::stod(argv[i + 1]);
    if (arg == "--spec") spec = argv[i + 1];
  }
  using dcsweep::ParamValue;
  try {
    dcsweep::spec_gap_report(spec);
  } catch (const dcsweep::InputError& e) {
    std::fprintf(stderr, "bench_bqp: %s\n", e.what());
    return 2;
  }
  dcsweep::gap_report(queues,
                      {{"platform", std::string("room")}, {"room_rows", std::int64_t{2}},
                       {"room_racks_per_row", std::int64_t{5}}, {"room_nodes_per_rack", std::int64_t{6}},
                       {"poisson_rate_per_h", 30.0}, {"bqp_exact_max_nodes", std::int64_t{60}}},
                      "the same on a generated 2 x 5 x 6 room (60 nodes, 30 jobs/h)");
  dcsweep::empty_room_exact();
  dcsweep::room_timing(rate);
  dcsweep::room_large_jobs();
  return 0;
}

int main(int argc, char** argv) { return dcsweep::bench::guarded_main("bench_bqp", argc, argv, run_bench); }
