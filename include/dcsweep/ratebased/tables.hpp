#pragma once
// The measured (or synthesized) tables of [P3]'s rate-based model (Sec. 3.3-3.6, MODELS.md
// section 7): task types with arrival rate, reward, deadline and memory intensity; per node type
// and P-state the execution completion speed ECS (tasks/s on one core) and average core power
// APC (W); per node type and memory-intensity class the co-location slope of the execution time.
// The shipped set (inputs/ratebased/, README.md there) is synthesized from a DVFS model of the
// three Xeons; a user with the paper's measured tables loads theirs with the same reader.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace dcsweep {

/// One task type i.
struct RateTaskType {
  std::string name;
  std::int32_t memory_class = 0;  ///< index into RateTables::classes
  double memory_intensity = 0;    ///< mi_i: last-level cache misses per 1000 instructions
  double arrival_rate_per_s = 0;  ///< lambda_i
  double reward = 0;              ///< r_i, earned per task completed
  double deadline_s = std::numeric_limits<double>::infinity();  ///< d_i ([P3] Eq. 10)
};

/// Per node type: ECS and APC for every task and P-state, and the co-location slopes.
struct RateNodeTable {
  std::string name;             ///< a platform node type's name
  std::int32_t pstates = 0;     ///< real P-states 0..pstates-1 (0 fastest); pstates itself is "off"
  std::vector<double> ecs;      ///< [task * pstates + p], tasks/s
  std::vector<double> apc;      ///< [task * pstates + p], W
  std::vector<double> colocation_slope;  ///< per memory class: CET = ET (1 + slope M), M in mpki
  std::string where;            ///< "FILE:LINE" of its first P-state row when read from a file
};

struct RateTables {
  std::vector<std::string> classes;  ///< memory-intensity class names
  std::vector<RateTaskType> tasks;
  std::vector<RateNodeTable> types;

  std::int32_t task_count() const { return std::int32_t(tasks.size()); }
  /// The node table named `name`; InputError listing the known ones otherwise.
  std::int32_t type_index(const std::string& name) const;
  /// ECS / APC of task i on node table t at P-state p; 0 for the "off" state p == pstates.
  double ecs(std::int32_t task, std::int32_t type, std::int32_t p) const;
  double apc(std::int32_t task, std::int32_t type, std::int32_t p) const;
  /// The tables restricted to these tasks, in this order (a workload environment); InputError
  /// on an unknown name.
  RateTables subset(const std::vector<std::string>& task_names) const;
};

/// Reads task_types.csv, pstate_tables.csv and colocation.csv of `dir` (formats in
/// inputs/ratebased/README.md). Columns are found by their header names (extra ones are
/// ignored). Every value is checked: a missing file or column, a non-number, a negative or
/// non-finite value, an unknown task, class or node type, a duplicate row, or a table whose
/// P-states are not 0..n-1 for every task is an InputError naming the file and line.
RateTables load_rate_tables(const std::string& dir);

/// The same from the three files' texts; `*_name` name them in errors.
RateTables parse_rate_tables(const std::string& task_types, const std::string& task_types_name,
                             const std::string& pstate_tables, const std::string& pstate_tables_name,
                             const std::string& colocation, const std::string& colocation_name);

/// [P3] Sec. 5.3's three workload environments of five task types each: "cpu_intensive",
/// "hybrid", "memory_intensive"; InputError on another name.
std::vector<std::string> rate_environment(const std::string& name);

}  // namespace dcsweep
