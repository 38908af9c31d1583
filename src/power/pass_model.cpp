// The PASS model of [P2] section V and the shrink/expand costs of section VII-A (pass_model.hpp).
#include "dcsweep/power/pass_model.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "dcsweep/core/error.hpp"

namespace dcsweep {
namespace {

void require(bool ok, const std::string& what) {
  if (!ok) throw InputError("PASS model: " + what);
}

bool finite_all(std::initializer_list<double> values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

void require_range(double lo, double hi, const char* name) {
  require(std::isfinite(lo) && std::isfinite(hi) && lo <= hi, std::string(name) + " range must be finite with lo <= hi");
}

}  // namespace

void check_pass_params(const PassParams& p) {
  require(finite_all({p.avg_parallelism, p.sigma, p.a, p.b, p.c_w, p.p_low_w, p.p_high_w, p.beta}),
          "parameters must be finite");
  require(p.avg_parallelism >= 1, "avg_parallelism (A) must be >= 1");
  require(p.sigma >= 0 && p.sigma <= 1, "sigma must lie in [0, 1]");
  require(p.a > 0 && p.b > 0, "a and b (Eq. 18) must be positive");
  require(p.c_w >= 0 && p.c_w < p.p_low_w, "need 0 <= c_w < p_low_w");
  require(p.p_low_w < p.p_high_w, "need p_low_w < p_high_w");
  require(p.beta >= 0 && p.beta < 1, "beta must lie in [0, 1)");
}

double downey_time_fraction(double nodes, double avg_parallelism, double sigma) {
  require(nodes >= 1 && std::isfinite(nodes), "node count must be >= 1");
  const double a = avg_parallelism, s = sigma;
  if (nodes <= a) return (1 - s / (2 * a)) / nodes + s / (2 * a);          // Eq. 9
  if (nodes <= 2 * a - 1) return s * (1 - 1 / (2 * a)) / nodes + 1 / a - s / (2 * a);  // Eq. 10
  return 1 / a;                                                              // Eq. 11
}

double cpu_power_w(const PassParams& p, double freq_ghz) { return p.a * freq_ghz * freq_ghz * freq_ghz + p.b * freq_ghz + p.c_w; }  // Eq. 18

double cpu_frequency_ghz(const PassParams& p, double power_w) {
  require(power_w > p.c_w && std::isfinite(power_w), "CPU cap must exceed the base CPU power c");
  // Eq. 19 for f^3 + (b/a) f - (p - c)/a = 0: f = u - b / (3 a u), u = cbrt(q + sqrt(q^2 + (b / 3a)^3)).
  const double q = (power_w - p.c_w) / (2 * p.a);
  const double r = p.b / (3 * p.a);
  const double u = std::cbrt(q + std::sqrt(q * q + r * r * r));
  return u - r / u;
}

double frequency_time_factor(const PassParams& p, double power_w) {
  if (power_w >= p.p_high_w) return 1;  // Eq. 13: t = T_h
  const double f = cpu_frequency_ghz(p, power_w);
  const double f_l = cpu_frequency_ghz(p, p.p_low_w), f_h = cpu_frequency_ghz(p, p.p_high_w);
  // Eq. 15-16 divided by T_h: W_cpu / T_h = beta f_l f_h / ((1 - beta)(f_h - f_l)),
  // T_mem / T_h = 1 - beta f_l / ((1 - beta)(f_h - f_l)); Eq. 12: t = W_cpu / f + T_mem.
  const double k = p.beta * f_l / ((1 - p.beta) * (f_h - f_l));
  return k * f_h / f + 1 - k;
}

bool pass_admits_cap(const PassParams& p, double power_w) { return power_w >= p.p_low_w; }

double pass_time_fraction(const PassParams& p, double nodes, double power_w) {
  return downey_time_fraction(nodes, p.avg_parallelism, p.sigma) * frequency_time_factor(p, power_w);
}

double pass_speed(const PassParams& p, double nodes, double power_w, double ref_nodes, double ref_power_w) {
  return pass_time_fraction(p, ref_nodes, ref_power_w) / pass_time_fraction(p, nodes, power_w);  // Eq. 7
}

void check_pass_ranges(const PassRanges& r) {
  require_range(r.a_lo, r.a_hi, "a");
  require_range(r.b_lo, r.b_hi, "b");
  require_range(r.c_lo_w, r.c_hi_w, "c");
  require_range(r.p_low_lo_w, r.p_low_hi_w, "p_low");
  require_range(r.p_high_lo_w, r.p_high_hi_w, "p_high");
  require_range(r.beta_lo, r.beta_hi, "beta");
  require_range(r.sigma_lo, r.sigma_hi, "sigma");
  require_range(r.parallelism_factor_lo, r.parallelism_factor_hi, "parallelism factor");
  require_range(r.theta_lo, r.theta_hi, "theta");
  require(r.a_lo > 0 && r.b_lo > 0, "a and b must be positive");
  require(r.c_lo_w >= 0 && r.c_hi_w < r.p_low_lo_w, "need 0 <= c < p_low over the whole ranges");
  require(r.p_low_hi_w < r.p_high_lo_w, "need p_low < p_high over the whole ranges");
  require(r.beta_lo >= 0 && r.beta_hi < 1, "beta must lie in [0, 1)");
  require(r.sigma_lo >= 0 && r.sigma_hi <= 1, "sigma must lie in [0, 1]");
  require(r.parallelism_factor_lo > 0, "the parallelism factor must be positive");
  require(r.theta_lo > 0 && r.theta_hi <= 1, "theta must lie in (0, 1]");
}

PassParams sample_pass_params(RngStream& rng, double max_nodes, const PassRanges& r) {
  check_pass_ranges(r);
  require(max_nodes >= 1 && std::isfinite(max_nodes), "max nodes must be >= 1");
  PassParams p;
  p.avg_parallelism = std::max(1.0, rng.uniform(r.parallelism_factor_lo, r.parallelism_factor_hi) * max_nodes);
  p.sigma = rng.uniform(r.sigma_lo, r.sigma_hi);
  p.a = rng.uniform(r.a_lo, r.a_hi);
  p.b = rng.uniform(r.b_lo, r.b_hi);
  p.c_w = rng.uniform(r.c_lo_w, r.c_hi_w);
  p.p_low_w = rng.uniform(r.p_low_lo_w, r.p_low_hi_w);
  p.p_high_w = rng.uniform(r.p_high_lo_w, r.p_high_hi_w);
  p.beta = rng.uniform(r.beta_lo, r.beta_hi);
  return p;
}

std::int64_t sample_min_nodes(RngStream& rng, std::int64_t max_nodes, const PassRanges& r) {
  check_pass_ranges(r);
  require(max_nodes >= 1, "max nodes must be >= 1");
  const double theta = rng.uniform(r.theta_lo, r.theta_hi);
  return std::clamp<std::int64_t>(std::llround(theta * double(max_nodes)), 1, max_nodes);
}

std::vector<std::int64_t> node_levels(std::int64_t min_nodes, std::int64_t max_nodes, int count) {
  require(min_nodes >= 1 && min_nodes <= max_nodes, "need 1 <= min nodes <= max nodes");
  require(count >= 1, "need at least one node level");
  std::vector<std::int64_t> levels;
  for (int i = 0; i < count; ++i) {
    const double t = count == 1 ? 1.0 : double(i) / double(count - 1);
    const std::int64_t n = std::llround(double(min_nodes) + t * double(max_nodes - min_nodes));
    if (levels.empty() || levels.back() != n) levels.push_back(n);
  }
  return levels;
}

PassJob sample_pass_job(StreamKey key, std::int64_t job_id, std::int64_t trace_nodes, const PassRanges& ranges) {
  RngStream rng(key, StreamPurpose::pass_job, static_cast<std::uint64_t>(job_id));
  PassJob out;
  out.max_nodes = std::max<std::int64_t>(1, trace_nodes);
  out.params = sample_pass_params(rng, double(out.max_nodes), ranges);
  out.min_nodes = sample_min_nodes(rng, out.max_nodes, ranges);
  return out;
}

double redistribution_time_s(double memory_mb, std::int64_t from_nodes, std::int64_t to_nodes, double link_mb_per_s) {
  require(from_nodes >= 1 && to_nodes >= 1, "node counts must be >= 1");
  require(memory_mb >= 0 && std::isfinite(memory_mb), "job memory must be finite and >= 0");
  require(link_mb_per_s > 0 && std::isfinite(link_mb_per_s), "link bandwidth must be positive");
  const double small = double(std::min(from_nodes, to_nodes)), large = double(std::max(from_nodes, to_nodes));
  // Eq. 20: (m / n_small - m / n_large) x n_small over 2 b n_small^(2/3).
  return (memory_mb / small - memory_mb / large) * small / (2 * link_mb_per_s * std::pow(small, 2.0 / 3.0));
}

double boot_time_s(std::int64_t from_nodes, std::int64_t to_nodes) {
  if (to_nodes <= from_nodes) return 0;
  return double(to_nodes - from_nodes) * 0.01904 + 72.73;  // Eq. 21
}

double shrink_expand_time_s(double memory_mb, std::int64_t from_nodes, std::int64_t to_nodes, double link_mb_per_s) {
  return redistribution_time_s(memory_mb, from_nodes, to_nodes, link_mb_per_s) + boot_time_s(from_nodes, to_nodes);
}

std::int64_t naive_node_count(double power_budget_w, double cpu_cap_w, double memory_w, double base_w) {
  require(finite_all({power_budget_w, cpu_cap_w, memory_w, base_w}) && power_budget_w >= 0,
          "naive overprovisioning needs a finite budget >= 0 and finite powers");
  const double node_w = cpu_cap_w + memory_w + base_w;
  require(node_w > 0, "a node must draw a positive power");
  return static_cast<std::int64_t>(std::floor(power_budget_w / node_w));
}

}  // namespace dcsweep
