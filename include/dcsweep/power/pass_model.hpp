#pragma once
// [P2]'s Power Aware Strong Scaling (PASS) performance model (section V) and the costs PARM's
// large-scale projection uses (section VII): how fast a job runs on n nodes under a CPU power cap
// p, relative to a reference combination (Eq. 7), from
//   Downey's strong scaling, adjusted to t(1) = T_1 (Eq. 9-11)        -> t(n) / T_1
//   execution time as a function of frequency (Eq. 12-16)             -> t(f) / T_h
//   CPU power as a function of frequency, inverted (Eq. 18-19)        -> f = F^-1(p)
// with T_h of Eq. 12-16 replaced by t(n) (section V-B-3), so t(n, p) = T_1 x D(n) x G(p).
// Per-job application parameters are sampled from Table IV's ranges (MODELS.md section 6). Also
// the shrink/expand cost (Eq. 20-21) and the node count of naive overprovisioning (Table VI).
#include <cstdint>
#include <vector>

#include "dcsweep/core/rng.hpp"

namespace dcsweep {

/// Node power outside the CPU in [P2] (section VI-D): memory capped at 18 W, base 38 W.
inline constexpr double kParmMemoryW = 18.0;
inline constexpr double kParmBaseW = 38.0;

/// One application's PASS parameters (Tables III and IV).
struct PassParams {
  double avg_parallelism = 1;  ///< A (nodes), >= 1
  double sigma = 0;            ///< Downey's sigma in [0, 1]: fraction of the run not at parallelism A
  double a = 2, b = 8, c_w = 13.5;  ///< Eq. 18: p = a f^3 + b f + c (W, f in GHz)
  double p_low_w = 31;         ///< p_l = F(f_l): the lowest cap reached by DVFS alone
  double p_high_w = 45;        ///< p_h = F(f_h): above it the run time no longer falls
  double beta = 0.2;           ///< Eq. 14: (T_l - T_h) / T_l, in [0, 1)
};

/// InputError naming the field when `p` is outside the model's domain (A < 1, sigma outside
/// [0, 1], a or b not positive, c_w < p_low_w < p_high_w violated, beta outside [0, 1)).
void check_pass_params(const PassParams& p);

/// Eq. 9-11: t(n) / T_1 on `nodes` (>= 1, real) nodes. Decreasing in n up to 2A - 1, constant
/// T_1 / A beyond (Eq. 11).
double downey_time_fraction(double nodes, double avg_parallelism, double sigma);

/// Eq. 18: the CPU power at frequency f (GHz).
double cpu_power_w(const PassParams& p, double freq_ghz);
/// Eq. 19: the frequency at which the CPU draws `power_w` (> c_w): the one real root of
/// a f^3 + b f + (c - p) = 0 (Cardano). The paper prints the second cube root with a + where the
/// root needs a - (check: b = 0 must give cbrt((p - c) / a)); this uses the root, evaluated as
/// u - b / (3 a u) with u the first cube root, which avoids the cancellation of the difference.
double cpu_frequency_ghz(const PassParams& p, double power_w);

/// Eq. 12-16: t(p) / T_h under a CPU cap `power_w` (> c_w): 1 at or above p_h (Eq. 13), else
/// W_cpu / f + T_mem with W_cpu, T_mem from Eq. 15-16 (so 1 / (1 - beta) at p_l).
/// Gap: [P2] studies only caps >= p_l (below it the CPU throttles); below p_l this extends
/// Eq. 12 with f = F^-1(p) < f_l (continuous and increasing as the cap falls). A scheduler that
/// wants the paper's restriction drops such caps (`pass_admits_cap`).
double frequency_time_factor(const PassParams& p, double power_w);
/// Whether a cap lies in the range [P2] models by measurement (>= p_l).
bool pass_admits_cap(const PassParams& p, double power_w);

/// t(n, p) / T_1 = D(n) x G(p) (section V-B-3: T_h replaced by t(n)).
double pass_time_fraction(const PassParams& p, double nodes, double power_w);
/// Eq. 7: s = t(n_ref, p_ref) / t(n, p), the speed on (nodes, power_w) relative to the reference
/// combination (PARM's reference is (min N_j, min P_j)). 1 at the reference; InputError outside
/// the domain (nodes < 1, power <= c_w).
double pass_speed(const PassParams& p, double nodes, double power_w, double ref_nodes, double ref_power_w);

/// The sampling ranges of a job's parameters: Table IV's for a, b, c, p_l, p_h, beta; theta from
/// section VII-B-3. Gap: [P2] samples A and sigma "from the range of the applications" but prints
/// neither; here A = max(1, avg_parallelism_factor x max nodes) and sigma uniform in its range
/// (both choices; a sweep can change them).
struct PassRanges {
  double a_lo = 1.54, a_hi = 3.00;
  double b_lo = 6.57, b_hi = 10.23;
  double c_lo_w = 13, c_hi_w = 14;
  double p_low_lo_w = 30, p_low_hi_w = 32;
  double p_high_lo_w = 37, p_high_hi_w = 54;
  double beta_lo = 0.08, beta_hi = 0.40;
  double sigma_lo = 0, sigma_hi = 1;
  double parallelism_factor_lo = 0.5, parallelism_factor_hi = 1.5;  ///< A / max nodes
  double theta_lo = 0.2, theta_hi = 0.6;                             ///< min nodes / max nodes
};
/// InputError when a range is reversed or leaves the model's domain.
void check_pass_ranges(const PassRanges& r);

/// One job's parameters, each uniform on its range, drawn from `rng` in the field order of
/// PassParams (a fixed order: part of reproducibility). `max_nodes` >= 1 sets A.
PassParams sample_pass_params(RngStream& rng, double max_nodes, const PassRanges& ranges = {});
/// min(N_j) = theta x max(N_j), theta uniform on the range, rounded to the nearest node, >= 1.
std::int64_t sample_min_nodes(RngStream& rng, std::int64_t max_nodes, const PassRanges& ranges = {});
/// `count` node counts spread uniformly over [min_nodes, max_nodes] (rounded, ascending,
/// duplicates removed): [P2]'s N_j (|N_j| = 8 in section VI-E).
std::vector<std::int64_t> node_levels(std::int64_t min_nodes, std::int64_t max_nodes, int count);

/// One job of a simulation under the PASS model: its application parameters and node range
/// ([P2] section VII-B-2, 3: the trace's node count is max N_j, min N_j = theta x max N_j).
struct PassJob {
  PassParams params;
  std::int64_t min_nodes = 1, max_nodes = 1;
  /// t(n, p) / T_1.
  double time_fraction(double nodes, double cpu_cap_w) const { return pass_time_fraction(params, nodes, cpu_cap_w); }
};
/// The draw of the job with trace id `job_id` and `trace_nodes` nodes (its max N_j) from its own
/// substream (key, StreamPurpose::pass_job, job_id): params first (sample_pass_params), then min
/// nodes (sample_min_nodes).
/// A job gets the same characteristics whatever the policy or the other jobs, so the runtime model
/// (which runs jobs) and the scheduler (which plans with the model) see the same application.
PassJob sample_pass_job(StreamKey key, std::int64_t job_id, std::int64_t trace_nodes, const PassRanges& ranges = {});

/// Eq. 20: seconds to redistribute `memory_mb` of data when a job goes from `from_nodes` to
/// `to_nodes` over links of `link_mb_per_s`: the data leaving (expand) or joining (shrink) the
/// smaller node set over the bisection 2 b n^(2/3) of that set's cuboid. Gap: Eq. 20 is written
/// for an expand (n_f < n_t); for a shrink [P2] only says the data of n_f - n_t nodes is spread
/// over the n_t, which is Eq. 20 with the roles swapped: used here. 0 when the counts are equal.
double redistribution_time_s(double memory_mb, std::int64_t from_nodes, std::int64_t to_nodes, double link_mb_per_s);
/// Eq. 21: boot time of the nodes an expand adds, 0.01904 (n_t - n_f) + 72.73 s; 0 when nothing
/// is booted (n_t <= n_f: a shrink or no change).
double boot_time_s(std::int64_t from_nodes, std::int64_t to_nodes);
/// t_se = t_c + t_b (section VII-A).
double shrink_expand_time_s(double memory_mb, std::int64_t from_nodes, std::int64_t to_nodes, double link_mb_per_s);

/// Naive overprovisioning (section VII-D, Table VI): floor(budget / (cap + memory + base)) nodes.
std::int64_t naive_node_count(double power_budget_w, double cpu_cap_w, double memory_w = kParmMemoryW,
                              double base_w = kParmBaseW);

}  // namespace dcsweep
