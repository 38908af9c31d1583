#include "dcsweep/ratebased/configurations.hpp"

#include <algorithm>
#include <limits>

#include "dcsweep/ratebased/bound.hpp"

namespace dcsweep {

std::int64_t NodeConfigurations::count(std::int32_t tasks, std::int32_t cores) {
  // C(cores + tasks, tasks), built as a product of exact binomials.
  std::int64_t c = 1;
  for (std::int32_t k = 1; k <= tasks; ++k) {
    const std::int64_t factor = cores + k;
    if (c > std::numeric_limits<std::int64_t>::max() / factor) return std::numeric_limits<std::int64_t>::max();
    c = c * factor / k;
  }
  return c;
}

NodeConfigurations::NodeConfigurations(const RateInstance& in, std::int32_t table, std::int32_t cores)
    : in_(&in), table_(table), cores_(cores) {
  const std::int32_t t = in.tasks();
  hull_.resize(std::size_t(t));
  allowed_.resize(std::size_t(t));
  std::vector<std::int32_t> usable;
  for (std::int32_t i = 0; i < t; ++i) {
    for (std::int32_t p = 0; p < in.off_state(table); ++p) {
      if (in.allowed(i, table, p)) allowed_[std::size_t(i)].push_back(p);
    }
    hull_[std::size_t(i)] = rate_hull_states(in, i, table);
    if (!allowed_[std::size_t(i)].empty()) usable.push_back(i);
  }
  const RateNodeTable& type = in.tables.types[std::size_t(table)];
  std::vector<std::int32_t> n(usable.size(), 0);
  first_.push_back(0);
  // Every count vector with sum <= cores, the last usable task varying fastest.
  const auto emit = [&] {
    double load = 0;
    for (std::size_t u = 0; u < usable.size(); ++u) load += n[u] * in.tables.tasks[std::size_t(usable[u])].memory_intensity;
    for (std::size_t u = 0; u < usable.size(); ++u) {
      if (n[u] == 0) continue;
      const RateTaskType& task = in.tables.tasks[std::size_t(usable[u])];
      const double slope = type.colocation_slope[std::size_t(task.memory_class)];
      entries_.push_back({usable[u], n[u], 1 / (1 + slope * (load - task.memory_intensity))});
    }
    first_.push_back(std::int32_t(entries_.size()));
  };
  const auto visit = [&](auto&& self, std::size_t u, std::int32_t left) -> void {
    if (u == usable.size()) {
      emit();
      return;
    }
    for (std::int32_t c = 0; c <= left; ++c) {
      n[u] = c;
      self(self, u + 1, left - c);
    }
    n[u] = 0;
  };
  visit(visit, 0, cores);
}

NodeConfiguration NodeConfigurations::best(const std::vector<double>& price, double nu) const {
  const RateTables& tables = in_->tables;
  const std::vector<std::vector<std::int32_t>>& menu = nu >= 0 ? hull_ : allowed_;
  // An entry's cores' best value per core over its task's states, and that state.
  const auto best_state = [&](const Entry& e) {
    const double a = price[std::size_t(e.task)] * e.factor;
    double top = -std::numeric_limits<double>::infinity();
    std::int16_t state = std::int16_t(in_->off_state(table_));
    for (const std::int32_t p : menu[std::size_t(e.task)]) {
      const double v = a * tables.ecs(e.task, table_, p) - nu * tables.apc(e.task, table_, p);
      if (v > top) {
        top = v;
        state = std::int16_t(p);
      }
    }
    return std::pair{top, state};
  };
  double best_value = 0;
  std::int32_t best_index = -1;
  for (std::int32_t c = 0; c < size(); ++c) {
    double value = 0;
    for (const Entry* e = begin(c); e != end(c); ++e) value += e->cores * best_state(*e).first;
    if (value > best_value) {
      best_value = value;
      best_index = c;
    }
  }
  std::vector<std::int16_t> state(std::size_t(in_->tasks()), std::int16_t(in_->off_state(table_)));
  if (best_index < 0) {  // nothing beats every core off: the empty configuration (enumerated first)
    return at(0, state);
  }
  for (const Entry* e = begin(best_index); e != end(best_index); ++e) state[std::size_t(e->task)] = best_state(*e).second;
  NodeConfiguration out = at(best_index, state);
  out.value = 0;
  for (std::int32_t i = 0; i < in_->tasks(); ++i) out.value += price[std::size_t(i)] * out.rate[std::size_t(i)];
  out.value -= nu * out.power_w;
  return out;
}

NodeConfiguration NodeConfigurations::at(std::int32_t index, const std::vector<std::int16_t>& state) const {
  NodeConfiguration out;
  out.index = index;
  out.rate.assign(std::size_t(in_->tasks()), 0.0);
  out.state.assign(std::size_t(in_->tasks()), std::int16_t(in_->off_state(table_)));
  for (const Entry* e = begin(index); e != end(index); ++e) {
    const std::int16_t p = state[std::size_t(e->task)];
    out.state[std::size_t(e->task)] = p;
    out.rate[std::size_t(e->task)] = e->cores * e->factor * in_->tables.ecs(e->task, table_, p);
    out.power_w += e->cores * in_->tables.apc(e->task, table_, p);
  }
  return out;
}

RoomConfigurations room_configurations(const RateInstance& in) {
  RoomConfigurations out;
  for (std::int32_t j = 0; j < in.nodes(); ++j) {
    const std::int32_t tb = in.node_table[std::size_t(j)];
    const std::int32_t cores = in.node_first_core[std::size_t(j) + 1] - in.node_first_core[std::size_t(j)];
    auto it = std::find_if(out.sets.begin(), out.sets.end(),
                           [&](const NodeConfigurations& c) { return c.table() == tb && c.cores() == cores; });
    if (it == out.sets.end()) {
      out.sets.emplace_back(in, tb, cores);
      it = out.sets.end() - 1;
    }
    out.node_set.push_back(std::int32_t(it - out.sets.begin()));
  }
  return out;
}

}  // namespace dcsweep
