#include "network_grid.hpp"

#include <cstdlib>

#include "dcsweep/core/error.hpp"

namespace dcsweep::nearest_detail {
namespace {

/// Rank of a face (one coordinate at +-r) in Mesh3DMachine::getFreeAtLInfDistance:
/// -x, -y, -z, +z, +y, +x.
int face_rank(int dim, bool positive) { return positive ? 5 - dim : dim; }

/// Rank of an edge (two coordinates at +-r): the four edges at x = -r (the other fixed side
/// -y, -z, +z, +y), then the four along x ((y, z) = (-,-), (-,+), (+,-), (+,+)), then the four
/// at x = +r like the first four.
int edge_rank(const Offset& o, std::int32_t r) {
  if (std::abs(o[0]) != r) return 4 + 2 * (o[1] > 0) + (o[2] > 0);
  const int other = std::abs(o[1]) == r ? (o[1] > 0 ? 3 : 0) : (o[2] > 0 ? 2 : 1);
  return (o[0] > 0 ? 8 : 0) + other;
}

}  // namespace

NetworkGrid::NetworkGrid(const Platform& platform)
    : dims_(platform.network_dims), torus_(platform.network == NetworkKind::torus) {
  if (platform.network == NetworkKind::none || dims_[0] <= 0 || dims_[1] <= 0 || dims_[2] <= 0 ||
      node_count() != platform.node_count) {
    throw InputError("platform '" + platform.name + "' has no network covering its nodes");
  }
}

std::int32_t NetworkGrid::lowest_offset(const Offset& centre, int d) const {
  return torus_ ? -((dims_[d] - 1) / 2) : -centre[d];
}

std::int32_t NetworkGrid::highest_offset(const Offset& centre, int d) const {
  return torus_ ? dims_[d] / 2 : dims_[d] - 1 - centre[d];
}

NodeId NetworkGrid::node_at(const Offset& centre, const Offset& offset) const {
  Offset c;
  for (int d = 0; d < 3; ++d) {
    c[d] = centre[d] + offset[d];
    if (torus_) c[d] = (c[d] % dims_[d] + dims_[d]) % dims_[d];
  }
  return node(c);
}

Offset NetworkGrid::offset_of(const Offset& centre, NodeId node) const {
  const Offset c = coordinate(node);
  Offset o;
  for (int d = 0; d < 3; ++d) {
    o[d] = c[d] - centre[d];
    if (!torus_) continue;
    o[d] = (o[d] % dims_[d] + dims_[d]) % dims_[d];
    if (o[d] > dims_[d] / 2) o[d] -= dims_[d];
  }
  return o;
}

std::int32_t linf(const Offset& o) { return std::max({std::abs(o[0]), std::abs(o[1]), std::abs(o[2])}); }
std::int32_t l1(const Offset& o) { return std::abs(o[0]) + std::abs(o[1]) + std::abs(o[2]); }

ShellKey shell_key(const Offset& o) {
  const std::int32_t r = linf(o);
  int fixed = 0, first = -1;
  for (int d = 0; d < 3; ++d) {
    if (r > 0 && std::abs(o[d]) == r) {
      ++fixed;
      if (first < 0) first = d;
    }
  }
  int kind = fixed - 1, rank = 0;  // r = 0: the centre, kind -1
  if (fixed == 1) rank = face_rank(first, o[first] > 0);
  if (fixed == 2) rank = edge_rank(o, r);
  if (fixed == 3) rank = 4 * (o[0] > 0) + 2 * (o[1] > 0) + (o[2] > 0);
  return {r, kind, rank, o[0], o[1], o[2]};
}

L1Key l1_key(const Offset& o) { return {l1(o), o[0], o[1], o[2]}; }

}  // namespace dcsweep::nearest_detail
