#include "dcsweep/platform/platform.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>

#include "dcsweep/core/error.hpp"
#include "dcsweep/platform/network.hpp"

namespace dcsweep {
namespace {

/// Synthesized DVFS table ([P3]'s Appendix B is not in the copy): `count` states from f_max down
/// to f_min evenly, core power cubic in frequency (P ~ f V^2 with V ~ f).
std::vector<PState> dvfs(double f_max, double f_min, int count, double core_max_w) {
  std::vector<PState> states;
  for (int k = 0; k < count; ++k) {
    const double f = count == 1 ? f_max : f_max - (f_max - f_min) * k / (count - 1);
    states.push_back({f, core_max_w * std::pow(f / f_max, 3)});
  }
  return states;
}

}  // namespace

std::vector<NodeType> node_type_catalog() {
  // Air flows: [P0] 0.2454 m3/s per chassis; [P3] Table 2 for the three Xeon nodes; the ASU
  // chassis share the CRAC's 8 m3/s ([P4]); a BG/P node moves 0.0065 m3/s, a 15 K rise at 116 W (assumed).
  // Power: [P4] omega/alpha of the Dell chassis; [P3]-style static + per-core power synthesized
  // from the CPUs' published TDPs (inputs/platforms/README.md).
  return {
      {"meng_chassis", 1, 0.2454, 0, 0, 0, {}},
      {"pe1955", 1, 0.16, 2420, 175, 0, {}},
      {"pe1855", 1, 0.16, 1820, 72, 0, {}},
      {"xeon_e3_1225v3", 4, 0.0284, 0, 0, 40, dvfs(3.2, 0.8, 16, 16.8)},
      {"xeon_e5649", 6, 0.0519, 0, 0, 60, dvfs(2.53, 1.6, 9, 10.7)},
      {"xeon_e5_2697v2", 12, 0.0566, 0, 0, 80, dvfs(2.7, 1.2, 16, 8.7)},
      {"bgp_node", 4, 0.0065, 0, 0, 0, {}},
  };
}

namespace {

NodeType catalog_type(const std::string& name) {
  for (NodeType& t : node_type_catalog()) {
    if (t.name == name) return t;
  }
  std::vector<std::string> names;
  for (const NodeType& t : node_type_catalog()) names.push_back(t.name);
  std::string message = "unknown node type '" + name + "'";
  const std::string hint = closest_name(name, names);
  if (!hint.empty()) message += " (did you mean '" + hint + "'?)";
  throw InputError(message + "; valid: " + join(names));
}

struct RoomSpec {
  std::string name;
  std::int32_t rows, racks_per_row, nodes_per_rack, cores_per_node;
  std::vector<std::string> types;       ///< the types present...
  std::vector<int> rack_type;           ///< ...which one each rack holds (cycled), or
  std::vector<int> node_counts;         ///< ...how many nodes of each, in node order
  NetworkKind network;
  std::array<std::int32_t, 3> network_dims;
  std::int32_t zone_nodes;
  std::int32_t cracs;
  double crac_airflow_m3s;
  std::string heat_distribution, power_preset, source;
  double recirculation_fraction = 0.44;
  double redline_c = 25;       ///< [P0]'s; [P3] Sec. 5.2 uses 30 C
  double air_volume_m3 = 0;    ///< 0: per rack as asu50's (room_air_volume_m3)
  double crac_low_extract_w = 0, crac_high_extract_w = 0;  ///< the thermostat's stated levels (RoomLayout)
};

Platform build_room(const RoomSpec& r) {
  Platform p;
  p.name = r.name;
  p.node_count = r.rows * r.racks_per_row * r.nodes_per_rack;
  p.cores_per_node = r.cores_per_node;
  p.source = r.source;
  p.types.clear();
  for (const std::string& t : r.types) p.types.push_back(catalog_type(t));
  if (p.types.size() > 1) {
    p.node_type.resize(static_cast<std::size_t>(p.node_count));
    for (std::int32_t n = 0; n < p.node_count; ++n) {
      if (!r.rack_type.empty()) {
        const std::int32_t rack = n / r.nodes_per_rack;
        p.node_type[std::size_t(n)] = static_cast<std::uint8_t>(r.rack_type[std::size_t(rack) % r.rack_type.size()]);
      }
    }
    if (r.rack_type.empty()) {
      std::size_t n = 0;
      for (std::size_t t = 0; t < r.node_counts.size(); ++t) {
        for (int k = 0; k < r.node_counts[t]; ++k) p.node_type.at(n++) = static_cast<std::uint8_t>(t);
      }
    }
  }
  p.room = {r.rows, r.racks_per_row, r.nodes_per_rack, r.cracs, r.crac_airflow_m3s, r.air_volume_m3,
            r.crac_low_extract_w, r.crac_high_extract_w};
  p.redline_c = r.redline_c;
  p.network = r.network;
  p.network_dims = r.network_dims;
  p.zone_nodes = r.zone_nodes;
  p.heat_distribution = r.heat_distribution;
  p.power_preset = r.power_preset;
  p.recirculation_fraction = r.recirculation_fraction;
  return p;
}

PlatformRegistry::Entry room_preset(RoomSpec spec, std::string help) {
  auto make = [spec](const BuildContext&, const TraceHint&) { return std::make_unique<Platform>(build_room(spec)); };
  return {spec.name, std::move(help), {}, make};
}

PlatformRegistry::Entry trace_machine_entry() {
  auto make = [](const BuildContext&, const TraceHint& hint) {
    if (hint.nodes <= 0) {
      throw InputError("platform 'trace' needs a trace with a MaxNodes/MaxProcs header; choose a platform");
    }
    Platform p;
    p.name = "trace";
    p.node_count = hint.nodes;
    p.cores_per_node = hint.cores_per_node;
    p.source = hint.path + " header (MaxNodes, MaxProcs)";
    return std::make_unique<Platform>(std::move(p));
  };
  return {"trace",
          "the machine the trace was recorded on: MaxNodes nodes, floor(MaxProcs/MaxNodes) cores each; no room, so "
          "no thermal model",
          {},
          make};
}

ParamSpec room_int(std::string name, std::int64_t fallback, double max, std::string help) {
  return integer_param(std::move(name), fallback, 1, max, std::move(help));
}

/// "a" or "a:3,b:1": node types in proportion, assigned rack by rack in a repeating pattern.
std::pair<std::vector<std::string>, std::vector<int>> parse_mix(const std::string& text) {
  std::vector<std::string> types;
  std::vector<int> pattern;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, end - start);
    const std::size_t colon = item.find(':');
    const std::string name = item.substr(0, colon);
    int weight = 1;
    if (colon != std::string::npos) {
      char* rest = nullptr;
      const long w = std::strtol(item.c_str() + colon + 1, &rest, 10);
      if (*rest != '\0' || w < 1 || w > 1000) {
        throw InputError("parameter 'room_node_types': weight in '" + item + "' must be an integer from 1 to 1000");
      }
      weight = static_cast<int>(w);
    }
    catalog_type(name);  // unknown names fail here
    types.push_back(name);
    for (int k = 0; k < weight; ++k) pattern.push_back(static_cast<int>(types.size() - 1));
    start = end + 1;
  }
  return {types, pattern};
}

PlatformRegistry::Entry generated_room_entry() {
  auto make = [](const BuildContext& ctx, const TraceHint&) {
    const ParamSet& p = ctx.params;
    const auto rows = static_cast<std::int32_t>(p.integer("room_rows"));
    const auto racks = static_cast<std::int32_t>(p.integer("room_racks_per_row"));
    const auto nodes = static_cast<std::int32_t>(p.integer("room_nodes_per_rack"));
    if (std::int64_t(rows) * racks * nodes > 10'000'000) throw InputError("platform 'room': more than 1e7 nodes");
    auto [types, pattern] = parse_mix(p.text("room_node_types"));
    const NodeType first = catalog_type(types.front());
    RoomSpec spec{"room", rows, racks, nodes, first.cores, types, pattern, {}, NetworkKind::mesh,
                  {rows, racks, nodes}, 1, 1, 0.0, "", p.text("room_power_preset"),
                  "generated from room_rows x room_racks_per_row x room_nodes_per_rack"};
    spec.cracs = static_cast<std::int32_t>(p.integer("room_cracs"));
    double airflow = 0;
    Platform built = build_room(spec);
    for (std::int32_t n = 0; n < built.node_count; ++n) airflow += built.type_of(n).airflow_m3s;
    built.room.crac_airflow_m3s = airflow / spec.cracs;
    return std::make_unique<Platform>(std::move(built));
  };
  return {"room",
          "a room generated from its layout: room_rows x room_racks_per_row x room_nodes_per_rack nodes of "
          "room_node_types, a 3D mesh over (row, rack, slot); its D matrix comes from the recirculation generator",
          {room_int("room_rows", 2, 1000, "rows of racks (pairs of rows share a hot aisle)"),
           room_int("room_racks_per_row", 5, 1000, "racks in each row"),
           room_int("room_nodes_per_rack", 4, 100000, "nodes stacked in each rack (slot 0 at the bottom)"),
           room_int("room_cracs", 1, 100, "CRAC units (they share the nodes' air flow)"),
           {.name = "room_node_types", .type = ParamType::text, .default_value = std::string("meng_chassis"),
            .help = "node types, rack by rack in proportion: 'meng_chassis' or 'xeon_e3_1225v3:1,xeon_e5649:2'"},
           {.name = "room_power_preset", .type = ParamType::text, .default_value = std::string("meng_p0"),
            .help = "node power model of the room when node_power = platform"}},
          make};
}

}  // namespace

double room_air_volume_m3(const Platform& platform) {
  constexpr double kAsuAirPerRackM3 = 9.6 * 8.4 * 3.6 / 10;  // [P4] Sec. VII-B: the room over its 10 racks
  if (platform.room.air_volume_m3 > 0) return platform.room.air_volume_m3;
  return kAsuAirPerRackM3 * platform.room.rows * platform.room.racks_per_row;
}

RoomPosition Platform::position(std::int32_t node) const {
  if (!has_room()) return {0, 0, node};
  const std::int32_t rack = node / room.nodes_per_rack;
  return {rack / room.racks_per_row, rack % room.racks_per_row, node % room.nodes_per_rack};
}

std::array<std::int32_t, 3> Platform::coordinate(std::int32_t node) const {
  const auto [x, y, z] = network_dims;
  if (x <= 0 || y <= 0 || z <= 0) return {node, 0, 0};
  return {node / (y * z), (node / z) % y, node % z};
}

std::int32_t Platform::hops(std::int32_t a, std::int32_t b) const {
  const auto ca = coordinate(a), cb = coordinate(b);
  std::int32_t total = 0;
  for (int d = 0; d < 3; ++d) total += axis_distance(ca[d], cb[d], network == NetworkKind::torus ? network_dims[d] : 0);
  return total;
}

const PlatformRegistry& platform_registry() {
  static const PlatformRegistry registry(
      "platform",
      {trace_machine_entry(),
       room_preset({"meng40", 2, 5, 4, 1, {"meng_chassis"}, {0}, {}, NetworkKind::mesh, {2, 5, 4}, 1, 1, 9.816,
                    "builtin:meng40_D.mtx", "meng_p0",
                    "[P0] Sec. 5.1, [P1] Sec. 3: 40 chassis (10 servers x 2 CPUs each) in 2 rows x 5 racks x 4, hot "
                    "aisle between the rows; D from sst-elements (inputs/matrices/)"},
                   "40 nodes, 2 rows x 5 racks x 4 (node = chassis of 10 servers); one trace processor per node; "
                   "the real D matrix of [P0]"),
       room_preset({"asu50", 2, 5, 5, 1, {"pe1955", "pe1855"}, {}, {30, 20}, NetworkKind::none, {0, 0, 0}, 1, 1, 8.0,
                    "builtin:simware50_D.csv", "chassis",
                    "[P4] Sec. VII: 30 Dell PowerEdge 1955 + 20 PowerEdge 1855 chassis (7U) in 2 rows x 5 racks x 5, "
                    "one CRAC of 8 m3/s, room 9.6 x 8.4 x 3.6 m; the 1955s assumed to fill the first 30 slots; D from SimWare",
                    0.44, 25, 290.3, 100e3, 350e3},
                   "50 chassis of the ASU HPC data center: 30 PE1955 + 20 PE1855, 2 rows x 5 racks x 5, one CRAC"),
       room_preset({"oxley1080", 2, 15, 36, 4, {"xeon_e3_1225v3", "xeon_e5649", "xeon_e5_2697v2"}, {}, {360, 360, 360},
                    NetworkKind::mesh, {2, 15, 36}, 1, 1, 26.1, "", "oxley",
                    "[P3] Sec. 6: 30 cabinets x 36 nodes of 3 types, 1 CRAC of 26.1 m3/s; cabinets in 2 rows of 15, "
                    "each type in 10 consecutive cabinets (assumed); redline 30 C (Sec. 5.2)",
                    0.44, 30},
                   "1080 heterogeneous nodes (3 Xeon types), 30 cabinets x 36, one CRAC"),
       room_preset({"oxley4320", 4, 30, 36, 4, {"xeon_e3_1225v3", "xeon_e5649", "xeon_e5_2697v2"}, {}, {1440, 1440, 1440},
                    NetworkKind::mesh, {4, 30, 36}, 1, 2, 26.1, "", "oxley",
                    "[P3] Sec. 6: 120 cabinets x 36 nodes of 3 types, 2 CRACs of 26.1 m3/s; cabinets in 4 rows of 30, "
                    "each type in 40 consecutive cabinets (assumed); redline 30 C (Sec. 5.2)",
                    0.44, 30},
                   "4320 heterogeneous nodes (3 Xeon types), 120 cabinets x 36, two CRACs"),
       room_preset({"intrepid", 5, 8, 1024, 4, {"bgp_node"}, {0}, {}, NetworkKind::torus, {40, 32, 32}, 512, 4, 26.0,
                    "", "parm",
                    "[P2] Sec. VII: IBM Blue Gene/P Intrepid, 40,960 nodes x 4 cores, 3D torus 40 x 32 x 32; 40 racks "
                    "in 5 rows of 8; thermal zones of one midplane (512 nodes); generated recirculation, milder than "
                    "meng40's (fraction 0.1, assumed)",
                    0.1},
                   "IBM Blue Gene/P Intrepid: 40 racks x 1024 nodes, 4 cores per node, 3D torus, zones of 512 nodes"),
       generated_room_entry()});
  return registry;
}

}  // namespace dcsweep
