#include "dcsweep/thermal/recirculation.hpp"

#include <cmath>
#include <thread>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/text.hpp"

namespace dcsweep {

ThermalZones thermal_zones(const Platform& platform, std::int32_t zone_nodes) {
  const std::int32_t per_rack = platform.has_room() ? platform.room.nodes_per_rack : platform.node_count;
  if (zone_nodes < 1 || per_rack % zone_nodes != 0) {
    throw InputError("thermal_zone_nodes = " + std::to_string(zone_nodes) + " must divide the " +
                     std::to_string(per_rack) + " nodes of a rack of platform '" + platform.name + "'");
  }
  ThermalZones zones;
  zones.zone_nodes = zone_nodes;
  const std::int32_t count = platform.node_count / zone_nodes;
  for (std::int32_t z = 0; z < count; ++z) {
    double height = 0, flow = 0;
    const RoomPosition first = platform.position(z * zone_nodes);
    for (std::int32_t n = z * zone_nodes; n < (z + 1) * zone_nodes; ++n) {
      height += per_rack > 1 ? double(platform.position(n).slot) / (per_rack - 1) : 0.0;
      flow += platform.type_of(n).airflow_m3s;
    }
    zones.row.push_back(first.row);
    zones.rack.push_back(first.rack);
    zones.height.push_back(height / zone_nodes);
    zones.airflow_m3s.push_back(flow);
  }
  return zones;
}

std::vector<double> heat_capacity_rates(const ThermalZones& zones, const AirProperties& air) {
  std::vector<double> k;
  for (const double f : zones.airflow_m3s) k.push_back(air.density_kg_m3 * air.heat_capacity_j_kgk * f);
  return k;
}

namespace {

void check_shape(const Matrix& m, std::size_t size, const std::string& name, const char* what) {
  if (m.rows() != m.cols()) {
    throw InputError(name + ": " + what + " must be square, it is " + std::to_string(m.rows()) + " x " +
                     std::to_string(m.cols()));
  }
  if (std::size_t(m.rows()) != size) {
    throw InputError(name + ": " + what + " is " + std::to_string(m.rows()) + " x " + std::to_string(m.cols()) +
                     "; the platform has " + std::to_string(size) + " thermal zones");
  }
  if (!m.allFinite()) throw InputError(name + ": " + what + " has entries that are not finite numbers");
}

void check_non_negative(const Matrix& m, Eigen::Index row, const std::string& name, const char* what,
                        const char* meaning) {
  for (Eigen::Index j = 0; j < m.cols(); ++j) {
    if (m(row, j) < 0) {
      throw InputError(name + ": " + what + "[" + std::to_string(row + 1) + "][" + std::to_string(j + 1) +
                       "] = " + format_number(m(row, j)) + " is negative (" + meaning + ")");
    }
  }
}

}  // namespace

void check_recirculation(const Matrix& a, std::size_t size, const std::string& name) {
  check_shape(a, size, name, "A");
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    check_non_negative(a, i, name, "A", "a fraction of heat");
    const double sum = a.row(i).sum();
    if (sum >= 1) {
      throw InputError(name + ": row " + std::to_string(i + 1) + " of A sums to " + format_number(sum) +
                       " (must be below 1: a node cannot recirculate all of its heat)");
    }
  }
}

void check_supply_fraction(const Matrix& f, std::size_t size, const std::string& name) {
  check_shape(f, size, name, "F");
  for (Eigen::Index i = 0; i < f.rows(); ++i) {
    check_non_negative(f, i, name, "F", "a fraction of supply air");
    const double sum = f.row(i).sum();
    if (!(sum > 0) || sum > 1 + 1e-9) {
      throw InputError(name + ": row " + std::to_string(i + 1) + " of F sums to " + format_number(sum) +
                       " (must be in (0, 1]: the share of the inlet's air that is CRAC supply air)");
    }
  }
}

std::vector<std::string> check_heat_distribution(const Matrix& d, std::size_t size, const std::string& name) {
  check_shape(d, size, name, "D");
  const Eigen::Index negative = (d.array() < 0).count();
  if (negative == 0) return {};
  return {name + ": " + std::to_string(negative) + " negative entries in D (down to " + format_number(d.minCoeff()) +
          " K/W), kept: a D fitted from CFD can have them"};
}

namespace {

/// c = alpha a b (+ c when `accumulate`): the columns of b and c cut into a fixed number of blocks,
/// each an ordinary single-threaded Eigen product, computed by up to that many threads. The cut
/// depends only on the sizes, so the result is the same bits whatever the number of threads.
void product(Eigen::Ref<Matrix> c, const Eigen::Ref<const Matrix>& a, const Eigen::Ref<const Matrix>& b, double alpha,
             bool accumulate, unsigned threads) {
  constexpr Eigen::Index kBlocks = 4, kMinCols = 256;
  const Eigen::Index blocks = b.cols() >= kBlocks * kMinCols ? kBlocks : 1;
  auto block = [&](Eigen::Index j) {
    const Eigen::Index begin = b.cols() * j / blocks, end = b.cols() * (j + 1) / blocks;
    auto out = c.middleCols(begin, end - begin);
    if (accumulate) {
      out.noalias() += alpha * a * b.middleCols(begin, end - begin);
    } else {
      out.noalias() = alpha * a * b.middleCols(begin, end - begin);
    }
  };
  const auto workers = std::min<Eigen::Index>(blocks, Eigen::Index(threads));
  std::vector<std::thread> helpers;
  for (Eigen::Index w = 1; w < workers; ++w) {
    helpers.emplace_back([&, w] {
      for (Eigen::Index j = w; j < blocks; j += workers) block(j);
    });
  }
  for (Eigen::Index j = 0; j < blocks; j += workers) block(j);
  for (std::thread& t : helpers) t.join();
}

/// Inverts m in place by blocks (Schur complements), all the work in products. Without pivoting:
/// only for strictly column diagonally dominant matrices (I - A^T with A's rows non-negative and
/// below 1), whose leading blocks and Schur complements stay so (Gaussian elimination is stable).
void invert_dominant(Eigen::Ref<Matrix> m, unsigned threads) {
  const Eigen::Index n = m.rows();
  if (n <= 192) {
    m = m.partialPivLu().inverse().eval();
    return;
  }
  const Eigen::Index h = n / 2;
  auto a11 = m.topLeftCorner(h, h);
  auto a12 = m.topRightCorner(h, n - h);
  auto a21 = m.bottomLeftCorner(n - h, h);
  auto a22 = m.bottomRightCorner(n - h, n - h);
  invert_dominant(a11, threads);  // X11 = A11^-1
  Matrix t21(n - h, h);
  product(t21, a21, a11, 1.0, false, threads);  // A21 X11
  product(a22, t21, a12, -1.0, true, threads);  // S = A22 - A21 X11 A12
  invert_dominant(a22, threads);  // S^-1
  Matrix t12(h, n - h);
  product(t12, a11, a12, 1.0, false, threads);  // X11 A12
  product(a12, t12, a22, -1.0, false, threads);  // top right: -X11 A12 S^-1
  product(a11, a12, t21, -1.0, true, threads);  // top left: X11 + X11 A12 S^-1 A21 X11
  product(a21, a22, t21, -1.0, false, threads);  // bottom left: -S^-1 A21 X11
}

}  // namespace

Matrix heat_distribution_from_recirculation(Matrix a, const std::vector<double>& k, unsigned threads) {
  if (threads == 0) threads = std::max(1U, std::thread::hardware_concurrency());
  // In place where it can be: a large room's matrices are hundreds of MB each.
  const Eigen::Index n = a.rows();
  const bool dominant = n == 0 || ((a.array() >= 0).all() && a.rowwise().sum().maxCoeff() < 1 - 1e-9);
  a.transposeInPlace();
  a *= -1.0;
  a.diagonal().array() += 1.0;  // I - A^T
  Matrix x;
  if (n >= kBlockInverseZones && dominant) {
    invert_dominant(a, threads);  // large rooms: (I - A^T)^-1 by blocks, in products (threads)
    x = std::move(a);
  } else {
    Eigen::PartialPivLU<Eigen::Ref<Matrix>> lu(a);
    x = Matrix::Identity(n, n);
    x = lu.solve(x);  // (I - A^T)^-1, solved in place (Eigen permutes and substitutes within x)
    a.resize(0, 0);
  }
  x.diagonal().array() -= 1.0;
  for (Eigen::Index i = 0; i < n; ++i) x.row(i) /= k[std::size_t(i)];  // K^-1 (...)
  return x;
}

std::vector<double> inlet_factors(const ThermalZones& zones, const RecirculationGenerator& g) {
  std::int32_t last_rack = 0;
  for (const std::int32_t r : zones.rack) last_rack = std::max(last_rack, r);
  std::vector<double> inlet(zones.size(), 1.0);
  for (std::size_t j = 0; j < inlet.size(); ++j) {
    const double along = last_rack > 0 ? double(zones.rack[j]) / last_rack : 0.0;
    inlet[j] = (1 + g.height_gain * zones.height[j]) * (1 + g.end_gain * along * along * along);
  }
  return inlet;
}

double row_coupling(const RecirculationGenerator& g, std::int32_t ri, std::int32_t rj) {
  return ri == rj ? 1.0 : (ri / 2 == rj / 2 ? g.cross_row : g.far_row / std::abs(ri - rj));  // rows 2k, 2k+1 face
}

Matrix generate_recirculation(const ThermalZones& zones, const RecirculationGenerator& g, RngStream& rng) {
  const auto n = static_cast<Eigen::Index>(zones.size());
  const std::vector<double> inlet = inlet_factors(zones, g);
  const double fraction = g.fraction * (1 - 0.9 * g.containment);
  Matrix a(n, n);
  for (Eigen::Index i = 0; i < n; ++i) {
    double total = 0;
    for (Eigen::Index j = 0; j < n; ++j) {
      const std::size_t si = std::size_t(i), sj = std::size_t(j);
      const double aisle = row_coupling(g, zones.row[si], zones.row[sj]);
      const double w = std::exp(-std::abs(zones.rack[si] - zones.rack[sj]) / g.rack_decay) * inlet[sj] * aisle *
                       (1 + g.noise * rng.uniform(-1.0, 1.0));
      a(i, j) = w;
      total += w;
    }
    a.row(i) *= fraction / total;
  }
  return a;
}

}  // namespace dcsweep
