// Any bytes as a matrix file (CSV or MatrixMarket, chosen by the first byte), then checked as a
// recirculation matrix A and as a heat-distribution matrix D of its own size.
#include <cstdint>
#include <string>

#include "dcsweep/thermal/matrix_io.hpp"
#include "dcsweep/thermal/recirculation.hpp"
#include "fuzz_check.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  const std::string name = data[0] % 2 ? "fuzz.mtx" : "fuzz.csv";
  dcsweep::fuzz::accept_or_refuse([&] {
    const dcsweep::Matrix m = dcsweep::parse_matrix(text, name);
    if (m.rows() > 64) return;  // sizes are checked by the callers; keep each run short
    dcsweep::check_recirculation(m, std::size_t(m.rows()), name);
    dcsweep::check_heat_distribution(m, std::size_t(m.rows()), name);
  });
  return 0;
}
