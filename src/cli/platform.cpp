// `dcsweep platform NAME`: what a platform is (a summary), its nodes (--nodes-out) and its room's
// matrices (--matrices-out), so users can inspect, plot and check what a generated room assumes.
#include <cstdio>
#include <fstream>
#include <ostream>

#include "commands.hpp"
#include "dcsweep/cli/cli.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sweep/inputs.hpp"

namespace dcsweep::cli {
namespace {

std::ofstream open_out(const std::string& path) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw InputError(path + ": cannot write it");
  return file;
}

void close_out(std::ofstream& file, const std::string& path) {
  file.flush();
  if (!file) throw InputError(path + ": cannot write it (disk full?)");
}

void write_nodes(const Platform& p, const std::string& path) {
  std::ofstream file = open_out(path);
  std::string buffer = "node,type,row,rack,slot,x,y,z,zone\n";
  const bool room = p.has_room(), network = p.network != NetworkKind::none;
  for (std::int32_t n = 0; n < p.node_count; ++n) {
    buffer += std::to_string(n) + ',' + p.type_of(n).name + ',';
    if (room) {
      const RoomPosition r = p.position(n);
      buffer += std::to_string(r.row) + ',' + std::to_string(r.rack) + ',' + std::to_string(r.slot) + ',';
    } else {
      buffer += ",,,";
    }
    if (network) {
      const auto c = p.coordinate(n);
      buffer += std::to_string(c[0]) + ',' + std::to_string(c[1]) + ',' + std::to_string(c[2]) + ',';
    } else {
      buffer += ",,,";
    }
    buffer += (room ? std::to_string(p.zone_of(n)) : std::string()) + '\n';
    if (buffer.size() > (1 << 20)) {
      file << buffer;
      buffer.clear();
    }
  }
  file << buffer;
  close_out(file, path);
}

void write_matrix(const Matrix& m, const std::string& path) {
  std::ofstream file = open_out(path);
  std::string line;
  for (Eigen::Index i = 0; i < m.rows(); ++i) {
    line.clear();
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
      if (j > 0) line += ',';
      line += format_number(m(i, j));
    }
    file << line << '\n';
  }
  close_out(file, path);
}

/// PREFIX_D.csv (K/W per zone), PREFIX_A.csv (the recirculation model's A, given or generated), or
/// for crac_node PREFIX_influence.csv ((zones + CRACs) squared, rows the outlets and columns the
/// inlets, zones then CRACs: the format influence_indices reads back). Returns the files written.
std::vector<std::string> write_matrices(const Platform& platform, const ParamSet& params, const std::string& prefix) {
  const HeatDistributionBuild heat = build_heat_distribution(platform, params, read_matrix_any);
  std::vector<std::string> written;
  auto emit = [&](const Matrix& m, const std::string& name) {
    write_matrix(m, prefix + name);
    written.push_back(prefix + name);
  };
  if (heat.crac_node) {
    const InfluenceIndices& a = heat.crac_node->indices();
    Matrix all(a.node.rows() + a.crac.rows(), a.node.cols());
    all << Matrix(a.node), a.crac;
    emit(all, "_influence.csv");
    return written;
  }
  emit(heat.d->matrix(), "_D.csv");
  const bool d_given = !params.text("heat_distribution").empty() ||
                       (params.text("recirculation").empty() && !platform.heat_distribution.empty() &&
                        heat.zones->zone_nodes == platform.zone_nodes);
  if (!d_given) emit(recirculation_matrix(platform, params, *heat.zones, read_matrix_any), "_A.csv");
  return written;
}

std::string network_text(const Platform& p) {
  if (p.network == NetworkKind::none) return "none";
  const auto& d = p.network_dims;
  return std::string(p.network == NetworkKind::torus ? "3D torus " : "3D mesh ") + std::to_string(d[0]) + " x " +
         std::to_string(d[1]) + " x " + std::to_string(d[2]);
}

void print_summary(std::ostream& out, const Platform& p) {
  out << "platform " << p.name << ": " << p.node_count << " nodes x " << p.cores_per_node << " cores\n";
  out << "  node types: ";
  for (std::size_t t = 0; t < p.types.size(); ++t) out << (t ? ", " : "") << p.types[t].name;
  out << "\n  network: " << network_text(p) << "\n";
  if (p.has_room()) {
    out << "  room: " << p.room.rows << " rows x " << p.room.racks_per_row << " racks x " << p.room.nodes_per_rack
        << " nodes, " << p.room.cracs << " CRAC(s) of " << format_number(p.room.crac_airflow_m3s) << " m3/s\n"
        << "  thermal zones: " << p.zone_count() << " of " << p.zone_nodes << " node(s)\n";
  } else {
    out << "  room: none (no thermal model)\n";
  }
  if (!p.source.empty()) out << "  source: " << p.source << "\n";
}

}  // namespace

int platform_command(std::span<const std::string> args, std::ostream& out, std::ostream&) {
  const ParamCatalog& catalog = simulation_catalog();
  po::options_description options("Output");
  options.add_options()("nodes-out", po::value<std::string>()->value_name("FILE.csv"),
                        "one row per node: node,type,row,rack,slot,x,y,z,zone")(
      "matrices-out", po::value<std::string>()->value_name("PREFIX"),
      "the room's matrices as CSV: PREFIX_D.csv (and PREFIX_A.csv when generated or given), or for "
      "crac_node PREFIX_influence.csv")("help,h", "this help");
  options.add(param_options(catalog));
  const po::variables_map vm = parse_options(args, options, "platform", true);
  if (vm.count("help")) {
    out << "usage: dcsweep platform NAME [--param value ...] [--nodes-out FILE.csv] [--matrices-out PREFIX]\n"
           "Describes a platform; writes its nodes and its room's matrices.\n"
           "Guide: docs/user-guide.md#platforms-and-the-thermal-model-dcsweep-platform-dcsweep-thermal;\n"
           "the presets' sources: inputs/platforms/README.md\n\n"
        << options;
    return kExitOk;
  }
  const std::vector<std::string> names = positionals(vm);
  if (names.size() != 1) throw InputError("platform: expected one platform NAME (dcsweep list shows them)");
  ParamSet params(catalog);
  apply_params(vm, params);
  params.set("platform", names.front());
  const Platform platform = *platform_registry().at(names.front()).make({params, {}}, TraceHint{});
  if (platform.node_count == 0) throw InputError("platform: 'trace' takes its machine from a trace; name a preset");
  if (vm.count("matrices-out") && !platform.has_room()) {
    throw InputError("platform: '" + platform.name + "' has no room, so no matrices (--matrices-out)");
  }
  print_summary(out, platform);
  if (vm.count("nodes-out")) {
    write_nodes(platform, vm["nodes-out"].as<std::string>());
    out << "  wrote " << vm["nodes-out"].as<std::string>() << "\n";
  }
  if (vm.count("matrices-out")) {
    for (const std::string& path : write_matrices(platform, params, vm["matrices-out"].as<std::string>())) {
      out << "  wrote " << path << "\n";
    }
  }
  return kExitOk;
}

}  // namespace dcsweep::cli
