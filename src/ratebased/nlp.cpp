#include "dcsweep/ratebased/nlp.hpp"

#include <IpIpoptApplication.hpp>
#include <IpSolveStatistics.hpp>
#include <IpTNLP.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <sstream>

#include "dcsweep/core/error.hpp"
#include "dcsweep/ratebased/bound.hpp"
#include "dcsweep/ratebased/greedy.hpp"

namespace dcsweep {
namespace {

using Ipopt::Index;
using Ipopt::Number;

/// One continuous variable x(j, i, p): cores of node j running task i at P-state p.
struct CoreTime {
  std::int32_t node, task, pstate;
  double ecs, apc, mi, slope;
};

/// The relaxation's variables, node by node (a node's tasks contiguous).
struct Relaxation {
  std::vector<CoreTime> vars;
  std::vector<std::int32_t> node_begin;  ///< nodes + 1 entries into vars
};

Relaxation relaxation_of(const RateInstance& in) {
  Relaxation r;
  for (std::int32_t j = 0; j < in.nodes(); ++j) {
    r.node_begin.push_back(std::int32_t(r.vars.size()));
    const std::int32_t t = in.node_table[std::size_t(j)];
    for (std::int32_t i = 0; i < in.tasks(); ++i) {
      const RateTaskType& task = in.tables.tasks[std::size_t(i)];
      const double slope = in.tables.types[std::size_t(t)].colocation_slope[std::size_t(task.memory_class)];
      for (const std::int32_t p : rate_hull_states(in, i, t)) {
        r.vars.push_back({j, i, p, in.tables.ecs(i, t, p), in.tables.apc(i, t, p), task.memory_intensity, slope});
      }
    }
  }
  r.node_begin.push_back(std::int32_t(r.vars.size()));
  return r;
}

/// The co-runners' load seen by a core of task i, f(L_j - mi_i): the identity where it is not
/// negative (every integral x running i on the node), c tanh(u / c) below, c = 1 / (2 slope):
/// twice differentiable, and D = 1 + slope f >= 1/2 where the relaxation runs i on less than a
/// whole core (1 - slope mi may be <= 0: a one-core node, hand_tables' 0.1 x 10).
double corunner_load(double u, double slope) {
  return u >= 0 || slope <= 0 ? u : std::tanh(2 * slope * u) / (2 * slope);
}
double corunner_load_derivative(double u, double slope) {
  if (u >= 0 || slope <= 0) return 1;
  const double th = std::tanh(2 * slope * u);
  return 1 - th * th;
}

double corunner_load_second(double u, double slope) {
  if (u >= 0 || slope <= 0) return 0;
  const double th = std::tanh(2 * slope * u);
  return -4 * slope * th * (1 - th * th);
}

/// Per (node, task) the served rate's numerator A = sum ECS x and denominator D = 1 + slope f(L - mi).
struct NodeRates {
  std::vector<double> load;  ///< L_j per node
  double denominator(const CoreTime& v, RateObjective o) const {
    return o == RateObjective::rr ? 1 + v.slope * corunner_load(load[std::size_t(v.node)] - v.mi, v.slope) : 1.0;
  }
  double denominator_slope(const CoreTime& v) const {  ///< dD / dL (rr)
    return v.slope * corunner_load_derivative(load[std::size_t(v.node)] - v.mi, v.slope);
  }
};

NodeRates node_rates(const Relaxation& r, const Number* x) {
  NodeRates n;
  n.load.assign(r.node_begin.size() - 1, 0.0);
  for (std::size_t v = 0; v < r.vars.size(); ++v) n.load[std::size_t(r.vars[v].node)] += r.vars[v].mi * x[v];
  return n;
}

/// sum_j A_ji / D_ji per task.
std::vector<double> task_rates(const RateInstance& in, const Relaxation& r, const Number* x, RateObjective o) {
  const NodeRates n = node_rates(r, x);
  std::vector<double> rate(std::size_t(in.tasks()), 0.0);
  for (std::size_t v = 0; v < r.vars.size(); ++v) {
    rate[std::size_t(r.vars[v].task)] += r.vars[v].ecs * x[v] / n.denominator(r.vars[v], o);
  }
  return rate;
}

double cop_slope(double t) { return 2 * 0.0068 * t + 0.0008; }
constexpr double kCopCurvature = 2 * 0.0068;

/// The NLP of the header for Ipopt. Variables: x (vars), y (tasks), tc. Rows: one per node
/// with variables (cores), one per task (reward), one per zone (inlet), one (power).
class RateTnlp : public Ipopt::TNLP {
 public:
  RateTnlp(const RateInstance& in, const Relaxation& r, RateObjective o, std::vector<double> start, double tc_max)
      : in_(in), r_(r), objective_(o), start_(std::move(start)), tc_max_(tc_max) {
    for (std::int32_t j = 0; j < in.nodes(); ++j) {
      if (r.node_begin[std::size_t(j) + 1] > r.node_begin[std::size_t(j)]) core_rows_.push_back(j);
    }
    build_reward_entries();
  }

  std::vector<double> solution;
  bool solved = false;

  bool get_nlp_info(Index& n, Index& m, Index& nnz_jac, Index& nnz_h, IndexStyleEnum& style) override {
    n = Index(vars() + tasks() + 1);
    m = Index(core_rows_.size() + std::size_t(tasks() + zones() + 1));
    nnz_jac = Index(std::size_t(r_.node_begin.back()) + reward_entries_.size() + std::size_t(tasks()) +
                    std::size_t(zones() + 1) * std::size_t(vars() + 1));
    nnz_h = Index(hessian_entries());
    style = C_STYLE;
    return true;
  }

  bool get_bounds_info(Index n, Number* xl, Number* xu, Index m, Number* gl, Number* gu) override {
    std::fill(xl, xl + n, 0.0);
    for (std::size_t v = 0; v < r_.vars.size(); ++v) xu[v] = cores_of(r_.vars[v].node);
    for (std::int32_t i = 0; i < tasks(); ++i) xu[vars() + i] = in_.tables.tasks[std::size_t(i)].arrival_rate_per_s;
    xl[n - 1] = in_.config.crac_out_min_c;
    xu[n - 1] = tc_max_;
    std::fill(gl, gl + m, -2e19);  // Ipopt's minus infinity (nlp_lower_bound_inf -1e19)
    Index row = 0;
    for (const std::int32_t j : core_rows_) gu[row++] = cores_of(j);
    for (std::int32_t i = 0; i < tasks(); ++i) gu[row++] = 0;
    const Eigen::VectorXd bias = in_.room->rise * static_power();
    for (std::int32_t z = 0; z < zones(); ++z) gu[row++] = in_.config.redline_c - bias(z);
    gu[row] = in_.config.power_budget_w - static_power().sum();
    return true;
  }

  bool get_starting_point(Index n, bool, Number* x, bool, Number*, Number*, Index, bool, Number*) override {
    std::copy(start_.begin(), start_.end(), x);
    return Index(start_.size()) == n;
  }

  bool eval_f(Index, const Number* x, bool, Number& f) override {
    f = 0;
    for (std::int32_t i = 0; i < tasks(); ++i) f -= in_.tables.tasks[std::size_t(i)].reward * x[vars() + i];
    return true;
  }

  bool eval_grad_f(Index n, const Number*, bool, Number* grad) override {
    std::fill(grad, grad + n, 0.0);
    for (std::int32_t i = 0; i < tasks(); ++i) grad[vars() + i] = -in_.tables.tasks[std::size_t(i)].reward;
    return true;
  }

  bool eval_g(Index, const Number* x, bool, Index, Number* g) override {
    Index row = 0;
    for (const std::int32_t j : core_rows_) {
      g[row] = 0;
      for (std::int32_t v = r_.node_begin[std::size_t(j)]; v < r_.node_begin[std::size_t(j) + 1]; ++v) g[row] += x[v];
      ++row;
    }
    const std::vector<double> rate = task_rates(in_, r_, x, objective_);
    for (std::int32_t i = 0; i < tasks(); ++i) g[row++] = x[vars() + i] - rate[std::size_t(i)];
    const Eigen::VectorXd load = dynamic_power(x);
    const Eigen::VectorXd inlet = in_.room->supply_share * tc(x) + in_.room->rise * load;
    for (std::int32_t z = 0; z < zones(); ++z) g[row++] = inlet(z);
    g[row] = load.sum() + removed_w(load, tc(x)) / rate_crac_cop(tc(x));
    return true;
  }

  bool eval_jac_g(Index, const Number* x, bool, Index, Index, Index* rows, Index* cols, Number* values) override {
    if (values == nullptr) {
      structure(rows, cols);
    } else {
      jacobian(x, values);
    }
    return true;
  }

  bool eval_h(Index, const Number* x, bool, Number, Index m, const Number* lambda, bool, Index, Index* rows,
              Index* cols, Number* values) override {
    if (values == nullptr) {
      hessian_structure(rows, cols);
    } else {
      hessian(x, lambda, m, values);
    }
    return true;
  }

  void finalize_solution(Ipopt::SolverReturn status, Index n, const Number* x, const Number*, const Number*, Index,
                         const Number*, const Number*, Number, const Ipopt::IpoptData*,
                         Ipopt::IpoptCalculatedQuantities*) override {
    solution.assign(x, x + n);
    solved = status == Ipopt::SUCCESS || status == Ipopt::STOP_AT_ACCEPTABLE_POINT;
  }

 private:
  std::int32_t vars() const { return std::int32_t(r_.vars.size()); }
  std::int32_t tasks() const { return in_.tasks(); }
  std::int32_t zones() const { return in_.zones(); }
  double tc(const Number* x) const { return x[vars() + tasks()]; }
  double cores_of(std::int32_t j) const {
    return in_.node_first_core[std::size_t(j) + 1] - in_.node_first_core[std::size_t(j)];
  }
  Eigen::VectorXd static_power() const {
    Eigen::VectorXd p = Eigen::VectorXd::Zero(zones());
    for (std::int32_t j = 0; j < in_.nodes(); ++j)
      p(in_.node_zone[std::size_t(j)]) += in_.node_static_w[std::size_t(j)];
    return p;
  }
  /// Zone powers without the static part (which the bounds absorb), and the heat removed of all.
  Eigen::VectorXd dynamic_power(const Number* x) const {
    Eigen::VectorXd p = Eigen::VectorXd::Zero(zones());
    for (std::size_t v = 0; v < r_.vars.size(); ++v)
      p(in_.node_zone[std::size_t(r_.vars[v].node)]) += r_.vars[v].apc * x[v];
    return p;
  }
  double removed_w(const Eigen::VectorXd& dynamic, double t) const {
    return in_.room->removal.dot(dynamic + static_power()) + in_.room->removal_per_k * t;
  }

  /// Reward rows' x entries: (task, var), every var of a node running the task (rr: the load).
  void build_reward_entries() {
    for (std::int32_t i = 0; i < tasks(); ++i) {
      for (std::int32_t j = 0; j < in_.nodes(); ++j) {
        const auto begin = r_.vars.begin() + r_.node_begin[std::size_t(j)];
        const auto end = r_.vars.begin() + r_.node_begin[std::size_t(j) + 1];
        if (std::none_of(begin, end, [&](const CoreTime& v) { return v.task == i; })) continue;
        for (auto v = begin; v != end; ++v) {
          if (objective_ == RateObjective::rr || v->task == i)
            reward_entries_.push_back({i, std::int32_t(v - r_.vars.begin())});
        }
      }
    }
  }

  void structure(Index* rows, Index* cols) const {
    std::size_t e = 0;
    Index row = 0;
    for (const std::int32_t j : core_rows_) {
      for (std::int32_t v = r_.node_begin[std::size_t(j)]; v < r_.node_begin[std::size_t(j) + 1]; ++v)
        rows[e] = row, cols[e++] = v;
      ++row;
    }
    for (const auto& [i, v] : reward_entries_) rows[e] = row + i, cols[e++] = v;
    for (std::int32_t i = 0; i < tasks(); ++i) rows[e] = row + i, cols[e++] = vars() + i;
    row += tasks();
    for (std::int32_t z = 0; z <= zones(); ++z) {  // inlet rows and the power row: every x and tc
      for (std::int32_t v = 0; v < vars(); ++v) rows[e] = row + z, cols[e++] = v;
      rows[e] = row + z, cols[e++] = vars() + tasks();
    }
  }

  void jacobian(const Number* x, Number* values) const {
    std::size_t e = std::size_t(r_.node_begin.back());
    std::fill(values, values + e, 1.0);
    const NodeRates n = node_rates(r_, x);
    std::vector<double> numerator(std::size_t(in_.nodes() * tasks()), 0.0);
    for (std::size_t v = 0; v < r_.vars.size(); ++v) {
      numerator[std::size_t(r_.vars[v].node * tasks() + r_.vars[v].task)] += r_.vars[v].ecs * x[v];
    }
    for (const auto& [i, v] : reward_entries_) {
      const CoreTime& var = r_.vars[std::size_t(v)];
      const CoreTime& own = representative(var.node, i);  // D depends on (node, task) only
      const double d = n.denominator(own, objective_);
      double dv = var.task == i ? var.ecs / d : 0.0;
      if (objective_ == RateObjective::rr) {
        dv -= numerator[std::size_t(var.node * tasks() + i)] * n.denominator_slope(own) * var.mi / (d * d);
      }
      values[e++] = -dv;
    }
    for (std::int32_t i = 0; i < tasks(); ++i) values[e++] = 1;
    for (std::int32_t z = 0; z < zones(); ++z) {
      for (const CoreTime& v : r_.vars) values[e++] = in_.room->rise(z, in_.node_zone[std::size_t(v.node)]) * v.apc;
      values[e++] = in_.room->supply_share(z);
    }
    const double t = tc(x), cop = rate_crac_cop(t);
    for (const CoreTime& v : r_.vars)
      values[e++] = v.apc * (1 + in_.room->removal(in_.node_zone[std::size_t(v.node)]) / cop);
    values[e] = in_.room->removal_per_k / cop - removed_w(dynamic_power(x), t) * cop_slope(t) / (cop * cop);
  }

  /// Lower triangle: rr, each node's variables pairwise (the rates through the load); always tc
  /// with every x and itself (the budget row through CoP).
  std::size_t hessian_entries() const {
    std::size_t e = std::size_t(vars()) + 1;
    if (objective_ != RateObjective::rr) return e;
    for (std::size_t j = 0; j + 1 < r_.node_begin.size(); ++j) {
      const std::size_t n = std::size_t(r_.node_begin[j + 1] - r_.node_begin[j]);
      e += n * (n + 1) / 2;
    }
    return e;
  }

  void hessian_structure(Index* rows, Index* cols) const {
    std::size_t e = 0;
    if (objective_ == RateObjective::rr) {
      for (std::size_t j = 0; j + 1 < r_.node_begin.size(); ++j) {
        for (Index v = r_.node_begin[j]; v < r_.node_begin[j + 1]; ++v) {
          for (Index w = r_.node_begin[j]; w <= v; ++w) rows[e] = v, cols[e++] = w;
        }
      }
    }
    const Index t = vars() + tasks();
    for (Index v = 0; v <= vars(); ++v) rows[e] = t, cols[e++] = v == vars() ? t : v;
  }

  void hessian(const Number* x, const Number* lambda, Index m, Number* values) const {
    std::size_t e = 0;
    if (objective_ == RateObjective::rr) {
      const NodeRates n = node_rates(r_, x);
      const Number* reward_lambda = lambda + core_rows_.size();
      for (std::int32_t j = 0; j < in_.nodes(); ++j) e = node_hessian(j, n, x, reward_lambda, values, e);
    }
    // The budget row: G = Q / C(tc), Q = w . P + h tc linear.
    const double t = tc(x), c = rate_crac_cop(t), dc = cop_slope(t);
    const double q = removed_w(dynamic_power(x), t), mu = lambda[m - 1];
    for (const CoreTime& v : r_.vars) {
      values[e++] = -mu * in_.room->removal(in_.node_zone[std::size_t(v.node)]) * v.apc * dc / (c * c);
    }
    const double h = in_.room->removal_per_k;
    values[e] = mu * (-2 * h * dc / (c * c) - q * kCopCurvature / (c * c) + 2 * q * dc * dc / (c * c * c));
  }

  /// -sum_i lambda_i d2(A_i / D_i) over node j's pairs: A = e . x (task i's), D = 1 + s f(m . x - mi).
  std::size_t node_hessian(std::int32_t j, const NodeRates& n, const Number* x, const Number* lambda, Number* values,
                           std::size_t e) const {
    const Index begin = r_.node_begin[std::size_t(j)], end = r_.node_begin[std::size_t(j) + 1];
    std::vector<double> a(std::size_t(tasks()), 0.0), h_al(a.size(), 0.0), h_ll(a.size(), 0.0);
    std::vector<bool> present(a.size(), false);
    for (Index v = begin; v < end; ++v) {
      a[std::size_t(r_.vars[std::size_t(v)].task)] += r_.vars[std::size_t(v)].ecs * x[v];
      present[std::size_t(r_.vars[std::size_t(v)].task)] = true;
    }
    for (std::int32_t i = 0; i < tasks(); ++i) {
      if (!present[std::size_t(i)]) continue;
      const CoreTime& own = representative(j, i);
      const double u = n.load[std::size_t(j)] - own.mi, d = n.denominator(own, objective_);
      const double d1 = n.denominator_slope(own), d2 = own.slope * corunner_load_second(u, own.slope);
      h_al[std::size_t(i)] = -lambda[i] * (-d1 / (d * d));
      h_ll[std::size_t(i)] = -lambda[i] * a[std::size_t(i)] * (2 * d1 * d1 / (d * d * d) - d2 / (d * d));
    }
    for (Index v = begin; v < end; ++v) {
      const CoreTime& cv = r_.vars[std::size_t(v)];
      for (Index w = begin; w <= v; ++w) {
        const CoreTime& cw = r_.vars[std::size_t(w)];
        double sum = h_al[std::size_t(cv.task)] * cv.ecs * cw.mi + h_al[std::size_t(cw.task)] * cv.mi * cw.ecs;
        for (std::int32_t i = 0; i < tasks(); ++i) sum += h_ll[std::size_t(i)] * cv.mi * cw.mi;
        values[e++] = sum;
      }
    }
    return e;
  }

  /// A variable of (node, task): its slope and mi (the same for all its P-states).
  const CoreTime& representative(std::int32_t node, std::int32_t task) const {
    for (std::int32_t v = r_.node_begin[std::size_t(node)]; v < r_.node_begin[std::size_t(node) + 1]; ++v) {
      if (r_.vars[std::size_t(v)].task == task) return r_.vars[std::size_t(v)];
    }
    return r_.vars[std::size_t(r_.node_begin[std::size_t(node)])];
  }

  const RateInstance& in_;
  const Relaxation& r_;
  RateObjective objective_;
  std::vector<double> start_;
  double tc_max_;
  std::vector<std::int32_t> core_rows_;
  std::vector<std::pair<std::int32_t, std::int32_t>> reward_entries_;
};

/// The greedy answer as a starting point of the relaxation.
std::vector<double> starting_point(const RateInstance& in, const Relaxation& r, RateObjective o) {
  const RateResult g = rate_greedy(in, o);
  std::vector<double> x(r.vars.size() + std::size_t(in.tasks()) + 1, 0.0);
  for (std::size_t v = 0; v < r.vars.size(); ++v) {
    const CoreTime& c = r.vars[v];
    for (std::int32_t k = in.node_first_core[std::size_t(c.node)]; k < in.node_first_core[std::size_t(c.node) + 1];
         ++k) {
      const std::size_t gene = std::size_t(k * in.tasks() + c.task);
      if (g.allocation.df[gene] > 0 && g.allocation.pstate[gene] == c.pstate) x[v] += g.allocation.df[gene];
    }
  }
  const std::vector<double> rate = task_rates(in, r, x.data(), o);
  for (std::int32_t i = 0; i < in.tasks(); ++i) {
    x[r.vars.size() + std::size_t(i)] =
        std::min(rate[std::size_t(i)], in.tables.tasks[std::size_t(i)].arrival_rate_per_s);
  }
  x.back() = g.allocation.crac_out_c;
  return x;
}

/// Per node, whole cores by largest remainder, one task at one P-state per core.
Allocation round_relaxation(const RateInstance& in, const Relaxation& r, const std::vector<double>& x) {
  Allocation a = idle_allocation(in);
  for (std::int32_t j = 0; j < in.nodes(); ++j) {
    const std::int32_t begin = r.node_begin[std::size_t(j)], end = r.node_begin[std::size_t(j) + 1];
    const std::int32_t cores = in.node_first_core[std::size_t(j) + 1] - in.node_first_core[std::size_t(j)];
    std::vector<std::int32_t> count(std::size_t(end - begin)), order(count.size());
    double total = 0;
    for (std::int32_t v = begin; v < end; ++v) {
      total += std::max(0.0, x[std::size_t(v)]);
      count[std::size_t(v - begin)] = std::int32_t(std::floor(std::max(0.0, x[std::size_t(v)]) + 1e-9));
    }
    std::int32_t left =
        std::min(cores, std::int32_t(std::lround(total))) - std::accumulate(count.begin(), count.end(), 0);
    std::iota(order.begin(), order.end(), 0);
    const auto fraction = [&](std::int32_t o) { return x[std::size_t(begin + o)] - count[std::size_t(o)]; };
    std::stable_sort(order.begin(), order.end(),
                     [&](std::int32_t p, std::int32_t q) { return fraction(p) > fraction(q); });
    for (std::size_t o = 0; left > 0 && o < order.size(); ++o, --left) ++count[std::size_t(order[o])];
    std::int32_t core = in.node_first_core[std::size_t(j)];
    for (std::int32_t v = begin; v < end; ++v) {
      for (std::int32_t c = 0; c < count[std::size_t(v - begin)] && core < in.node_first_core[std::size_t(j) + 1];
           ++c, ++core) {
        a.df_at(core, r.vars[std::size_t(v)].task) = 1;
        a.ps_at(core, r.vars[std::size_t(v)].task) = std::int16_t(r.vars[std::size_t(v)].pstate);
      }
    }
  }
  return a;
}

/// Outlet at the hottest that keeps every inlet at the redline, then evaluate on the linear map.
RateEvaluation settle(const RateInstance& in, Allocation& a) {
  a.crac_out_c = std::max(RoomLoad(in, zone_power_w(in, a)).highest_crac_out_c(), in.config.crac_out_min_c);
  return evaluate(in, a);
}

/// Core k's task (-1: idle) in a one-task-per-core allocation.
std::int32_t task_of(const RateInstance& in, const Allocation& a, std::int32_t k) {
  for (std::int32_t i = 0; i < in.tasks(); ++i) {
    if (a.df[std::size_t(k * in.tasks() + i)] > 0) return i;
  }
  return -1;
}

void set_core(const RateInstance& in, Allocation& a, std::int32_t k, std::int32_t task, std::int32_t pstate) {
  for (std::int32_t i = 0; i < in.tasks(); ++i) {
    a.df_at(k, i) = i == task ? 1.0 : 0.0;
    a.ps_at(k, i) = std::int16_t(i == task ? pstate : in.off_state(in.core_table(k)));
  }
}

/// Takes cores away, least efficient first, while a constraint is broken or the objective does
/// not fall without them.
RateEvaluation trim(const RateInstance& in, Allocation& a, RateObjective o) {
  std::vector<std::pair<double, std::int32_t>> busy;
  for (std::int32_t k = 0; k < in.cores(); ++k) {
    const std::int32_t i = task_of(in, a, k);
    if (i < 0) continue;
    const std::int32_t t = in.core_table(k), p = a.ps_at(k, i);
    busy.push_back({in.tables.tasks[std::size_t(i)].reward * in.tables.ecs(i, t, p) / in.tables.apc(i, t, p), k});
  }
  std::stable_sort(busy.begin(), busy.end());
  RateEvaluation now = settle(in, a);
  for (const auto& [efficiency, k] : busy) {
    const std::int32_t i = task_of(in, a, k), p = a.ps_at(k, i);
    set_core(in, a, k, -1, 0);
    const RateEvaluation without = settle(in, a);
    if (!now.feasible() || objective_of(without, o) >= objective_of(now, o) - 1e-12) {
      now = without;
    } else {
      set_core(in, a, k, i, p);
    }
  }
  settle(in, a);
  return now;
}

/// Fills free cores greedy-style: pairs most efficient first, coolest nodes first, while each
/// core raises the objective and keeps both constraints (a pair is dropped at its first miss).
RateEvaluation fill(const RateInstance& in, Allocation& a, RateObjective o, RateEvaluation now) {
  const std::vector<std::int32_t> nodes = nodes_by_thermal_impact(in);
  for (const RatePair& pair : rate_efficient_pairs(in)) {
    bool miss = false;
    for (std::size_t n = 0; n < nodes.size() && !miss; ++n) {
      const std::int32_t j = nodes[n];
      if (in.node_table[std::size_t(j)] != pair.table) continue;
      for (std::int32_t k = in.node_first_core[std::size_t(j)]; k < in.node_first_core[std::size_t(j) + 1] && !miss;
           ++k) {
        if (task_of(in, a, k) >= 0) continue;
        set_core(in, a, k, pair.task, pair.pstate);
        const RateEvaluation with = settle(in, a);
        miss = !with.feasible() || objective_of(with, o) <= objective_of(now, o) + 1e-12;
        if (miss) set_core(in, a, k, -1, 0);
        if (!miss) now = with;
      }
    }
  }
  settle(in, a);
  return now;
}

struct IpoptRun {
  std::vector<double> x;
  bool converged = false;
  std::int32_t iterations = 0;
  std::string status;
};

IpoptRun run_ipopt(const RateInstance& in, const Relaxation& r, const NlpOptions& options, double tc_max) {
  Ipopt::SmartPtr<Ipopt::IpoptApplication> app = IpoptApplicationFactory();
  app->Options()->SetIntegerValue("print_level", 0);
  app->Options()->SetStringValue("sb", "yes");
  app->Options()->SetIntegerValue("max_iter", options.max_iterations);
  app->Options()->SetNumericValue("max_cpu_time", options.time_limit_s);
  app->Options()->SetNumericValue("tol", 1e-9);
  app->Options()->SetNumericValue("acceptable_tol", 1e-6);
  std::istringstream no_option_file;  // not Initialize(): it would read ./ipopt.opt
  if (app->Initialize(no_option_file) != Ipopt::Solve_Succeeded) throw SimulationError("Ipopt: cannot initialise");
  auto* problem = new RateTnlp(in, r, options.objective, starting_point(in, r, options.objective), tc_max);
  Ipopt::SmartPtr<Ipopt::TNLP> owner = problem;
  const Ipopt::ApplicationReturnStatus status = app->OptimizeTNLP(owner);
  IpoptRun run;
  run.x = problem->solution.empty() ? starting_point(in, r, options.objective) : problem->solution;
  run.converged = problem->solved;
  run.status = std::to_string(int(status));
  if (IsValid(app->Statistics())) run.iterations = app->Statistics()->IterationCount();
  return run;
}

double relaxed_objective(const RateInstance& in, const Relaxation& r, const std::vector<double>& x, RateObjective o) {
  const std::vector<double> rate = task_rates(in, r, x.data(), o);
  double sum = 0;
  for (std::int32_t i = 0; i < in.tasks(); ++i) {
    const RateTaskType& t = in.tables.tasks[std::size_t(i)];
    sum += t.reward * std::min(rate[std::size_t(i)], t.arrival_rate_per_s);
  }
  return sum;
}

}  // namespace

void check_nlp_size(std::int64_t cores, const std::string& room) {
  if (cores <= kNlpMaxCores) return;
  throw InputError("ratebased_technique nlp: " + room + " has " + std::to_string(cores) + " cores, more than " +
                   std::to_string(kNlpMaxCores) + " (the NLP is for small rooms; use greedy or ga)");
}

NlpAnswer rate_nlp(const RateInstance& in, const NlpOptions& options) {
  check_nlp_size(in.cores(), "the room");
  const auto t0 = std::chrono::steady_clock::now();
  NlpAnswer out;
  out.result.allocation = idle_allocation(in);
  const RoomLoad idle(in, zone_power_w(in, out.result.allocation));
  if (!idle.feasible()) {
    out.result.allocation.crac_out_c = std::max(idle.highest_crac_out_c(), in.config.crac_out_min_c);
    out.result.evaluation = evaluate(in, out.result.allocation);
    out.status = "infeasible: the idle room breaks a constraint";
    return out;
  }
  const Relaxation r = relaxation_of(in);
  const IpoptRun run = run_ipopt(in, r, options, idle.highest_crac_out_c());
  out.relaxed_objective = relaxed_objective(in, r, run.x, options.objective);
  out.converged = run.converged;
  out.iterations = run.iterations;
  out.status = run.status;
  Allocation a = round_relaxation(in, r, run.x);
  fill(in, a, options.objective, trim(in, a, options.objective));
  out.result.evaluation = settle(in, a);
  out.result.allocation = std::move(a);
  out.result.feasible = out.result.evaluation.feasible();
  out.result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return out;
}

}  // namespace dcsweep
