#pragma once
// The network as the nearest allocators see it: a 3D mesh or torus of node coordinates, and the
// two orders in which SST's point collectors visit the nodes around a centre. Private to alloc:
// the fast allocators (nearest.cpp) and the straightforward reference (nearest_reference.cpp)
// share these definitions, so the tests comparing them check the accelerations.
#include <array>
#include <cstdint>
#include <tuple>

#include "dcsweep/alloc/machine.hpp"
#include "dcsweep/platform/platform.hpp"

namespace dcsweep::nearest_detail {

using Offset = std::array<std::int32_t, 3>;

/// Where a node lies from a centre, and in which order SST's LInfPointCollector (MC1x1) visits
/// it: shell (L_inf radius), then faces before edges before corners, each in Mesh3DMachine's
/// fixed order, then the free offsets ascending.
using ShellKey = std::tuple<std::int32_t, int, int, std::int32_t, std::int32_t, std::int32_t>;
/// The same for SST's L1PointCollector (MM, Genalg): L1 distance, then offsets ascending
/// (x outer, y, then z from - to +: Mesh3DMachine::getFreeAtDistance).
using L1Key = std::tuple<std::int32_t, std::int32_t, std::int32_t, std::int32_t>;

class NetworkGrid {
 public:
  explicit NetworkGrid(const Platform& platform);

  const std::array<std::int32_t, 3>& dims() const { return dims_; }
  bool torus() const { return torus_; }
  std::int32_t node_count() const { return dims_[0] * dims_[1] * dims_[2]; }
  Offset coordinate(NodeId node) const { return {node / (dims_[1] * dims_[2]), (node / dims_[2]) % dims_[1], node % dims_[2]}; }
  NodeId node(const Offset& c) const { return (c[0] * dims_[1] + c[1]) * dims_[2] + c[2]; }

  /// The offset range around `centre` along d in which every node appears exactly once: on a
  /// mesh up to the edges, on a torus [-(L-1)/2, L/2] (SST's minDelta, maxDelta).
  std::int32_t lowest_offset(const Offset& centre, int d) const;
  std::int32_t highest_offset(const Offset& centre, int d) const;
  /// The node at `offset` from `centre` (offset within the range above).
  NodeId node_at(const Offset& centre, const Offset& offset) const;
  /// The offset of `node` from `centre`, in that range.
  Offset offset_of(const Offset& centre, NodeId node) const;

 private:
  std::array<std::int32_t, 3> dims_;
  bool torus_;
};

std::int32_t linf(const Offset& o);
std::int32_t l1(const Offset& o);
ShellKey shell_key(const Offset& o);
L1Key l1_key(const Offset& o);

}  // namespace dcsweep::nearest_detail
