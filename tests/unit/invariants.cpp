#include "invariants.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>

namespace dcsweep::test {
namespace {

std::string job_text(const Job& j) { return "job " + std::to_string(j.id); }

}  // namespace

void NodeExclusivityChecker::on_job_start(double t, const Placement& placement) {
  const Job& job = placement.job;
  const std::span<const NodeId> nodes = placement.nodes;
  if (static_cast<std::int32_t>(nodes.size()) != placement.config.nodes_of(job)) {
    violations.push_back(job_text(job) + " got " + std::to_string(nodes.size()) + " nodes, wants " +
                         std::to_string(job.nodes));
  }
  for (const NodeId n : nodes) {
    if (n < 0 || static_cast<std::size_t>(n) >= owner_.size()) {
      violations.push_back(job_text(job) + " got node " + std::to_string(n) + " out of range");
    } else if (owner_[n] != -1) {
      violations.push_back(job_text(job) + " at " + std::to_string(t) + " got node " + std::to_string(n) +
                           " still held by job " + std::to_string(owner_[n]));
    } else {
      owner_[n] = job.id;
    }
  }
}

void NodeExclusivityChecker::on_job_end(double, const Placement& placement, bool) {
  for (const NodeId n : placement.nodes) {
    if (n >= 0 && static_cast<std::size_t>(n) < owner_.size()) owner_[n] = -1;
  }
}

std::vector<std::string> check_schedule(const Workload& w, const std::vector<JobOutcome>& out, std::int32_t nodes,
                                        const std::vector<double>& scale) {
  std::vector<std::string> v;
  if (out.size() != w.jobs.size()) v.push_back("outcome count differs from job count");
  std::vector<std::pair<double, std::int64_t>> deltas;  // (time, +nodes / -nodes); ends sort first
  for (std::size_t i = 0; i < out.size() && v.size() < 20; ++i) {
    const Job& j = w.jobs[i];
    const JobOutcome& o = out[i];
    if (!std::isfinite(o.start_s)) v.push_back(job_text(j) + " never started");
    if (o.start_s < j.submit_s) v.push_back(job_text(j) + " starts before it is submitted");
    const bool should_kill = j.runtime_s > j.estimate_s;
    if (o.killed != should_kill) v.push_back(job_text(j) + " kill flag wrong");
    const double factor = scale.empty() ? 1.0 : scale[i];
    const double end = o.start_s + std::min(j.runtime_s, j.estimate_s) * factor;
    if (std::abs(o.end_s - end) > 1e-9 * std::max(1.0, end)) v.push_back(job_text(j) + " end wrong");
    deltas.emplace_back(o.start_s, j.nodes);
    deltas.emplace_back(o.end_s, -j.nodes);
  }
  std::sort(deltas.begin(), deltas.end());
  std::int64_t busy = 0;
  for (const auto& [t, d] : deltas) {
    busy += d;
    if (busy > nodes) {
      v.push_back("at " + std::to_string(t) + " " + std::to_string(busy) + " nodes busy on " + std::to_string(nodes));
      break;
    }
  }
  return v;
}

std::vector<std::string> check_fcfs_order(const Workload& w, const std::vector<JobOutcome>& out) {
  for (std::size_t i = 1; i < out.size(); ++i) {
    if (out[i].start_s < out[i - 1].start_s) return {job_text(w.jobs[i]) + " passed an earlier job under FCFS"};
  }
  return {};
}

std::vector<std::string> check_easy_reservations(const Workload& w, const std::vector<JobOutcome>& out,
                                                 std::int32_t nodes, const std::vector<double>& scale) {
  auto estimate = [&](std::size_t k) { return w.jobs[k].estimate_s * (scale.empty() ? 1.0 : scale[k]); };
  const std::size_t n = out.size();
  std::vector<std::size_t> by_start(n), by_end(n);
  std::iota(by_start.begin(), by_start.end(), 0);
  std::iota(by_end.begin(), by_end.end(), 0);
  std::sort(by_start.begin(), by_start.end(), [&](auto a, auto b) { return out[a].start_s < out[b].start_s; });
  std::sort(by_end.begin(), by_end.end(), [&](auto a, auto b) { return out[a].end_s < out[b].end_s; });
  std::set<std::pair<double, std::size_t>> running;  // (estimated end, job)
  std::int64_t busy = 0;
  std::size_t next_start = 0, next_end = 0;
  double earlier_starts = -INFINITY;
  std::vector<std::string> v;
  for (std::size_t i = 0; i < n && v.size() < 20; ++i) {
    const Job& job = w.jobs[i];
    const double head_at = std::max(job.submit_s, earlier_starts);
    earlier_starts = std::max(earlier_starts, out[i].start_s);
    if (out[i].start_s == head_at) continue;  // started as soon as it was head: no reservation needed
    for (; next_start < n && out[by_start[next_start]].start_s <= head_at; ++next_start) {
      const std::size_t k = by_start[next_start];
      running.insert({out[k].start_s + estimate(k), k});
      busy += w.jobs[k].nodes;
    }
    for (; next_end < n && out[by_end[next_end]].end_s <= head_at; ++next_end) {
      const std::size_t k = by_end[next_end];
      if (running.erase({out[k].start_s + estimate(k), k}) != 0) busy -= w.jobs[k].nodes;
    }
    std::int64_t available = nodes - busy;
    double shadow = head_at;
    for (const auto& [end, k] : running) {
      if (available >= job.nodes) break;
      available += w.jobs[k].nodes;
      shadow = end;
    }
    if (available < job.nodes || out[i].start_s > shadow) {
      v.push_back(job_text(job) + " became head at " + std::to_string(head_at) + " with reservation " +
                  std::to_string(shadow) + " but started at " + std::to_string(out[i].start_s));
    }
  }
  return v;
}

}  // namespace dcsweep::test
