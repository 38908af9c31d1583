// Any bytes as a sweep spec: parsed against the simulation catalog and laid out as a grid.
#include <cstdint>
#include <string>

#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sweep/grid.hpp"
#include "dcsweep/sweep/spec.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  dcsweep::fuzz::accept_or_refuse([&] {
    const dcsweep::SweepSpec spec = dcsweep::parse_spec(text, "fuzz.toml", dcsweep::simulation_catalog());
    const dcsweep::Grid grid(spec, dcsweep::simulation_catalog());
    if (grid.size() > 0) grid.params(grid.size() - 1);
  });
  return 0;
}
