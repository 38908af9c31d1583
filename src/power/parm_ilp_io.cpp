// The text form of a PARM ILP instance (parm_ilp.hpp): real decisions saved from a simulation
// become test and benchmark instances.
//
//   parm-ilp 1
//   nodes N
//   budget_w W
//   static_w S
//   job running|pending K      followed by K lines "n cap_w value"
//
// Numbers are written with 17 significant digits, so an instance reads back bit-identical.
#include <fstream>
#include <iomanip>
#include <istream>
#include <ostream>
#include <sstream>
#include <string>

#include "dcsweep/core/error.hpp"
#include "dcsweep/power/parm_ilp.hpp"
#include "dcsweep/workload/swf.hpp"

namespace dcsweep {
namespace {

/// The next line's fields after checking its keyword, or InputError naming source and line.
class InstanceReader {
 public:
  InstanceReader(std::istream& in, std::string source) : in_(in), source_(std::move(source)) {}

  std::istringstream next(const std::string& keyword) {
    std::string line;
    if (!std::getline(in_, line)) fail("expected '" + keyword + "', found the end");
    ++line_;
    std::istringstream fields(line);
    std::string word;
    if (!keyword.empty() && !(fields >> word && word == keyword)) fail("expected '" + keyword + "'");
    return fields;
  }
  template <typename T>
  T field(std::istringstream& fields, const char* what) {
    T value{};
    if (!(fields >> value)) fail(std::string("expected ") + what);
    return value;
  }
  bool more() { return in_.peek() != std::char_traits<char>::eof(); }
  [[noreturn]] void fail(const std::string& what) const {
    throw InputError(source_ + ":" + std::to_string(line_) + ": " + what);
  }

 private:
  std::istream& in_;
  std::string source_;
  int line_ = 0;
};

ParmJob read_job(InstanceReader& r) {
  std::istringstream head = r.next("job");
  const auto state = r.field<std::string>(head, "running or pending");
  if (state != "running" && state != "pending") r.fail("expected running or pending, found '" + state + "'");
  const auto count = r.field<std::int64_t>(head, "an option count");
  if (count < 0) r.fail("a negative option count");
  ParmJob job{{}, state == "running"};
  for (std::int64_t o = 0; o < count; ++o) {
    std::istringstream fields = r.next("");
    ParmOption option;
    option.nodes = r.field<std::int64_t>(fields, "a node count");
    option.cpu_cap_w = r.field<double>(fields, "a CPU cap");
    option.value = r.field<double>(fields, "a value");
    job.options.push_back(option);
  }
  return job;
}

}  // namespace

void write_parm_instance(std::ostream& out, const ParmInstance& instance) {
  out << std::setprecision(17) << "parm-ilp 1\nnodes " << instance.node_capacity << "\nbudget_w "
      << instance.power_budget_w << "\nstatic_w " << instance.node_static_w << "\n";
  for (const ParmJob& job : instance.jobs) {
    out << "job " << (job.running ? "running " : "pending ") << job.options.size() << "\n";
    for (const ParmOption& o : job.options) out << o.nodes << " " << o.cpu_cap_w << " " << o.value << "\n";
  }
}

ParmInstance read_parm_instance(std::istream& in, const std::string& source) {
  InstanceReader r(in, source);
  std::istringstream magic = r.next("parm-ilp");
  if (r.field<int>(magic, "the format version") != 1) r.fail("unknown format version");
  ParmInstance instance;
  std::istringstream nodes = r.next("nodes");
  instance.node_capacity = r.field<std::int64_t>(nodes, "a node count");
  std::istringstream budget = r.next("budget_w");
  instance.power_budget_w = r.field<double>(budget, "watts");
  std::istringstream static_w = r.next("static_w");
  instance.node_static_w = r.field<double>(static_w, "watts");
  while (r.more()) instance.jobs.push_back(read_job(r));
  check_parm_instance(instance);
  return instance;
}

ParmInstance read_parm_instance_file(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw InputError("cannot open PARM instance '" + path + "'");
  std::stringstream raw;
  raw << file.rdbuf();
  std::istringstream text(decompress_gzip_text(raw.str(), path));
  return read_parm_instance(text, path);
}

}  // namespace dcsweep
