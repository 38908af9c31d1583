#include "dcsweep/ratebased/genetic.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "dcsweep/core/error.hpp"
#include "dcsweep/ratebased/bound.hpp"
#include "dcsweep/ratebased/configurations.hpp"
#include "dcsweep/ratebased/greedy.hpp"

namespace dcsweep {
namespace {

using Clock = std::chrono::steady_clock;

struct Chromosome {
  Allocation a;
  double fitness = -std::numeric_limits<double>::infinity();
  double watt_price = 0;  ///< the node step's price of a watt (self-adapted; GaOptions::node_steps)
};

/// The allowed P-states of each (task, node table), as Eq. 10 leaves them.
class StateMenu {
 public:
  explicit StateMenu(const RateInstance& in) : tables_(std::int32_t(in.tables.types.size())) {
    states_.resize(std::size_t(in.tasks()) * std::size_t(tables_));
    for (std::int32_t i = 0; i < in.tasks(); ++i) {
      for (std::int32_t t = 0; t < tables_; ++t) {
        for (std::int32_t p = 0; p < in.off_state(t); ++p) {
          if (in.allowed(i, t, p)) states_[std::size_t(i * tables_ + t)].push_back(std::int16_t(p));
        }
      }
    }
  }
  const std::vector<std::int16_t>& of(std::int32_t task, std::int32_t table) const {
    return states_[std::size_t(task * tables_ + table)];
  }

 private:
  std::int32_t tables_;
  std::vector<std::vector<std::int16_t>> states_;
};

/// The next allowed state after `p` (slower), or off.
std::int16_t slower(const RateInstance& in, const StateMenu& menu, std::int32_t task, std::int32_t table, std::int16_t p) {
  for (const std::int16_t s : menu.of(task, table)) {
    if (s > p) return s;
  }
  return std::int16_t(in.off_state(table));
}

/// The next allowed state before `p` (faster; from off, the slowest allowed), or `p` itself.
std::int16_t faster(const StateMenu& menu, std::int32_t task, std::int32_t table, std::int16_t p) {
  const auto& states = menu.of(task, table);
  for (auto s = states.rbegin(); s != states.rend(); ++s) {
    if (*s < p) return *s;
  }
  return p;
}

/// The node step (GaOptions::node_steps): re-plans one node at a time as its best whole-core
/// configuration (configurations.hpp) given every other node, for the objective itself:
///   sum_i r_i min(R_i without the node + the node's rate of i, lambda_i) - watt_price x its core power,
/// each task of a configuration at the allowed P-state that maximizes its own term (the objective's
/// rates: CER for rr, ER for nerr). A new plan is kept only when it earns more and the room still
/// meets both constraints (RoomLoad).
class NodePlanner {
 public:
  NodePlanner(const RateInstance& in, RateObjective objective)
      : in_(in), objective_(objective), configurations_(room_configurations(in)) {
    // Per configuration entry, its cores' (rate, power) at each hull state, APC ascending.
    for (const NodeConfigurations& set : configurations_.sets) {
      std::vector<std::vector<std::int32_t>> hull;
      for (std::int32_t i = 0; i < in.tasks(); ++i) hull.push_back(rate_hull_states(in, i, set.table()));
      Options& options = options_.emplace_back();
      for (const NodeConfigurations::Entry* e = set.begin(0); e != set.end(set.size() - 1); ++e) {
        const double factor = objective == RateObjective::rr ? e->factor : 1.0;
        for (const std::int32_t p : hull[std::size_t(e->task)]) {
          options.all.push_back({e->cores * factor * in.tables.ecs(e->task, set.table(), p),
                                 e->cores * in.tables.apc(e->task, set.table(), p), std::int16_t(p)});
        }
        options.first.push_back(std::int32_t(options.all.size()));
      }
    }
  }

  /// `steps` nodes drawn at random, each re-planned; `room` holds the allocation's zone powers.
  void improve(Allocation& a, RoomLoad& room, std::int32_t steps, double watt_price, RngStream& rng) const {
    const auto width = static_cast<std::size_t>(in_.tasks());
    Work w;
    for (std::vector<double>* v : {&w.rate, &w.naive, &w.own, &w.own_naive, &w.base, &w.before}) v->assign(width, 0.0);
    w.state.resize(width);
    for (std::int32_t j = 0; j < in_.nodes(); ++j) add_node_rates(in_, a, j, w.rate, &w.naive);
    // Every other step re-plans a node that runs something (one drawn from those that did at the
    // start or became busy since), the others any node: where few nodes run anything (a budget
    // that binds), random nodes would seldom be ones that can give power back.
    std::vector<std::int32_t> busy;
    for (std::int32_t j = 0; j < in_.nodes(); ++j) {
      if (runs_anything(a, j)) busy.push_back(j);
    }
    for (std::int32_t s = 0; s < steps && in_.nodes() > 0; ++s) {
      const auto j = s % 2 == 1 && !busy.empty() ? busy[std::size_t(rng.integer(0, std::int64_t(busy.size()) - 1))]
                                                 : std::int32_t(rng.integer(0, in_.nodes() - 1));
      const bool was_busy = runs_anything(a, j);
      if (replan(a, room, j, watt_price, w) && !was_busy) busy.push_back(j);
    }
  }

 private:
  /// improve()'s running totals (all nodes' CER and ER per task) and per-step scratch.
  struct Work {
    std::vector<double> rate, naive;
    std::vector<double> own, own_naive;  ///< the node's own rates
    std::vector<double> base, before;    ///< the objective's rates without the node; their reward terms
    std::vector<std::int16_t> state;     ///< per task: the state the plan runs it at
  };

  /// Node j's best plan (see the class comment), laid out in `a` when it beats the present one
  /// and the room can take it; true then.
  bool replan(Allocation& a, RoomLoad& room, std::int32_t j, double watt_price, Work& w) const {
    const std::int32_t t = in_.tasks(), tb = in_.node_table[std::size_t(j)], zone = in_.node_zone[std::size_t(j)];
    std::fill(w.own.begin(), w.own.end(), 0.0);
    std::fill(w.own_naive.begin(), w.own_naive.end(), 0.0);
    add_node_rates(in_, a, j, w.own, &w.own_naive);
    const bool rr = objective_ == RateObjective::rr;
    double now = 0;
    for (std::int32_t i = 0; i < t; ++i) {
      const double mine = (rr ? w.own : w.own_naive)[std::size_t(i)];
      w.base[std::size_t(i)] = std::max(0.0, (rr ? w.rate : w.naive)[std::size_t(i)] - mine);
      w.before[std::size_t(i)] = term(i, w.base[std::size_t(i)]);
      now += term(i, w.base[std::size_t(i)] + mine) - w.before[std::size_t(i)];
    }
    const double power_now = node_core_power_w(in_, a, j);
    now -= watt_price * power_now;
    const std::int32_t set_index = configurations_.node_set[std::size_t(j)];
    const NodeConfigurations& set = configurations_.sets[std::size_t(set_index)];
    const Options& options = options_[std::size_t(set_index)];
    // An entry's best option: its value is concave along the hull (the reward term is concave
    // and non-decreasing in the rate, the hull's rate concave in its power), so the scan stops at
    // the first option not better (at a tie, the one using less power is kept).
    const auto best_option = [&](const NodeConfigurations::Entry* e) {
      const std::size_t k = std::size_t(e - set.begin(0));
      const RateTaskType& type = in_.tables.tasks[std::size_t(e->task)];
      const double base = w.base[std::size_t(e->task)], before = w.before[std::size_t(e->task)];
      const Option* top = nullptr;
      double top_value = -std::numeric_limits<double>::infinity();
      for (std::int32_t o = options.first[k]; o < options.first[k + 1]; ++o) {
        const Option& option = options.all[std::size_t(o)];
        const double v = type.reward * std::min(base + option.rate, type.arrival_rate_per_s) - before -
                         watt_price * option.watts;
        if (v <= top_value) break;
        top_value = v;
        top = &option;
      }
      return std::pair{top_value, top};
    };
    // The best configuration using at most `cap` W of core power; -1 when none beats now.
    const auto search = [&](double cap) {
      double best = now;
      std::int32_t best_index = -1;
      for (std::int32_t c = 0; c < set.size(); ++c) {
        double value = 0, power = 0;
        for (const NodeConfigurations::Entry* e = set.begin(c); e != set.end(c); ++e) {
          const auto [v, option] = best_option(e);
          value += v;
          power += option->watts;
        }
        if (value > best + kGain * (1 + std::abs(best)) && power <= cap) {
          best = value;
          best_index = c;
        }
      }
      return best_index;
    };
    // Its power, its tasks' states to w.state.
    const auto plan = [&](std::int32_t c) {
      double power = 0;
      std::fill(w.state.begin(), w.state.end(), std::int16_t(in_.off_state(tb)));
      for (const NodeConfigurations::Entry* e = set.begin(c); e != set.end(c); ++e) {
        const Option* option = best_option(e).second;
        power += option->watts;
        w.state[std::size_t(e->task)] = option->state;
      }
      return power;
    };
    // The best one, or when the room cannot take it, the best the room can take.
    std::int32_t best = search(std::numeric_limits<double>::infinity());
    if (best < 0) return false;
    double power = plan(best);
    if (!room.feasible_with(zone, power - power_now)) {
      best = search(power_now + room.headroom_w(zone));
      if (best < 0) return false;
      power = plan(best);
      if (!room.feasible_with(zone, power - power_now)) return false;
    }
    room.add(zone, power - power_now);
    for (std::int32_t i = 0; i < t; ++i) {  // the node's old rates out, its new genes and rates in
      w.rate[std::size_t(i)] -= w.own[std::size_t(i)];
      w.naive[std::size_t(i)] -= w.own_naive[std::size_t(i)];
    }
    std::int32_t k = in_.node_first_core[std::size_t(j)];
    for (std::size_t g = std::size_t(k * t); g < std::size_t(in_.node_first_core[std::size_t(j) + 1] * t); ++g) {
      a.df[g] = 0;
      a.pstate[g] = std::int16_t(in_.off_state(tb));
    }
    for (const NodeConfigurations::Entry* e = set.begin(best); e != set.end(best); ++e) {
      for (std::int32_t n = 0; n < e->cores; ++n, ++k) {
        a.df_at(k, e->task) = 1;
        a.ps_at(k, e->task) = w.state[std::size_t(e->task)];
      }
    }
    add_node_rates(in_, a, j, w.rate, &w.naive);
    return true;
  }

  bool runs_anything(const Allocation& a, std::int32_t node) const {
    const std::int32_t off = in_.off_state(in_.node_table[std::size_t(node)]);
    for (std::size_t g = std::size_t(in_.node_first_core[std::size_t(node)] * a.tasks);
         g < std::size_t(in_.node_first_core[std::size_t(node) + 1] * a.tasks); ++g) {
      if (a.df[g] > 0 && a.pstate[g] < off) return true;
    }
    return false;
  }

  double term(std::int32_t i, double r) const {
    const RateTaskType& task = in_.tables.tasks[std::size_t(i)];
    return task.reward * std::min(r, task.arrival_rate_per_s);
  }

  static constexpr double kGain = 1e-12;  ///< a re-plan must earn more than rounding

  struct Option {
    double rate, watts;  ///< of the entry's cores together
    std::int16_t state;
  };
  /// One configuration set's entries' options: entry k's are all[first[k], first[k + 1]).
  struct Options {
    std::vector<Option> all;
    std::vector<std::int32_t> first{0};
  };

  const RateInstance& in_;
  RateObjective objective_;
  RoomConfigurations configurations_;
  std::vector<Options> options_;  ///< per configuration set
};

/// Mutates each gene with probability p (geometric skips between mutated genes), then normalizes
/// the cores it touched.
void mutate(const RateInstance& in, const StateMenu& menu, Allocation& a, double p, RngStream& rng) {
  if (p <= 0) return;
  const double log_keep = std::log1p(-std::min(p, 1 - 1e-12));
  const auto skip = [&] { return std::size_t(std::floor(std::log1p(-rng.uniform01()) / log_keep)); };
  const std::size_t genes = a.df.size();
  std::int32_t last_core = -1;
  const auto normalize = [&](std::int32_t core) {
    double sum = 0;
    for (std::int32_t i = 0; i < a.tasks; ++i) sum += a.df_at(core, i);
    if (sum > 1) {
      for (std::int32_t i = 0; i < a.tasks; ++i) a.df_at(core, i) /= sum;
    }
  };
  for (std::size_t g = skip(); g < genes; g += 1 + skip()) {
    const auto core = std::int32_t(g / std::size_t(a.tasks)), task = std::int32_t(g % std::size_t(a.tasks));
    if (core != last_core && last_core >= 0) normalize(last_core);
    last_core = core;
    const std::int32_t table = in.core_table(core);
    const auto& states = menu.of(task, table);
    const std::int64_t pick = rng.integer(0, std::int64_t(states.size()));  // == size: off
    a.df[g] = rng.uniform01();
    a.pstate[g] = pick < std::int64_t(states.size()) ? states[std::size_t(pick)] : std::int16_t(in.off_state(table));
  }
  if (last_core >= 0) normalize(last_core);
}

/// Alg. 4. Sets the outlet to the hottest meeting the redline; true when both constraints hold.
bool local_search(const RateInstance& in, const StateMenu& menu, const std::optional<NodePlanner>& planner, Allocation& a,
                  double watt_price, const GaOptions& o, RngStream& rng) {
  const std::int32_t max_steps = o.max_local_steps, speedup_steps = o.speedup_steps;
  RoomLoad room(in, zone_power_w(in, a));
  std::vector<std::vector<std::int32_t>> active(std::size_t(in.zones()));  // genes running something, per zone
  for (std::int32_t k = 0; k < in.cores(); ++k) {
    const std::int32_t table = in.core_table(k), zone = in.node_zone[std::size_t(in.core_node[std::size_t(k)])];
    for (std::int32_t i = 0; i < a.tasks; ++i) {
      if (a.df_at(k, i) > 0 && a.ps_at(k, i) < in.off_state(table)) active[std::size_t(zone)].push_back(k * a.tasks + i);
    }
  }
  const auto slow_down = [&](std::int32_t zone) {
    std::vector<std::int32_t>& genes = active[std::size_t(zone)];
    const auto r = std::size_t(rng.integer(0, std::int64_t(genes.size()) - 1));
    const std::size_t g = std::size_t(genes[r]);
    const std::int32_t core = std::int32_t(g / std::size_t(a.tasks)), task = std::int32_t(g % std::size_t(a.tasks));
    const std::int32_t table = in.core_table(core);
    const std::int16_t before = a.pstate[g], after = slower(in, menu, task, table, before);
    room.add(zone, a.df[g] * (in.tables.apc(task, table, after) - in.tables.apc(task, table, before)));
    a.pstate[g] = after;
    if (after >= in.off_state(table)) {
      genes[r] = genes.back();
      genes.pop_back();
    }
  };
  std::int32_t steps = 0;
  while (!room.feasible() && steps < max_steps) {
    const std::int32_t hottest = room.hottest_zone();
    if (active[std::size_t(hottest)].empty()) {  // nothing to slow there: anywhere
      std::vector<std::int32_t> busy;
      for (std::int32_t z = 0; z < in.zones(); ++z) {
        if (!active[std::size_t(z)].empty()) busy.push_back(z);
      }
      if (busy.empty()) break;
      slow_down(busy[std::size_t(rng.integer(0, std::int64_t(busy.size()) - 1))]);
      ++steps;
      continue;
    }
    while (steps < max_steps && !active[std::size_t(hottest)].empty()) {
      slow_down(hottest);
      ++steps;
      if (room.hottest_zone() != hottest || room.feasible()) break;
    }
  }
  if (room.feasible() && speedup_steps > 0) {  // the extension: use leftover budget
    std::vector<std::int32_t> running;
    for (std::size_t g = 0; g < a.df.size(); ++g) {
      if (a.df[g] > 0) running.push_back(std::int32_t(g));
    }
    for (std::int32_t s = 0; s < speedup_steps && !running.empty(); ++s) {
      const auto g = std::size_t(running[std::size_t(rng.integer(0, std::int64_t(running.size()) - 1))]);
      const std::int32_t core = std::int32_t(g / std::size_t(a.tasks)), task = std::int32_t(g % std::size_t(a.tasks));
      const std::int32_t table = in.core_table(core), zone = in.node_zone[std::size_t(in.core_node[std::size_t(core)])];
      const std::int16_t before = a.pstate[g], after = faster(menu, task, table, before);
      if (after == before) continue;
      const double watts = a.df[g] * (in.tables.apc(task, table, after) - in.tables.apc(task, table, before));
      room.add(zone, watts);
      if (room.feasible()) {
        a.pstate[g] = after;
      } else {
        room.add(zone, -watts);
      }
    }
  }
  if (room.feasible() && planner) planner->improve(a, room, o.node_steps, watt_price, rng);
  a.crac_out_c = std::max(room.highest_crac_out_c(), in.config.crac_out_min_c);
  return room.feasible();
}

/// The node step's initial watt prices span this many octaves.
constexpr double kPriceOctaves = 12;

/// Index into a population sorted best first: linear bias `b` (Whitley 1989).
std::size_t linear_bias(std::size_t n, double b, RngStream& rng) {
  const double u = rng.uniform01();
  const double x = double(n) * (b - std::sqrt(b * b - 4 * (b - 1) * u)) / (2 * (b - 1));
  return std::min(n - 1, std::size_t(x));
}

}  // namespace

RateResult rate_genetic(const RateInstance& in, const GaOptions& o, RngStream& rng) {
  if (o.population < 2 || !(o.mutation_probability >= 0 && o.mutation_probability <= 1) ||
      !(o.gene_probability >= 0 && o.gene_probability < 1) || o.max_local_steps < 0 || o.speedup_steps < 0 || o.node_steps < 0 ||
      !(o.selection_bias > 1 && o.selection_bias <= 2) || o.max_generations < 0 || !(o.time_limit_s >= 0)) {
    throw InputError("ga: population >= 2, p_m in [0, 1], p_g in [0, 1), maxIter >= 0, speed-up steps >= 0, bias in (1, 2], "
                     "node steps >= 0, generations >= 0 and a time limit >= 0 are needed");
  }
  const auto t0 = Clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  RateResult greedy = rate_greedy(in, o.objective);
  if (!greedy.feasible) {
    greedy.seconds = elapsed();
    return greedy;
  }
  const StateMenu menu(in);
  const std::optional<NodePlanner> planner =
      o.node_steps > 0 ? std::optional<NodePlanner>(std::in_place, in, o.objective) : std::nullopt;
  std::int64_t evaluations = 1;
  const auto fitness = [&](const Allocation& a) {
    ++evaluations;
    return objective_of(evaluate(in, a), o.objective);
  };
  // The node step's watt prices start log-uniform over 12 octaves below the best reward per watt
  // of any (task, node type) pair: from "power is almost free" to "only the best pairs pay".
  double top_efficiency = 0;
  for (const RatePair& pair : rate_efficient_pairs(in)) top_efficiency = std::max(top_efficiency, pair.efficiency);
  const auto draw_price = [&] { return o.node_steps > 0 ? top_efficiency * std::exp2(-kPriceOctaves * rng.uniform01()) : 0.0; };
  std::vector<Chromosome> population{{greedy.allocation, objective_of(greedy.evaluation, o.objective), draw_price()}};
  while (std::int32_t(population.size()) < o.population) {
    Chromosome c{greedy.allocation, 0, draw_price()};
    mutate(in, menu, c.a, o.gene_probability, rng);
    if (local_search(in, menu, planner, c.a, c.watt_price, o, rng)) {
      c.fitness = fitness(c.a);
    } else {  // a repair that failed: the greedy seed again, with this price
      c.a = population.front().a;
      c.fitness = population.front().fitness;
    }
    population.push_back(std::move(c));
  }
  const auto by_fitness = [](const Chromosome& x, const Chromosome& y) { return x.fitness > y.fitness; };
  std::stable_sort(population.begin(), population.end(), by_fitness);
  double best = population.front().fitness;
  if (o.on_improvement) o.on_improvement(elapsed(), 0, best);

  std::int64_t generation = 0;
  const std::size_t n = population.size();
  const auto cores = std::int64_t(in.cores());
  while (generation < o.max_generations && elapsed() < o.time_limit_s && cores > 0) {
    const std::size_t first = linear_bias(n, o.selection_bias, rng);
    std::size_t second = linear_bias(n - 1, o.selection_bias, rng);
    if (second >= first) ++second;
    Chromosome child[2] = {population[first], population[second]};
    const std::int64_t x = rng.integer(0, cores - 1), y = rng.integer(x + 1, cores);
    const auto from = std::size_t(x * child[0].a.tasks), to = std::size_t(y * child[0].a.tasks);
    std::swap_ranges(child[0].a.df.begin() + std::ptrdiff_t(from), child[0].a.df.begin() + std::ptrdiff_t(to),
                     child[1].a.df.begin() + std::ptrdiff_t(from));
    std::swap_ranges(child[0].a.pstate.begin() + std::ptrdiff_t(from), child[0].a.pstate.begin() + std::ptrdiff_t(to),
                     child[1].a.pstate.begin() + std::ptrdiff_t(from));
    for (Chromosome& c : child) {
      if (rng.uniform01() < o.mutation_probability) mutate(in, menu, c.a, o.gene_probability, rng);
      if (o.node_steps > 0) c.watt_price *= std::exp2(2 * rng.uniform01() - 1);  // within an octave of its parent's
      if (!local_search(in, menu, planner, c.a, c.watt_price, o, rng)) continue;
      c.fitness = fitness(c.a);
      population.push_back(std::move(c));
    }
    std::stable_sort(population.begin(), population.end(), by_fitness);
    population.resize(n);
    ++generation;
    if (population.front().fitness > best) {
      best = population.front().fitness;
      if (o.on_improvement) o.on_improvement(elapsed(), generation, best);
    }
  }
  RateResult out;
  out.feasible = true;
  out.allocation = std::move(population.front().a);
  out.evaluation = evaluate(in, out.allocation);
  out.generations = generation;
  out.evaluations = evaluations;
  out.seconds = elapsed();
  return out;
}

}  // namespace dcsweep
