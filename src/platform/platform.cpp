#include "dcsweep/platform/platform.hpp"

#include "dcsweep/core/error.hpp"

namespace dcsweep {
namespace {

PlatformRegistry::Entry preset(std::string name, std::string help, std::int32_t nodes,
                               std::int32_t cores, std::string source) {
  auto make = [=](const BuildContext&, const TraceHint&) {
    return std::make_unique<Platform>(Platform{name, nodes, cores, source});
  };
  return {std::move(name), std::move(help), {}, make};
}

PlatformRegistry::Entry trace_machine_entry() {
  auto make = [](const BuildContext&, const TraceHint& hint) {
    if (hint.nodes <= 0) {
      throw InputError("platform 'trace' needs a trace with a MaxNodes/MaxProcs header; choose a platform");
    }
    return std::make_unique<Platform>(
        Platform{"trace", hint.nodes, hint.cores_per_node, hint.path + " header (MaxNodes, MaxProcs)"});
  };
  return {"trace", "the machine the trace was recorded on: MaxNodes nodes, floor(MaxProcs/MaxNodes) cores each",
          {}, make};
}

}  // namespace

const PlatformRegistry& platform_registry() {
  static const PlatformRegistry registry(
      "platform",
      {trace_machine_entry(),
       preset("meng40", "40 nodes, 2 rows x 5 racks x 4 (node = chassis of 10 servers); one trace processor per node",
              40, 1, "[P0] Sec. 5.1, [P1] Sec. 3: jobs of 1-40 processors on 40 nodes"),
       preset("intrepid", "IBM Blue Gene/P Intrepid: 40 racks x 1024 nodes, 4 cores per node", 40960, 4,
              "[P2] Sec. VII: 40,960 nodes, 163,840 cores")});
  return registry;
}

}  // namespace dcsweep
