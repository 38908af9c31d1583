#include "dcsweep/ratebased/genetic.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "dcsweep/core/error.hpp"
#include "dcsweep/ratebased/greedy.hpp"

namespace dcsweep {
namespace {

using Clock = std::chrono::steady_clock;

struct Chromosome {
  Allocation a;
  double fitness = -std::numeric_limits<double>::infinity();
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
bool local_search(const RateInstance& in, const StateMenu& menu, Allocation& a, std::int32_t max_steps,
                  std::int32_t speedup_steps, RngStream& rng) {
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
  a.crac_out_c = std::max(room.highest_crac_out_c(), in.config.crac_out_min_c);
  return room.feasible();
}

/// Index into a population sorted best first: linear bias `b` (Whitley 1989).
std::size_t linear_bias(std::size_t n, double b, RngStream& rng) {
  const double u = rng.uniform01();
  const double x = double(n) * (b - std::sqrt(b * b - 4 * (b - 1) * u)) / (2 * (b - 1));
  return std::min(n - 1, std::size_t(x));
}

}  // namespace

RateResult rate_genetic(const RateInstance& in, const GaOptions& o, RngStream& rng) {
  if (o.population < 2 || !(o.mutation_probability >= 0 && o.mutation_probability <= 1) ||
      !(o.gene_probability >= 0 && o.gene_probability < 1) || o.max_local_steps < 0 || o.speedup_steps < 0 ||
      !(o.selection_bias > 1 && o.selection_bias <= 2) || o.max_generations < 0 || !(o.time_limit_s >= 0)) {
    throw InputError("ga: population >= 2, p_m in [0, 1], p_g in [0, 1), maxIter >= 0, speed-up steps >= 0, bias in (1, 2], "
                     "generations >= 0 and a time limit >= 0 are needed");
  }
  const auto t0 = Clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - t0).count(); };
  RateResult greedy = rate_greedy(in, o.objective);
  if (!greedy.feasible) {
    greedy.seconds = elapsed();
    return greedy;
  }
  const StateMenu menu(in);
  std::int64_t evaluations = 1;
  const auto fitness = [&](const Allocation& a) {
    ++evaluations;
    return objective_of(evaluate(in, a), o.objective);
  };
  std::vector<Chromosome> population{{greedy.allocation, objective_of(greedy.evaluation, o.objective)}};
  while (std::int32_t(population.size()) < o.population) {
    Chromosome c{greedy.allocation, 0};
    mutate(in, menu, c.a, o.gene_probability, rng);
    if (local_search(in, menu, c.a, o.max_local_steps, o.speedup_steps, rng)) {
      c.fitness = fitness(c.a);
    } else {
      c = population.front();  // a repair that failed: the greedy seed again
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
      if (!local_search(in, menu, c.a, o.max_local_steps, o.speedup_steps, rng)) continue;
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
