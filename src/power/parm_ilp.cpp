// PARM's ILP (parm_ilp.hpp), solved exactly by branch and bound on its structure: a
// multiple-choice knapsack with two resources (nodes, watts).
//
// 1. Reduction. An option that does not fit the machine alone is dropped; so is an option with
//    no more value and no fewer nodes and watts than another of the same job (dominated), and a
//    pending job's option of value <= 0 (dominated by taking nothing).
// 2. Surrogate relaxation. With theta in [0, 1], every feasible choice meets the single
//    constraint sum s x <= 1, s = theta n / N + (1 - theta) w / W. The LP relaxation of that
//    one-constraint multiple-choice knapsack is solved exactly by the greedy of Sinha and
//    Zoltners: per job the upper concave hull of its (s, value) points (taking nothing is the
//    point (0, 0) of a pending job), the hulls' increments filled in order of value per s. Its
//    value bounds the ILP from above for every theta; theta is chosen by golden-section search
//    for the least bound (the surrogate dual is quasi-convex in theta).
// 3. Incumbent: a greedy by reduced cost rc = value - lambda s (lambda: the relaxation's critical
//    ratio), then one-option upgrades while they fit.
// 4. Reduced-cost fixing. L = lambda + sum over jobs of the job's largest rc bounds every
//    solution, and a solution using option o of job j is worth at most L - (max rc_j - rc_o). An
//    option (or a pending job's "nothing") whose bound cannot beat the incumbent is removed;
//    a job left with one possibility is fixed.
// 5. Depth-first branch and bound over the remaining jobs, each job's possibilities in
//    decreasing rc. A node is pruned when the nodes or watts overflow (counting the least that
//    the undecided running jobs need), when the Lagrangian bound above (O(1), incremental)
//    cannot beat the incumbent, and then when the surrogate LP bound of the undecided jobs over
//    the residual capacity (the greedy of 2 on the precomputed increments) cannot.
// 6. When 5 branches more than search_node_limit nodes (kParmSearchNodeLimit; random 200-job
//    decisions need up to 60,000; real decisions with many running jobs whose options differ by
//    little cannot be pruned: 78 million nodes on one of 41 jobs), the node row is solved exactly
//    by dynamic programming over the free node counts instead, with the power row priced at a
//    multiplier mu (Lagrangian relaxation, integral in the node row, so at least as strong as the
//    LP bound): mu W + max sum (v - mu w) x bounds every choice for every mu >= 0, and a DP choice
//    that fits the watts is feasible. mu = 0 settles the common case (the watts do not bind: the DP
//    choice is optimal); otherwise mu is bisected for the least bound. When that bound still beats
//    the best choice found, the DP run forward and backward at that mu bounds every item's best
//    completion (Lagrangian reduced-cost fixing); the items (and pending jobs' "nothing") that
//    cannot beat the incumbent go, and what is left is solved as an instance of its own (all of
//    1-6 again, with its own bounds: a real 4.5 MW decision of 29 jobs took 154 million nodes
//    without the fixing, 14 with it; one of 124 jobs 243 million, 7 million). When the fixing
//    removes nothing, 5 runs again without a limit.
// "Beat" means by more than 1e-10 relative: the result is optimal within that.
// 7. Work limits (ParmWorkLimit): every branch-and-bound node (5, and 5 again in 6's sub-instances)
//    and every DP cell update (6) is counted against the solve's limits; a DP table that would
//    exceed what is left is not built. When a limit stops the solve, the best choice found so far
//    is returned with the least valid upper bound met on the way: the root's surrogate LP and
//    Lagrangian bounds, and after any fixing, max(incumbent, the DP's Lagrangian bound) (what the
//    fixing removed cannot beat the incumbent).
#include "dcsweep/power/parm_ilp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <string>

#include "dcsweep/core/error.hpp"

namespace dcsweep {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kRelTol = 1e-10;
constexpr std::int32_t kNone = ParmSolution::kNone;
/// Largest DP table (jobs x node counts) section 6 builds: 2 bytes each.
constexpr std::size_t kDpCellLimit = std::size_t{1} << 27;
/// Largest forward and backward tables of section 6's fixing: 8 bytes each, two of them.
constexpr std::size_t kDpFixCellLimit = std::size_t{1} << 23;

/// Whether `bound` can beat `best` by more than the tolerance.
bool beats(double bound, double best) { return best == -kInf || bound > best + kRelTol * std::abs(best); }

/// What is left of the solve's ParmWorkLimit, shared by every phase and sub-instance.
struct Work {
  std::uint64_t phase_nodes, nodes_left, cells_left;
  std::uint64_t nodes_used = 0, cells_used = 0;

  void take_nodes(std::uint64_t nodes) {
    nodes = std::min(nodes, nodes_left);
    nodes_left -= nodes, nodes_used += nodes;
  }
  /// Takes `cells` when that many are left; false (nothing taken) when not.
  bool take_cells(double cells) {
    if (cells > double(cells_left)) return false;
    const auto n = static_cast<std::uint64_t>(cells);
    cells_left -= n, cells_used += n;
    return true;
  }
};

struct Item {
  double n, w, v;
  std::int32_t option;  ///< index in the instance's job
};

struct Job {
  std::int32_t id;  ///< index in the instance
  bool must;        ///< must take an item (running, or "nothing" fixed away)
  std::vector<Item> items;
};

/// Drops every item that another item of the same job dominates (ties: the lower option stays).
void drop_dominated(std::vector<Item>& items) {
  std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) {
    if (a.n != b.n) return a.n < b.n;
    if (a.w != b.w) return a.w < b.w;
    if (a.v != b.v) return a.v > b.v;
    return a.option < b.option;
  });
  // A dominator sorts before what it dominates, and domination is transitive: compare with kept.
  std::vector<Item> kept;
  for (const Item& i : items) {
    const bool dominated = std::any_of(kept.begin(), kept.end(), [&](const Item& k) { return k.w <= i.w && k.v >= i.v; });
    if (!dominated) kept.push_back(i);
  }
  items = std::move(kept);
}

/// The jobs with something to decide, or nullopt when a running job has no option that fits.
std::optional<std::vector<Job>> reduce(const ParmInstance& in, double power_cap) {
  std::vector<Job> jobs;
  for (std::size_t j = 0; j < in.jobs.size(); ++j) {
    const ParmJob& job = in.jobs[j];
    Job out{std::int32_t(j), job.running, {}};
    for (std::size_t o = 0; o < job.options.size(); ++o) {
      const ParmOption& opt = job.options[o];
      const double w = in.power_w(opt);
      if (opt.nodes > in.node_capacity || w > power_cap) continue;
      if (!job.running && !(opt.value > 0)) continue;
      out.items.push_back({double(opt.nodes), w, opt.value, std::int32_t(o)});
    }
    drop_dominated(out.items);
    if (out.items.empty()) {
      if (job.running) return std::nullopt;
      continue;
    }
    jobs.push_back(std::move(out));
  }
  return jobs;
}

/// The surrogate weight s = per_node n + per_watt w.
struct Weights {
  double per_node, per_watt;
  double of(const Item& i) const { return per_node * i.n + per_watt * i.w; }
  double of(double n, double w) const { return per_node * n + per_watt * w; }
};

struct Increment {
  double ds, dv;
  std::int32_t job;  ///< index in the solved job list
};

/// The surrogate LP over a job list (section 2 above), with what branch and bound reuses.
class SurrogateLp {
 public:
  struct Result {
    bool infeasible = false;  ///< the jobs' least weights alone exceed the capacity
    double value = 0;
    double critical = 0;  ///< value per s of the increment the capacity cuts (0: none cut)
  };

  Result solve(const std::vector<Job>& jobs, Weights ws) {
    base_s_.assign(jobs.size(), 0);
    base_v_.assign(jobs.size(), 0);
    increments_.clear();
    double base_s = 0, base_v = 0;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      hull(jobs[j], ws, std::int32_t(j));
      base_s += base_s_[j];
      base_v += base_v_[j];
    }
    std::sort(increments_.begin(), increments_.end(), [](const Increment& a, const Increment& b) {
      const double l = a.dv * b.ds, r = b.dv * a.ds;
      if (l != r) return l > r;
      return a.job < b.job;  // a job's own increments are already in decreasing ratio
    });
    Result r;
    double cap = 1 - base_s;
    if (cap < -1e-12) return {true, -kInf, 0};
    r.value = base_v + fill(std::max(cap, 0.0), 0, &r.critical);
    return r;
  }

  /// The LP value of the jobs with index >= first over capacity `cap` (their base included).
  double fill(double cap, std::int32_t first, double* critical = nullptr) const {
    double value = 0;
    for (const Increment& inc : increments_) {
      if (inc.job < first) continue;
      if (inc.ds <= cap) {
        cap -= inc.ds;
        value += inc.dv;
      } else {
        if (critical) *critical = inc.dv / inc.ds;
        return value + inc.dv * (cap / inc.ds);
      }
    }
    return value;
  }

  const std::vector<double>& base_s() const { return base_s_; }
  const std::vector<double>& base_v() const { return base_v_; }
  const std::vector<Increment>& increments() const { return increments_; }

 private:
  struct Point {
    double s, v;
  };

  /// The upper concave hull of the job's (s, v) points, from its least-weight point, as increments.
  void hull(const Job& job, Weights ws, std::int32_t index) {
    points_.clear();
    if (!job.must) points_.push_back({0, 0});
    for (const Item& i : job.items) points_.push_back({ws.of(i), i.v});
    std::sort(points_.begin(), points_.end(), [](const Point& a, const Point& b) { return a.s != b.s ? a.s < b.s : a.v > b.v; });
    chain_.clear();
    for (const Point& p : points_) {
      if (!chain_.empty() && p.v <= chain_.back().v) continue;  // heavier, not better
      while (chain_.size() >= 2) {
        const Point& a = chain_[chain_.size() - 2];
        const Point& b = chain_.back();
        if ((b.v - a.v) * (p.s - b.s) > (p.v - b.v) * (b.s - a.s)) break;  // b is on the hull
        chain_.pop_back();
      }
      chain_.push_back(p);
    }
    base_s_[std::size_t(index)] = chain_.front().s;
    base_v_[std::size_t(index)] = chain_.front().v;
    for (std::size_t k = 1; k < chain_.size(); ++k) {
      increments_.push_back({chain_[k].s - chain_[k - 1].s, chain_[k].v - chain_[k - 1].v, index});
    }
  }

  std::vector<double> base_s_, base_v_;
  std::vector<Increment> increments_;
  std::vector<Point> points_, chain_;
};

/// What every part of the solve shares.
struct Context {
  const ParmInstance& in;
  double cap_n, cap_w;  ///< N, and W_max with the tolerance of ParmInstance::power_fits
  Weights ws;
  double lambda;  ///< the relaxation's critical ratio
  double rc(const Item& i) const { return i.v - lambda * ws.of(i); }
  /// The job's largest reduced cost ("nothing" counts 0 for a pending job).
  double max_rc(const Job& job) const {
    double best = job.must ? -kInf : 0.0;
    for (const Item& i : job.items) best = std::max(best, rc(i));
    return best;
  }
};

/// A full choice (per instance job) and its value.
struct Incumbent {
  std::vector<std::int32_t> choice;
  double value = -kInf;
};

/// Section 3 above: running jobs first (keeping room for the others' least needs), then pending
/// jobs by decreasing best rc, then upgrades to a more valuable option while one fits.
std::optional<Incumbent> greedy(const Context& c, const std::vector<Job>& jobs) {
  std::vector<const Item*> pick(jobs.size(), nullptr);
  double used_n = 0, used_w = 0, reserve_n = 0, reserve_w = 0;
  for (const Job& job : jobs) {
    if (!job.must) continue;
    double min_n = kInf, min_w = kInf;
    for (const Item& i : job.items) min_n = std::min(min_n, i.n), min_w = std::min(min_w, i.w);
    reserve_n += min_n, reserve_w += min_w;
  }
  auto fits = [&](const Item& i, double extra_n, double extra_w) {
    return used_n + i.n + extra_n <= c.cap_n && used_w + i.w + extra_w <= c.cap_w;
  };
  auto best_fitting = [&](const Job& job, double extra_n, double extra_w, auto score) {
    const Item* best = nullptr;
    for (const Item& i : job.items) {
      if (fits(i, extra_n, extra_w) && (!best || score(i) > score(*best))) best = &i;
    }
    return best;
  };
  auto by_rc = [&](const Item& i) { return c.rc(i); };
  auto by_value = [](const Item& i) { return i.v; };
  auto take = [&](const Item* item, double sign) {
    if (item) used_n += sign * item->n, used_w += sign * item->w;
  };
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    if (!jobs[j].must) continue;
    double min_n = kInf, min_w = kInf;
    for (const Item& i : jobs[j].items) min_n = std::min(min_n, i.n), min_w = std::min(min_w, i.w);
    reserve_n -= min_n, reserve_w -= min_w;
    pick[j] = best_fitting(jobs[j], reserve_n, reserve_w, by_rc);
    if (!pick[j]) return std::nullopt;
    take(pick[j], 1);
  }
  std::vector<std::size_t> order;
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    if (!jobs[j].must) order.push_back(j);
  }
  std::vector<double> key(jobs.size());
  for (const std::size_t j : order) key[j] = c.max_rc(jobs[j]);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key[a] > key[b]; });
  for (const std::size_t j : order) {
    const Item* i = best_fitting(jobs[j], 0, 0, by_rc);
    if (i && c.rc(*i) > 0) pick[j] = i, take(i, 1);
  }
  for (int pass = 0; pass < 3; ++pass) {
    bool changed = false;
    for (std::size_t j = 0; j < jobs.size(); ++j) {
      take(pick[j], -1);
      const Item* i = best_fitting(jobs[j], 0, 0, by_value);
      if (i && (!pick[j] || i->v > pick[j]->v)) pick[j] = i, changed = true;
      take(pick[j], 1);
    }
    if (!changed) break;
  }
  Incumbent out{std::vector<std::int32_t>(c.in.jobs.size(), kNone), 0};
  for (std::size_t j = 0; j < jobs.size(); ++j) {
    if (!pick[j]) continue;
    out.choice[std::size_t(jobs[j].id)] = pick[j]->option;
    out.value += pick[j]->v;
  }
  return out;
}

/// The least surrogate bound over theta (golden section), and the jobs' relaxation at it.
struct Root {
  Weights ws{0, 0};
  SurrogateLp::Result lp;
};

std::optional<Root> best_surrogate(const Context& c, const std::vector<Job>& jobs) {
  SurrogateLp lp;
  Root best{{0, 0}, {false, kInf, 0}};
  bool infeasible = false;
  auto eval = [&](double theta) {
    const Weights ws{theta / c.cap_n, (1 - theta) / c.cap_w};
    const SurrogateLp::Result r = lp.solve(jobs, ws);
    if (r.infeasible) infeasible = true;
    if (r.value < best.lp.value) best = {ws, r};
    return r.value;
  };
  const double g = (std::sqrt(5.0) - 1) / 2;
  double lo = 0, hi = 1;
  eval(0), eval(1);
  double x1 = hi - g * (hi - lo), x2 = lo + g * (hi - lo);
  double f1 = eval(x1), f2 = eval(x2);
  for (int it = 0; it < 28 && !infeasible; ++it) {
    if (f1 <= f2) {
      hi = x2, x2 = x1, f2 = f1;
      x1 = hi - g * (hi - lo);
      f1 = eval(x1);
    } else {
      lo = x1, x1 = x2, f1 = f2;
      x2 = lo + g * (hi - lo);
      f2 = eval(x2);
    }
  }
  if (infeasible) return std::nullopt;
  return best;
}

/// Section 5 above over the free jobs (already in branching order), the fixed ones summed up.
class BranchAndBound {
 public:
  /// `fixed`: the fixed jobs' total, their (job, option) in `fixed_choice`.
  BranchAndBound(const Context& c, std::vector<Job> jobs, const Item& fixed,
                 std::vector<std::pair<std::int32_t, std::int32_t>> fixed_choice, Incumbent& best)
      : c_(c), jobs_(std::move(jobs)), fixed_(fixed), fixed_choice_(std::move(fixed_choice)), best_(best) {
    lp_.solve(jobs_, c.ws);
    const std::size_t m = jobs_.size();
    suffix_base_v_.assign(m + 1, 0), suffix_base_s_.assign(m + 1, 0), suffix_max_rc_.assign(m + 1, 0);
    suffix_need_n_.assign(m + 1, 0), suffix_need_w_.assign(m + 1, 0);
    choices_.resize(m);
    for (std::size_t k = m; k-- > 0;) {
      const Job& job = jobs_[k];
      double need_n = kInf, need_w = kInf;
      for (const Item& i : job.items) need_n = std::min(need_n, i.n), need_w = std::min(need_w, i.w);
      if (!job.must) need_n = need_w = 0;
      suffix_base_v_[k] = suffix_base_v_[k + 1] + lp_.base_v()[k];
      suffix_base_s_[k] = suffix_base_s_[k + 1] + lp_.base_s()[k];
      suffix_max_rc_[k] = suffix_max_rc_[k + 1] + c.max_rc(job);
      suffix_need_n_[k] = suffix_need_n_[k + 1] + need_n;
      suffix_need_w_[k] = suffix_need_w_[k + 1] + need_w;
      // The job's possibilities by decreasing rc ("nothing" as nullptr, rc 0).
      std::vector<const Item*>& options = choices_[k];
      for (const Item& i : job.items) options.push_back(&i);
      if (!job.must) options.push_back(nullptr);
      std::stable_sort(options.begin(), options.end(), [&](const Item* a, const Item* b) {
        return (a ? c.rc(*a) : 0.0) > (b ? c.rc(*b) : 0.0);
      });
    }
    path_.assign(m, nullptr);
    lagrangian_root_ = fixed.v + c.lambda * (1 - c.ws.of(fixed)) + suffix_max_rc_[0];
  }

  /// False when it stopped at `node_limit` nodes (the incumbent is then not proven optimal).
  bool run(std::uint64_t node_limit) {
    limit_ = node_limit;
    search(0, fixed_.v, fixed_.n, fixed_.w, 0);
    return nodes_ <= limit_;
  }
  std::uint64_t nodes() const { return nodes_; }

 private:
  void search(std::size_t d, double v, double n, double w, double rc_loss) {
    if (nodes_ > limit_) return;
    if (n + suffix_need_n_[d] > c_.cap_n || w + suffix_need_w_[d] > c_.cap_w) return;
    if (!beats(lagrangian_root_ - rc_loss, best_.value)) return;
    if (d == jobs_.size()) {
      if (beats(v, best_.value)) record(v);
      return;
    }
    const double cap = 1 - c_.ws.of(n, w) - suffix_base_s_[d];
    if (cap < -1e-12) return;
    if (!beats(v + suffix_base_v_[d] + lp_.fill(std::max(cap, 0.0), std::int32_t(d)), best_.value)) return;
    ++nodes_;
    const double top = c_.max_rc(jobs_[d]);
    for (const Item* i : choices_[d]) {
      const double loss = rc_loss + top - (i ? c_.rc(*i) : 0.0);
      if (!beats(lagrangian_root_ - loss, best_.value)) break;  // so are the rest: decreasing rc
      path_[d] = i;
      if (i) {
        search(d + 1, v + i->v, n + i->n, w + i->w, loss);
      } else {
        search(d + 1, v, n, w, loss);
      }
    }
  }

  void record(double v) {
    best_.value = v;
    std::fill(best_.choice.begin(), best_.choice.end(), kNone);
    for (const auto& [job, option] : fixed_choice_) best_.choice[std::size_t(job)] = option;
    for (std::size_t k = 0; k < jobs_.size(); ++k) {
      if (path_[k]) best_.choice[std::size_t(jobs_[k].id)] = path_[k]->option;
    }
  }

 private:
  const Context& c_;
  std::vector<Job> jobs_;
  Item fixed_;
  std::vector<std::pair<std::int32_t, std::int32_t>> fixed_choice_;
  Incumbent& best_;
  SurrogateLp lp_;
  std::vector<double> suffix_base_v_, suffix_base_s_, suffix_max_rc_, suffix_need_n_, suffix_need_w_;
  std::vector<std::vector<const Item*>> choices_;
  std::vector<const Item*> path_;
  double lagrangian_root_ = 0;
  std::uint64_t nodes_ = 0, limit_ = 0;
};

/// Section 6 above: the free jobs' node row solved exactly by dynamic programming over the node
/// counts above the running jobs' least (table entries: the candidate taken), watts priced at mu.
class NodeDp {
 public:
  struct Choice {
    double value = 0, watts = 0;  ///< the picks' true totals
    double bound = kInf;          ///< mu W + the DP optimum: no choice of these jobs is worth more
    std::vector<const Item*> pick;  ///< per job (nullptr: nothing)
  };

  NodeDp(const std::vector<Job>& jobs, double capacity) : jobs_(jobs) {
    for (const Job& job : jobs) {
      double least = kInf;
      for (const Item& i : job.items) least = std::min(least, i.n);
      base_.push_back(job.must ? least : 0.0);
      capacity -= base_.back();
    }
    capacity_ = capacity;
  }
  /// Whether the table fits kDpCellLimit (and some choice fits the nodes at all).
  bool usable() const {
    return capacity_ >= 0 && double(jobs_.size()) * (capacity_ + 1) <= double(kDpCellLimit);
  }
  /// Cell updates of one solve() (at most: every item a candidate).
  double solve_cells() const {
    double candidates = 0;
    for (const Job& job : jobs_) candidates += double(job.items.size()) + 1;
    return (capacity_ + 1) * candidates;
  }
  /// Cell updates of fix(): both tables, and each item's completion.
  double fix_cells() const { return 2 * solve_cells() + double(item_total()) * (capacity_ + 1); }

  Choice solve(double mu, double cap_w) {
    const std::size_t width = std::size_t(capacity_) + 1;
    std::vector<double> f(width, 0.0), g(width);
    from_.assign(jobs_.size() * width, 0);
    candidates_.resize(jobs_.size());
    for (std::size_t k = 0; k < jobs_.size(); ++k) {
      const std::vector<Candidate>& cands = candidates(k, mu);
      std::uint16_t* from = &from_[k * width];
      for (std::size_t cap = 0; cap < width; ++cap) {
        double best = -kInf;
        for (std::size_t q = 0; q < cands.size() && cands[q].dn <= cap; ++q) {
          const double val = f[cap - cands[q].dn] + cands[q].val;
          if (val > best) best = val, from[cap] = std::uint16_t(q);
        }
        g[cap] = best;
      }
      f.swap(g);
    }
    Choice out;
    out.bound = f.back() + mu * cap_w;
    out.pick.assign(jobs_.size(), nullptr);
    for (std::size_t k = jobs_.size(), cap = width - 1; k-- > 0;) {
      const Candidate& taken = candidates_[k][from_[k * width + cap]];
      out.pick[k] = taken.item;
      cap -= taken.dn;
      if (taken.item) out.value += taken.item->v, out.watts += taken.item->w;
    }
    return out;
  }

  /// Lagrangian reduced-cost fixing at `mu`: removes from `jobs` (the same list, in the same order)
  /// every item, and makes `must` every pending job's "nothing", whose best completion (the DP of
  /// the other jobs forward and backward, each job's item forced) cannot beat `best` - `fixed_v`.
  /// False when the tables would exceed kDpFixCellLimit (nothing removed).
  bool fix(double mu, double cap_w, double fixed_v, double best, std::vector<Job>& jobs) {
    const std::size_t width = std::size_t(capacity_) + 1, m = jobs_.size();
    if (double(m + 1) * double(width) > double(kDpFixCellLimit)) return false;
    std::vector<double> forward((m + 1) * width, 0.0), backward((m + 1) * width, 0.0);
    for (std::size_t k = 0; k < m; ++k) layer(candidates(k, mu), &forward[k * width], &forward[(k + 1) * width], width);
    for (std::size_t k = m; k-- > 0;) layer(candidates(k, mu), &backward[(k + 1) * width], &backward[k * width], width);
    // forward layer k: jobs before k; backward layer k + 1: jobs after k
    auto completion = [&](std::size_t k, std::size_t dn) {
      if (dn >= width) return -kInf;
      const double* f = &forward[k * width];
      const double* b = &backward[(k + 1) * width];
      double top = -kInf;
      for (std::size_t c = 0, room = width - 1 - dn; c <= room; ++c) top = std::max(top, f[c] + b[room - c]);
      return top + mu * cap_w + fixed_v;
    };
    for (std::size_t k = 0; k < m; ++k) {
      Job& job = jobs[k];
      std::erase_if(job.items, [&](const Item& i) {
        return !beats(completion(k, std::size_t(i.n - base_[k])) + i.v - mu * i.w, best);
      });
      if (!job.must && !beats(completion(k, 0), best)) job.must = true;
    }
    return true;
  }

 private:
  struct Candidate {
    std::size_t dn;  ///< nodes above the job's base
    double val;      ///< v - mu w
    const Item* item;  ///< nullptr: nothing
  };

  /// One DP step: `to`[c] = best of `from`[c - dn] + val over the candidates.
  static void layer(const std::vector<Candidate>& cands, const double* from, double* to, std::size_t width) {
    for (std::size_t cap = 0; cap < width; ++cap) {
      double top = -kInf;
      for (std::size_t q = 0; q < cands.size() && cands[q].dn <= cap; ++q) top = std::max(top, from[cap - cands[q].dn] + cands[q].val);
      to[cap] = top;
    }
  }

  /// Job k's candidates by increasing dn and strictly increasing val (a wider one worth no more
  /// never helps: the table is "at most this many nodes").
  const std::vector<Candidate>& candidates(std::size_t k, double mu) {
    std::vector<Candidate>& out = candidates_[k];
    out.clear();
    if (!jobs_[k].must) out.push_back({0, 0.0, nullptr});
    for (const Item& i : jobs_[k].items) out.push_back({std::size_t(i.n - base_[k]), i.v - mu * i.w, &i});
    std::stable_sort(out.begin(), out.end(), [](const Candidate& a, const Candidate& b) {
      return a.dn != b.dn ? a.dn < b.dn : a.val > b.val;
    });
    std::size_t kept = 0;
    for (const Candidate& c : out) {
      if (kept == 0 || c.val > out[kept - 1].val) out[kept++] = c;
    }
    out.resize(std::min<std::size_t>(kept, 65535));  // node levels are far fewer
    return out;
  }

  std::size_t item_total() const {
    std::size_t n = 0;
    for (const Job& job : jobs_) n += job.items.size();
    return n;
  }

  const std::vector<Job>& jobs_;
  std::vector<double> base_;
  double capacity_ = 0;
  std::vector<std::uint16_t> from_;
  std::vector<std::vector<Candidate>> candidates_;
};

/// What section 6 settled: whether `best` is proven optimal, and the least bound it met (valid
/// together with the incumbent: the optimum is at most max(best, bound)).
struct Settled {
  bool proven = false;
  double bound = kInf;
};

/// Section 6 above over the free jobs: improves `best` with the DP choices that fit the watts;
/// proven when no mu's bound beats it; if not, removes from `free` what the least bound's
/// multiplier proves useless (NodeDp::fix). Each DP table is paid for from `work` first.
Settled settle_by_node_dp(const Context& c, std::vector<Job>& free, const Item& fixed,
                          const std::vector<std::pair<std::int32_t, std::int32_t>>& fixed_choice, Incumbent& best,
                          Work& work) {
  NodeDp dp(free, c.cap_n - fixed.n);
  Settled out;
  if (!dp.usable()) return out;
  const double cap_w = c.cap_w - fixed.w;
  double best_mu = 0;
  auto try_mu = [&](double mu) {
    const NodeDp::Choice choice = dp.solve(mu, cap_w);
    if (fixed.v + choice.bound < out.bound) out.bound = fixed.v + choice.bound, best_mu = mu;
    const bool fits = choice.watts <= cap_w;
    if (fits && fixed.v + choice.value > best.value) {
      best.value = fixed.v + choice.value;
      std::fill(best.choice.begin(), best.choice.end(), kNone);
      for (const auto& [job, option] : fixed_choice) best.choice[std::size_t(job)] = option;
      for (std::size_t k = 0; k < free.size(); ++k) {
        if (choice.pick[k]) best.choice[std::size_t(free[k].id)] = choice.pick[k]->option;
      }
    }
    return fits;
  };
  if (!work.take_cells(dp.solve_cells())) return out;
  if (try_mu(0)) return {true, out.bound};  // the watts do not bind: the node row's optimum is the optimum
  double lo = 0, hi = 0;
  for (const Job& job : free) {
    for (const Item& i : job.items) hi = std::max(hi, i.w > 0 ? i.v / i.w : 0.0);
  }
  hi = hi * 2 + 1;  // above every item's value per watt: the DP takes the least watts it can
  for (int it = 0; it < 40 && beats(out.bound, best.value); ++it) {
    if (!work.take_cells(dp.solve_cells())) return out;
    const double mid = (lo + hi) / 2;
    (try_mu(mid) ? hi : lo) = mid;
  }
  if (!beats(out.bound, best.value)) return {true, out.bound};
  if (!work.take_cells(dp.fix_cells())) return out;
  dp.fix(best_mu, cap_w, fixed.v, best.value, free);
  // A job that must take an item and has none left: no choice beats the incumbent.
  out.proven = std::any_of(free.begin(), free.end(), [](const Job& job) { return job.must && job.items.empty(); });
  return out;
}

std::size_t item_count(const std::vector<Job>& jobs) {
  std::size_t n = 0;
  for (const Job& job : jobs) n += job.items.size();
  return n;
}

ParmSolution solve(const ParmInstance& in, Work& work);

/// What section 6's fixing left, solved as an instance of its own (every section again, with
/// bounds and fixing of the smaller instance: strictly fewer items, so this ends); improves `best`.
/// Returns the sub-instance's solution (its bound and whether it was proven).
ParmSolution solve_reduced(const ParmInstance& in, const std::vector<Job>& free, const Item& fixed,
                           const std::vector<std::pair<std::int32_t, std::int32_t>>& fixed_choice, Incumbent& best,
                           Work& work) {
  ParmInstance sub;
  sub.node_capacity = in.node_capacity - std::int64_t(fixed.n);
  sub.power_budget_w = std::max(0.0, in.power_budget_w - fixed.w);  // its own tolerance: no looser
  sub.node_static_w = 0;
  for (const Job& job : free) {
    ParmJob out{{}, job.must};
    for (const Item& i : job.items) out.options.push_back({std::int64_t(i.n), i.w / i.n, i.v});
    sub.jobs.push_back(std::move(out));
  }
  const ParmSolution r = solve(sub, work);
  if (r.feasible && fixed.v + r.objective > best.value) {
    best.value = fixed.v + r.objective;
    std::fill(best.choice.begin(), best.choice.end(), kNone);
    for (const auto& [job, option] : fixed_choice) best.choice[std::size_t(job)] = option;
    for (std::size_t k = 0; k < free.size(); ++k) {
      if (r.choice[k] != kNone) best.choice[std::size_t(free[k].id)] = free[k].items[std::size_t(r.choice[k])].option;
    }
  }
  return r;
}

ParmSolution infeasible_solution() { return ParmSolution{}; }

}  // namespace

void check_parm_instance(const ParmInstance& in) {
  if (in.node_capacity < 0) throw InputError("PARM ILP: node_capacity must be >= 0");
  if (!(std::isfinite(in.power_budget_w) && in.power_budget_w >= 0)) throw InputError("PARM ILP: power_budget_w must be finite and >= 0");
  if (!(std::isfinite(in.node_static_w) && in.node_static_w >= 0)) throw InputError("PARM ILP: node_static_w must be finite and >= 0");
  for (std::size_t j = 0; j < in.jobs.size(); ++j) {
    const auto& options = in.jobs[j].options;
    if (options.size() > std::size_t(std::numeric_limits<std::int32_t>::max())) throw InputError("PARM ILP: too many options");
    for (std::size_t o = 0; o < options.size(); ++o) {
      const ParmOption& opt = options[o];
      const std::string where = "PARM ILP: job " + std::to_string(j) + " option " + std::to_string(o) + ": ";
      if (opt.nodes < 1) throw InputError(where + "nodes must be >= 1");
      if (!(std::isfinite(opt.cpu_cap_w) && opt.cpu_cap_w >= 0)) throw InputError(where + "cpu_cap_w must be finite and >= 0");
      if (!std::isfinite(opt.value)) throw InputError(where + "value must be finite");
    }
  }
}

ParmSolution evaluate_parm_choice(const ParmInstance& in, std::vector<std::int32_t> choice) {
  if (choice.size() != in.jobs.size()) throw InputError("PARM ILP: a choice needs one entry per job");
  ParmSolution s;
  s.feasible = true;
  for (std::size_t j = 0; j < in.jobs.size(); ++j) {
    const std::int32_t o = choice[j];
    const auto& options = in.jobs[j].options;
    if (o == kNone) {
      if (in.jobs[j].running) s.feasible = false;
      continue;
    }
    if (o < 0 || std::size_t(o) >= options.size()) throw InputError("PARM ILP: job " + std::to_string(j) + " has no option " + std::to_string(o));
    s.objective += options[std::size_t(o)].value;
    s.nodes_used += options[std::size_t(o)].nodes;
    s.power_used_w += in.power_w(options[std::size_t(o)]);
  }
  s.feasible = s.feasible && s.nodes_used <= in.node_capacity && in.power_fits(s.power_used_w);
  s.choice = std::move(choice);
  return s;
}

namespace {

/// The jobs in branching order: the marginal ones first (largest rc nearest 0: the relaxation is
/// least sure whether, or how, to run them), so that the bounds fall early in the branches that
/// leave them out. (Ordering by the steepest hull step first instead took up to 1,000 x longer.)
void branching_order(const Context& c, std::vector<Job>& free) {
  std::vector<double> key(free.size());
  for (std::size_t k = 0; k < free.size(); ++k) key[k] = std::abs(c.max_rc(free[k]));
  std::vector<std::size_t> order(free.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key[a] < key[b]; });
  std::vector<Job> sorted;
  for (const std::size_t k : order) sorted.push_back(std::move(free[k]));
  free = std::move(sorted);
}

/// The incumbent as a solution, with whether it is proven and its bound.
ParmSolution finish(const ParmInstance& in, const Incumbent& best, bool proven, double bound) {
  if (best.value == -kInf) {
    ParmSolution none;
    none.proven = proven;
    return none;
  }
  ParmSolution out = evaluate_parm_choice(in, best.choice);
  if (!out.feasible) throw SimulationError("PARM ILP: the branch and bound returned an infeasible choice");
  out.proven = proven;
  out.upper_bound = proven ? out.objective : std::max(out.objective, bound);
  return out;
}

ParmSolution solve(const ParmInstance& in, Work& work) {
  const double cap_w = in.power_budget_w * (1 + 1e-12) + 1e-9;  // ParmInstance::power_fits
  std::optional<std::vector<Job>> reduced = reduce(in, cap_w);
  if (!reduced) return infeasible_solution();
  std::vector<Job>& jobs = *reduced;
  if (jobs.empty()) return finish(in, {std::vector<std::int32_t>(in.jobs.size(), kNone), 0}, true, 0);

  Context c{in, double(in.node_capacity), cap_w, {0, 0}, 0};
  const std::optional<Root> root = best_surrogate(c, jobs);
  if (!root) return infeasible_solution();
  c.ws = root->ws;
  c.lambda = root->lp.critical;
  Incumbent best = greedy(c, jobs).value_or(Incumbent{std::vector<std::int32_t>(in.jobs.size(), kNone), -kInf});

  // Reduced-cost fixing (section 4 above).
  double lagrangian = c.lambda;
  for (const Job& job : jobs) lagrangian += c.max_rc(job);
  const double root_bound = std::min(root->lp.value, lagrangian);
  Item fixed{0, 0, 0, kNone};
  std::vector<std::pair<std::int32_t, std::int32_t>> fixed_choice;
  std::vector<Job> free;
  for (Job& job : jobs) {
    const double top = c.max_rc(job);
    std::erase_if(job.items, [&](const Item& i) { return !beats(lagrangian - (top - c.rc(i)), best.value); });
    if (!job.must && !beats(lagrangian - top, best.value)) job.must = true;
    // No completion through this job beats the incumbent: it is optimal (or nothing is feasible).
    if (job.must && job.items.empty()) return finish(in, best, true, root_bound);
    if (job.items.empty()) continue;  // only "nothing" is left
    if (job.must && job.items.size() == 1) {
      const Item& i = job.items.front();
      fixed.n += i.n, fixed.w += i.w, fixed.v += i.v;
      fixed_choice.emplace_back(job.id, i.option);
      continue;
    }
    free.push_back(std::move(job));
  }
  branching_order(c, free);
  std::vector<Job> free_jobs = free;  // section 6 may need them after the search took its copy
  BranchAndBound search(c, std::move(free), fixed, fixed_choice, best);
  const bool searched = search.run(std::min(work.phase_nodes, work.nodes_left));
  work.take_nodes(search.nodes());
  if (searched) return finish(in, best, true, root_bound);
  const std::size_t items_before = item_count(free_jobs);
  const Settled settled = settle_by_node_dp(c, free_jobs, fixed, fixed_choice, best, work);
  if (settled.proven) return finish(in, best, true, root_bound);
  // After the fixings, the optimum is the incumbent or a choice of the free jobs left.
  double fixed_bound = settled.bound;
  bool proven = false;
  if (item_count(free_jobs) < items_before) {
    const ParmSolution sub = solve_reduced(in, free_jobs, fixed, fixed_choice, best, work);
    proven = sub.proven;
    if (sub.feasible) fixed_bound = std::min(fixed_bound, fixed.v + sub.upper_bound);
  } else {
    BranchAndBound again(c, free_jobs, fixed, fixed_choice, best);
    proven = again.run(work.nodes_left);
    work.take_nodes(again.nodes());
  }
  return finish(in, best, proven, std::min(root_bound, std::max(best.value, fixed_bound)));
}

}  // namespace

double ParmSolution::gap() const {
  if (proven || !(upper_bound > objective)) return 0;
  return upper_bound == 0 ? 0 : (upper_bound - objective) / std::abs(upper_bound);
}

ParmSolution solve_parm_ilp(const ParmInstance& in, const ParmWorkLimit& limit) {
  check_parm_instance(in);
  Work work{limit.phase_search_nodes, limit.search_nodes, limit.dp_cells};
  ParmSolution out = solve(in, work);
  out.search_nodes = work.nodes_used;
  out.dp_cells = work.cells_used;
  return out;
}

}  // namespace dcsweep
