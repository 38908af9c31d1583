#pragma once
// The simulated machine (MODELS.md section 1): its nodes and what each is. Per node: a type
// (cores, air flow, power figures), a room position (row, rack, slot: the thermal model's input)
// and a network coordinate (3D mesh or torus: the communication model's input). Nodes are numbered
// rack by rack: node = (row x racks_per_row + rack) x nodes_per_rack + slot, slot 0 at the bottom.
// Thermal zones are runs of `zone_nodes` consecutive nodes (one node per zone: node level).
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dcsweep/core/registry.hpp"

namespace dcsweep {

/// One DVFS state of a node type's cores ([P3]): clock and active power per core.
struct PState {
  double frequency_ghz;
  double core_power_w;
};

/// A kind of node. Each power preset reads the figures it models (MODELS.md section 3); where a
/// paper gives none, the numbers are synthesized and `inputs/platforms/README.md` says how.
struct NodeType {
  std::string name;
  std::int32_t cores = 1;
  double airflow_m3s = 0.2454;    ///< f_i of the heat-flow model
  double chassis_omega_w = 0;     ///< [P4] chassis power omega + (u/100) alpha
  double chassis_alpha_w = 0;
  double static_w = 0;            ///< [P3] static node power S(j)
  std::vector<PState> pstates;    ///< [P3] fastest first
};

struct RoomLayout {
  std::int32_t rows = 0;            ///< 0: the platform has no room (no thermal model)
  std::int32_t racks_per_row = 0;
  std::int32_t nodes_per_rack = 0;
  std::int32_t cracs = 1;
  double crac_airflow_m3s = 8.0;
  double air_volume_m3 = 0;         ///< the room's air (r_room); 0: 29.03 m3 per rack (room_air_volume_m3())
  /// The thermostat CRAC's low and high extraction as the room's source states them (asu50: [P4]
  /// Sec. VII-E, 100 kW and 350 kW); 0: none stated (automatic, cooling.hpp).
  double crac_low_extract_w = 0;
  double crac_high_extract_w = 0;
};

struct RoomPosition {
  std::int32_t row, rack, slot;
};

enum class NetworkKind { none, mesh, torus };

struct Platform {
  std::string name;
  std::int32_t node_count = 0;
  std::int32_t cores_per_node = 1;  ///< converts a trace's processors into nodes
  std::string source;               ///< where the preset's numbers come from
  std::vector<NodeType> types{NodeType{"generic"}};
  std::vector<std::uint8_t> node_type;  ///< per node; empty: every node is types[0]
  RoomLayout room;
  NetworkKind network = NetworkKind::none;
  std::array<std::int32_t, 3> network_dims{0, 0, 0};
  std::int32_t zone_nodes = 1;      ///< consecutive nodes per thermal zone
  std::string heat_distribution;    ///< the preset's D matrix file ("" : generated)
  std::string power_preset;         ///< the preset's node power model ("" : none)
  double recirculation_fraction = 0.44;  ///< the generator's default for this room (meng40-like)
  double redline_c = 25;            ///< the room's redline when redline_c is not set ([P0]; [P3]: 30 C)

  bool has_room() const { return room.rows > 0; }
  const NodeType& type_of(std::int32_t node) const { return types[node_type.empty() ? 0 : node_type[node]]; }
  RoomPosition position(std::int32_t node) const;
  /// Network coordinate (x, y, z) of a node: row-major over network_dims.
  std::array<std::int32_t, 3> coordinate(std::int32_t node) const;
  /// Hop (L1) distance between two nodes; wraps around on a torus.
  std::int32_t hops(std::int32_t a, std::int32_t b) const;
  std::int32_t zone_count() const { return (node_count + zone_nodes - 1) / zone_nodes; }
  std::int32_t zone_of(std::int32_t node) const { return node / zone_nodes; }
};

/// The room's air volume: its own, or asu50's per rack ([P4] Sec. VII-B: 290.3 m3 over 10 racks).
double room_air_volume_m3(const Platform& platform);

/// The machine a trace was recorded on, when one is known (0 nodes otherwise).
struct TraceHint {
  std::int32_t nodes = 0;
  std::int32_t cores_per_node = 1;
  std::string path;
};

/// Platform presets by name: "trace" (the trace's own machine, no room), the papers' rooms
/// meng40, asu50, oxley1080, oxley4320, intrepid, and "room" (generated from room_* parameters).
using PlatformRegistry = Registry<Platform, const TraceHint&>;
const PlatformRegistry& platform_registry();

/// The node types the presets use, by name (room_node_types refers to them).
std::vector<NodeType> node_type_catalog();

}  // namespace dcsweep
