#include "dcsweep/comm/comm.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep::comm {
namespace {

const std::vector<std::string> kNames = {"all_to_all", "fft",        "namd_nopme", "namd_pme", "charm_lu",
                                         "amr",        "barnes_hut", "changa",     "openatom"};
const std::vector<std::string> kDescriptions = {
    "every task with every other, weight 1 ([P1]'s assumption)",
    "FFT: uniform all-to-all from the matrix transpositions",
    "NAMD without PME: neighbours only, tasks 1 and 2 apart, weight 1",
    "NAMD with PME: an all-to-all background of weight 0.25 and wider neighbours (up to 4 apart), weight 1",
    "CharmLU: task 0 coordinates every task (weight 1); local, irregular: neighbours up to 2 apart (1) and "
    "every third task with the one 3 ahead (0.5)",
    "AMR: task 0 coordinates every task (weight 1); local with a wider range: neighbours up to 4 apart (1)",
    "Barnes-Hut: task 2i with task i (weight 1), all-to-all among tasks 0-17 (1)",
    "ChaNGa: complementary tasks i and n-1-i (weight 1), neighbours up to 2 apart (1)",
    "OpenAtom: a tight band, neighbours 1 apart, weight 2"};

constexpr std::uint8_t kFft = 1, kNamdNoPme = 2, kNamdPme = 3, kCharmLu = 4, kAmr = 5, kBarnesHut = 6, kChanga = 7,
                       kOpenAtom = 8;

void band(TaskGraph& g, std::int32_t width, double w) {
  for (std::int32_t s = 0; s < g.tasks; ++s) {
    for (std::int32_t d = 1; d <= width && s + d < g.tasks; ++d) g.edges.push_back({s, s + d, w});
  }
}

void coordinator(TaskGraph& g, double w) {
  for (std::int32_t t = 1; t < g.tasks; ++t) g.edges.push_back({0, t, w});
}

/// Sum over unordered pairs of one dimension's distance, from the count of nodes at each
/// coordinate (wrap-around on a torus). Mesh: prefix counts and coordinate sums, O(L). Torus:
/// over the occupied coordinates only, O(k^2) for k of them (a job's block spans few).
double dimension_pairs(std::span<const std::int32_t> count, bool torus) {
  const auto extent = static_cast<std::int32_t>(count.size());
  double sum = 0;
  if (!torus) {  // sum over v of c[v] (v C(<v) - S(<v))
    double below = 0, below_sum = 0;
    for (std::int32_t v = 0; v < extent; ++v) {
      const double c = double(count[std::size_t(v)]);
      sum += c * (double(v) * below - below_sum);
      below += c;
      below_sum += c * double(v);
    }
    return sum;
  }
  std::int32_t occupied[1024];
  std::size_t k = 0;
  for (std::int32_t v = 0; v < extent && k < std::size(occupied); ++v) {
    if (count[std::size_t(v)] != 0) occupied[k++] = v;
  }
  for (std::size_t a = 0; a < k; ++a) {
    for (std::size_t b = a + 1; b < k; ++b) {
      const std::int32_t d = occupied[b] - occupied[a];
      sum += double(count[std::size_t(occupied[a])]) * double(count[std::size_t(occupied[b])]) *
             double(std::min(d, extent - d));
    }
  }
  return sum;
}

}  // namespace

std::span<const std::string> pattern_names() { return kNames; }
std::span<const std::string> pattern_descriptions() { return kDescriptions; }

std::uint8_t pattern_index(const std::string& name) {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == name) return static_cast<std::uint8_t>(i);
  }
  std::vector<std::string> valid = kNames;
  valid.push_back("mixed");
  throw InputError("unknown comm_pattern '" + name + "'; valid: " + join(valid));
}

std::uint8_t sample_pattern(RngStream& rng) { return static_cast<std::uint8_t>(rng.integer(kFft, kOpenAtom)); }

TaskGraph task_graph(std::uint8_t pattern, std::int32_t tasks) {
  TaskGraph g;
  g.tasks = tasks;
  switch (pattern) {
    case kNamdNoPme: band(g, 2, 1); break;
    case kNamdPme:
      g.uniform = 0.25;
      band(g, 4, 1);
      break;
    case kCharmLu:
      coordinator(g, 1);
      band(g, 2, 1);
      for (std::int32_t s = 0; s + 3 < tasks; s += 3) g.edges.push_back({s, s + 3, 0.5});
      break;
    case kAmr:
      coordinator(g, 1);
      band(g, 4, 1);
      break;
    case kBarnesHut:
      for (std::int32_t t = 1; 2 * t < tasks; ++t) g.edges.push_back({t, 2 * t, 1});
      g.group = std::min(tasks, 18);
      g.group_weight = 1;
      break;
    case kChanga:
      for (std::int32_t s = 0; s < tasks - 1 - s; ++s) g.edges.push_back({s, tasks - 1 - s, 1});
      band(g, 2, 1);
      break;
    case kOpenAtom: band(g, 1, 2); break;
    default: g.uniform = 1;  // all_to_all, fft
  }
  return g;
}

double pairwise_hops(const Platform& platform, std::span<const NodeId> nodes) {
  // L1 distance is a sum over dimensions: count the nodes at each coordinate of each, once.
  const auto [dx, dy, dz] = platform.network_dims;
  if (dx > 1024 || dy > 1024 || dz > 1024) throw InputError("network dimensions above 1024 are not supported");
  std::vector<std::int32_t> count(std::size_t(dx + dy + dz), 0);
  std::int32_t* const cx = count.data();
  std::int32_t* const cy = cx + dx;
  std::int32_t* const cz = cy + dy;
  // Node ids are row-major over (x, y, z): a run of consecutive ids (a first-fit block is one)
  // is counted a z-row at a time, with one division per row instead of three per node.
  const std::int32_t plane = dy * dz;
  for (std::size_t i = 0; i < nodes.size();) {
    std::size_t j = i + 1;
    while (j < nodes.size() && nodes[j] == nodes[j - 1] + 1) ++j;
    for (NodeId p = nodes[i], end = nodes[j - 1] + 1; p < end;) {
      const NodeId row_end = std::min(end, p - p % dz + dz);
      const std::int32_t length = row_end - p;
      cx[p / plane] += length;
      cy[(p / dz) % dy] += length;
      for (std::int32_t z = p % dz, stop = z + length; z < stop; ++z) ++cz[z];
      p = row_end;
    }
    i = j;
  }
  const bool torus = platform.network == NetworkKind::torus;
  return dimension_pairs({cx, std::size_t(dx)}, torus) + dimension_pairs({cy, std::size_t(dy)}, torus) +
         dimension_pairs({cz, std::size_t(dz)}, torus);
}

double comm_cost(const Platform& platform, std::span<const NodeId> nodes, const TaskGraph& graph) {
  const auto n = static_cast<std::int32_t>(nodes.size());
  if (n < 2) return NAN;
  double ordered = 0;  // sum over ordered pairs: twice the unordered sums
  if (graph.uniform != 0) ordered += 2 * graph.uniform * pairwise_hops(platform, nodes);
  if (graph.group_weight != 0 && graph.group > 1) {
    ordered += 2 * graph.group_weight * pairwise_hops(platform, nodes.first(std::size_t(std::min(graph.group, n))));
  }
  for (const TaskGraph::Edge& e : graph.edges) {
    if (e.s < n && e.t < n) ordered += 2 * e.w * platform.hops(nodes[std::size_t(e.s)], nodes[std::size_t(e.t)]);
  }
  return ordered / n;
}

Mapping mapping_of(const std::string& name) {
  if (name == "in_order") return Mapping::in_order;
  if (name == "rcb") return Mapping::rcb;
  throw InputError("unknown task_mapping '" + name + "'; valid: in_order, rcb");
}

std::vector<ParamSpec> comm_params() {
  std::vector<std::string> patterns = kNames;
  patterns.push_back("mixed");
  return {{.name = "comm_pattern", .type = ParamType::choice, .default_value = std::string("all_to_all"),
           .choices = patterns,
           .help = "which tasks of a job communicate (MODELS.md section 4; mixed: one of [P0]'s eight per job)"},
          {.name = "task_mapping", .type = ParamType::choice, .default_value = std::string("in_order"),
           .choices = {"in_order", "rcb"},
           .help = "task i on the i-th node in id order, or [P0]'s recursive coordinate bisection (exhaustive at <= 8 "
                   "nodes)"}};
}

}  // namespace dcsweep::comm
