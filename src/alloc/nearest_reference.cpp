// The nearest allocators written as directly as their definition (nearest.hpp): for each centre,
// sort every free node by collection order, take the first `nodes`, score them pair by pair.
#include <algorithm>
#include <limits>
#include <set>

#include "dcsweep/alloc/nearest.hpp"
#include "network_grid.hpp"

namespace dcsweep {
namespace {

using namespace nearest_detail;

std::vector<NodeId> free_nodes(const Machine& machine) {
  std::vector<NodeId> out;
  machine.lowest_free(machine.free_count(), out);
  return out;
}

/// MM's centres: every (x, y, z) combining coordinates of free nodes, ascending.
std::vector<Offset> intersection_centres(const NetworkGrid& grid, const Machine& machine) {
  std::array<std::set<std::int32_t>, 3> values;
  for (const NodeId n : free_nodes(machine)) {
    const Offset c = grid.coordinate(n);
    for (int d = 0; d < 3; ++d) values[d].insert(c[d]);
  }
  std::vector<Offset> out;
  for (const auto x : values[0]) {
    for (const auto y : values[1]) {
      for (const auto z : values[2]) out.push_back({x, y, z});
    }
  }
  return out;
}

std::vector<NodeId> collect(NearestKind kind, const NetworkGrid& grid, const Machine& machine, const Offset& centre,
                            std::int32_t count) {
  std::vector<NodeId> nodes = free_nodes(machine);
  auto by_order = [&](NodeId a, NodeId b) {
    const Offset oa = grid.offset_of(centre, a), ob = grid.offset_of(centre, b);
    return kind == NearestKind::mc1x1 ? shell_key(oa) < shell_key(ob) : l1_key(oa) < l1_key(ob);
  };
  std::sort(nodes.begin(), nodes.end(), by_order);
  nodes.resize(static_cast<std::size_t>(count));
  return nodes;
}

std::int64_t score(NearestKind kind, const NetworkGrid& grid, const Platform& platform, const Offset& centre,
                   const std::vector<NodeId>& nodes) {
  std::int64_t total = 0;
  if (kind == NearestKind::mc1x1) {
    for (const NodeId n : nodes) total += linf(grid.offset_of(centre, n));
    return total;
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    for (std::size_t j = i + 1; j < nodes.size(); ++j) total += platform.hops(nodes[i], nodes[j]);
  }
  return total;
}

}  // namespace

std::vector<NodeId> nearest_allocate_reference(NearestKind kind, const Platform& platform, const Machine& machine,
                                               std::int32_t nodes) {
  const NetworkGrid grid(platform);
  if (machine.free_count() == nodes) return free_nodes(machine);
  std::vector<Offset> centres;
  if (kind == NearestKind::mm) {
    centres = intersection_centres(grid, machine);
  } else {
    for (const NodeId n : free_nodes(machine)) centres.push_back(grid.coordinate(n));
  }
  std::int64_t best_score = std::numeric_limits<std::int64_t>::max();
  std::vector<NodeId> best;
  for (const Offset& centre : centres) {
    std::vector<NodeId> chosen = collect(kind, grid, machine, centre, nodes);
    const std::int64_t s = score(kind, grid, platform, centre, chosen);
    if (s < best_score) best_score = s, best = std::move(chosen);
  }
  std::sort(best.begin(), best.end());
  return best;
}

}  // namespace dcsweep
