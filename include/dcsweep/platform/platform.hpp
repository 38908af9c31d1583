#pragma once
// The simulated machine: its nodes and what each is. At this stage a platform is a node count
// and cores per node; the thermal issue adds node types, room positions, network coordinates
// and thermal zones to the same structure.
#include <cstdint>
#include <memory>
#include <string>

#include "dcsweep/core/registry.hpp"

namespace dcsweep {

struct Platform {
  std::string name;
  std::int32_t node_count = 0;
  std::int32_t cores_per_node = 1;  ///< converts a trace's processors into nodes
  std::string source;               ///< where the preset's numbers come from
};

/// The machine a trace was recorded on, when one is known (0 nodes otherwise).
struct TraceHint {
  std::int32_t nodes = 0;
  std::int32_t cores_per_node = 1;
  std::string path;
};

/// Platform presets by name; "trace" is the trace's own machine (from its header).
using PlatformRegistry = Registry<Platform, const TraceHint&>;
const PlatformRegistry& platform_registry();

}  // namespace dcsweep
