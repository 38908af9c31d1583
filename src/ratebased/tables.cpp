#include "dcsweep/ratebased/tables.hpp"

#include <charconv>
#include <cmath>
#include <map>
#include <set>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {
namespace {

std::vector<std::string> split(std::string_view line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= line.size(); ++i) {
    if (i == line.size() || line[i] == ',') {
      out.emplace_back(trim_blanks(line.substr(start, i - start)));
      start = i + 1;
    }
  }
  return out;
}

/// A CSV file read by column names: blank lines and lines starting with '#' are skipped.
class Csv {
 public:
  Csv(const std::string& text, std::string name) : name_(std::move(name)) {
    std::size_t start = 0, line_no = 0;
    while (start <= text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      ++line_no;
      const std::string_view line = trim_blanks(std::string_view(text).substr(start, end - start));
      start = end + 1;
      if (line.empty() || line[0] == '#') continue;
      if (header_.empty()) {
        header_ = split(line);
        continue;
      }
      std::vector<std::string> fields = split(line);
      if (fields.size() != header_.size()) {
        fail(line_no, "expected " + std::to_string(header_.size()) + " fields (as the header), found " +
                          std::to_string(fields.size()));
      }
      rows_.push_back({line_no, std::move(fields)});
    }
    if (header_.empty()) throw InputError(name_ + ": empty (no header line)");
    if (rows_.empty()) throw InputError(name_ + ": no data rows");
  }

  struct Row {
    std::size_t line;
    std::vector<std::string> fields;
  };
  const std::vector<Row>& rows() const { return rows_; }
  const std::string& name() const { return name_; }

  std::size_t column(const std::string& column_name) const {
    for (std::size_t c = 0; c < header_.size(); ++c) {
      if (header_[c] == column_name) return c;
    }
    throw InputError(name_ + ": no column '" + column_name + "' in the header (" + join(header_) + ")");
  }

  [[noreturn]] void fail(std::size_t line, const std::string& message) const {
    throw InputError(name_ + ":" + std::to_string(line) + ": " + message);
  }

  const std::string& text(const Row& row, std::size_t column) const {
    if (row.fields[column].empty()) fail(row.line, "empty " + header_[column]);
    return row.fields[column];
  }

  /// A number >= 0 (or > 0 when `positive`); finite unless `allow_inf`.
  double number(const Row& row, std::size_t column, bool positive = false, bool allow_inf = false) const {
    const std::string& s = text(row, column);
    double v = NAN;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size()) fail(row.line, header_[column] + " '" + s + "' is not a number");
    if (std::isnan(v) || (std::isinf(v) && !allow_inf)) fail(row.line, header_[column] + " is " + s + " (must be finite)");
    if (v < 0 || (positive && v == 0)) {
      fail(row.line, header_[column] + " is " + s + (positive ? " (must be positive)" : " (must not be negative)"));
    }
    return v;
  }

 private:
  std::string name_;
  std::vector<std::string> header_;
  std::vector<Row> rows_;
};

std::int32_t index_of(const std::vector<std::string>& names, const std::string& name) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return std::int32_t(i);
  }
  return -1;
}

}  // namespace

std::int32_t RateTables::type_index(const std::string& name) const {
  for (std::size_t t = 0; t < types.size(); ++t) {
    if (types[t].name == name) return std::int32_t(t);
  }
  std::vector<std::string> names;
  for (const RateNodeTable& t : types) names.push_back(t.name);
  throw InputError("rate-based tables: no P-state table for node type '" + name + "' (tables for: " + join(names) + ")");
}

double RateTables::ecs(std::int32_t task, std::int32_t type, std::int32_t p) const {
  const RateNodeTable& t = types[std::size_t(type)];
  return p >= t.pstates ? 0.0 : t.ecs[std::size_t(task * t.pstates + p)];
}

double RateTables::apc(std::int32_t task, std::int32_t type, std::int32_t p) const {
  const RateNodeTable& t = types[std::size_t(type)];
  return p >= t.pstates ? 0.0 : t.apc[std::size_t(task * t.pstates + p)];
}

RateTables RateTables::subset(const std::vector<std::string>& task_names) const {
  RateTables out;
  out.classes = classes;
  std::vector<std::int32_t> picked;
  for (const std::string& name : task_names) {
    std::int32_t found = -1;
    for (std::size_t i = 0; i < tasks.size(); ++i) {
      if (tasks[i].name == name) found = std::int32_t(i);
    }
    if (found < 0) throw InputError("rate-based tables: no task type '" + name + "'");
    picked.push_back(found);
    out.tasks.push_back(tasks[std::size_t(found)]);
  }
  for (const RateNodeTable& t : types) {
    RateNodeTable s = t;
    s.ecs.clear();
    s.apc.clear();
    for (const std::int32_t i : picked) {
      for (std::int32_t p = 0; p < t.pstates; ++p) {
        s.ecs.push_back(t.ecs[std::size_t(i * t.pstates + p)]);
        s.apc.push_back(t.apc[std::size_t(i * t.pstates + p)]);
      }
    }
    out.types.push_back(std::move(s));
  }
  return out;
}

RateTables parse_rate_tables(const std::string& task_text, const std::string& task_name, const std::string& pstate_text,
                             const std::string& pstate_name, const std::string& coloc_text,
                             const std::string& coloc_name) {
  RateTables out;
  // Task types.
  const Csv tasks(task_text, task_name);
  const std::size_t c_task = tasks.column("task"), c_class = tasks.column("memory_class"),
                    c_mi = tasks.column("memory_intensity_mpki"), c_rate = tasks.column("arrival_rate_per_s"),
                    c_reward = tasks.column("reward"), c_deadline = tasks.column("deadline_s");
  std::vector<std::string> task_names;
  for (const Csv::Row& row : tasks.rows()) {
    RateTaskType t;
    t.name = tasks.text(row, c_task);
    if (index_of(task_names, t.name) >= 0) tasks.fail(row.line, "task '" + t.name + "' listed twice");
    const std::string& cls = tasks.text(row, c_class);
    if (index_of(out.classes, cls) < 0) out.classes.push_back(cls);
    t.memory_class = index_of(out.classes, cls);
    t.memory_intensity = tasks.number(row, c_mi);
    t.arrival_rate_per_s = tasks.number(row, c_rate);
    t.reward = tasks.number(row, c_reward);
    t.deadline_s = tasks.number(row, c_deadline, true, true);
    task_names.push_back(t.name);
    out.tasks.push_back(std::move(t));
  }
  // P-state tables: every (task, node type, P-state) once, P-states 0..n-1 for every task.
  const Csv ps(pstate_text, pstate_name);
  const std::size_t c_ptask = ps.column("task"), c_type = ps.column("node_type"), c_p = ps.column("pstate"),
                    c_ecs = ps.column("ecs_per_s"), c_apc = ps.column("apc_w");
  struct Entry {
    double ecs, apc;
    std::size_t line;
  };
  std::map<std::string, std::map<std::pair<std::int32_t, std::int32_t>, Entry>> by_type;  // type -> (task, p)
  std::map<std::string, std::size_t> first_line;
  std::vector<std::string> type_order;
  for (const Csv::Row& row : ps.rows()) {
    const std::int32_t task = index_of(task_names, ps.text(row, c_ptask));
    if (task < 0) ps.fail(row.line, "unknown task '" + row.fields[c_ptask] + "' (not in " + task_name + ")");
    const std::string& type = ps.text(row, c_type);
    const double p = ps.number(row, c_p);
    if (p != std::floor(p) || p > 1000) ps.fail(row.line, "pstate '" + row.fields[c_p] + "' is not an integer 0..1000");
    const Entry e{ps.number(row, c_ecs), ps.number(row, c_apc), row.line};
    if (!first_line.count(type)) {
      first_line[type] = row.line;
      type_order.push_back(type);
    }
    if (!by_type[type].emplace(std::pair{task, std::int32_t(p)}, e).second) {
      ps.fail(row.line, "task '" + task_names[std::size_t(task)] + "' on '" + type + "' at P-state " + row.fields[c_p] +
                            " listed twice");
    }
  }
  for (const std::string& type : type_order) {
    const auto& entries = by_type[type];
    std::int32_t count = 0;
    for (const auto& [key, e] : entries) count = std::max(count, key.second + 1);
    RateNodeTable t;
    t.name = type;
    t.pstates = count;
    t.where = pstate_name + ":" + std::to_string(first_line[type]);
    for (std::int32_t i = 0; i < out.task_count(); ++i) {
      for (std::int32_t p = 0; p < count; ++p) {
        const auto it = entries.find({i, p});
        if (it == entries.end()) {
          ps.fail(first_line[type], "node type '" + type + "' has P-states 0.." + std::to_string(count - 1) +
                                        " but no row for task '" + task_names[std::size_t(i)] + "' at P-state " +
                                        std::to_string(p));
        }
        t.ecs.push_back(it->second.ecs);
        t.apc.push_back(it->second.apc);
      }
    }
    t.colocation_slope.assign(out.classes.size(), NAN);
    out.types.push_back(std::move(t));
  }
  // Co-location slopes: one per (node type, class).
  const Csv co(coloc_text, coloc_name);
  const std::size_t c_ctype = co.column("node_type"), c_cclass = co.column("memory_class"),
                    c_slope = co.column("slope_per_mpki");
  for (const Csv::Row& row : co.rows()) {
    const std::int32_t type = index_of(type_order, co.text(row, c_ctype));
    if (type < 0) co.fail(row.line, "node type '" + row.fields[c_ctype] + "' has no P-state table in " + pstate_name);
    const std::int32_t cls = index_of(out.classes, co.text(row, c_cclass));
    if (cls < 0) co.fail(row.line, "memory class '" + row.fields[c_cclass] + "' is no task's (in " + task_name + ")");
    double& slope = out.types[std::size_t(type)].colocation_slope[std::size_t(cls)];
    if (!std::isnan(slope)) co.fail(row.line, "'" + row.fields[c_ctype] + "', '" + row.fields[c_cclass] + "' listed twice");
    slope = co.number(row, c_slope);
  }
  for (const RateNodeTable& t : out.types) {
    for (std::size_t c = 0; c < out.classes.size(); ++c) {
      if (std::isnan(t.colocation_slope[c])) {
        throw InputError(coloc_name + ": no slope for node type '" + t.name + "' and memory class '" + out.classes[c] + "'");
      }
    }
  }
  return out;
}

RateTables load_rate_tables(const std::string& dir) {
  const std::string base = dir.empty() || dir.back() == '/' ? dir : dir + "/";
  const std::string tasks = base + "task_types.csv", ps = base + "pstate_tables.csv", co = base + "colocation.csv";
  const std::string task_text = read_text_file(tasks, "task types");  // in this order: the first missing is named
  const std::string pstate_text = read_text_file(ps, "P-state tables");
  return parse_rate_tables(task_text, tasks, pstate_text, ps, read_text_file(co, "co-location slopes"), co);
}

std::vector<std::string> rate_environment(const std::string& name) {
  if (name == "cpu_intensive") return {"fluidanimate", "blackscholes", "bodytrack", "ep", "swaptions"};
  if (name == "hybrid") return {"ua", "sp", "lu", "fluidanimate", "blackscholes"};
  if (name == "memory_intensive") return {"canneal", "cg", "ua", "sp", "lu"};
  throw InputError("unknown workload environment '" + name + "'; valid: cpu_intensive, hybrid, memory_intensive");
}

}  // namespace dcsweep
