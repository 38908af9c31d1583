#pragma once
// The one parameter catalog of a simulation: the scenario's parameters plus every plug-in's.
// The CLI options, the spec parser and the result-file metadata are all generated from it.
#include "dcsweep/core/params.hpp"

namespace dcsweep {

const ParamCatalog& simulation_catalog();

}  // namespace dcsweep
