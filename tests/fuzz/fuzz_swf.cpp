// Any bytes (plain or gzip) as an SWF trace: parsed and turned into a workload for a 128-node machine, or refused.
#include <cstdint>
#include <string>

#include "dcsweep/workload/swf.hpp"
#include "dcsweep/workload/workload.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  dcsweep::fuzz::accept_or_refuse([&] {
    const dcsweep::SwfTrace trace = dcsweep::parse_swf(dcsweep::decompress_gzip_text(text, "fuzz.swf"), "fuzz.swf");
    dcsweep::build_workload(trace, {}, {128, 1});
  });
  return 0;
}
