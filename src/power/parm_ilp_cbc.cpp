// The PARM ILP (parm_ilp.hpp) as a general MIP for COIN-OR CBC: one binary per option, one
// choice row per job (<= 1 pending, = 1 running), the node row (Eq. 4) and the power row (Eq. 5),
// solved by CBC's standard driver (presolve, cuts, heuristics) with its logging off. The
// reference the fast solver is tested and benchmarked against.
#include <CbcModel.hpp>
#include <CbcSolver.hpp>
#include <CoinPackedMatrix.hpp>
#include <CoinPackedVector.hpp>
#include <OsiClpSolverInterface.hpp>

#include <cmath>
#include <vector>

#include "dcsweep/core/error.hpp"
#include "dcsweep/power/parm_ilp.hpp"

namespace dcsweep {
namespace {

int no_callback(CbcModel*, int) { return 0; }

}  // namespace

ParmSolution solve_parm_ilp_cbc(const ParmInstance& in) {
  check_parm_instance(in);
  std::vector<std::int32_t> choice(in.jobs.size(), ParmSolution::kNone);
  std::vector<std::pair<std::size_t, std::int32_t>> column_of;  // (job, option) per column
  for (std::size_t j = 0; j < in.jobs.size(); ++j) {
    if (in.jobs[j].running && in.jobs[j].options.empty()) return ParmSolution{};  // Eq. 3 cannot hold
    for (std::size_t o = 0; o < in.jobs[j].options.size(); ++o) column_of.emplace_back(j, std::int32_t(o));
  }
  if (column_of.empty()) return evaluate_parm_choice(in, choice);

  const int columns = int(column_of.size());
  CoinPackedMatrix matrix(false, 0, 0);  // row-ordered
  matrix.setDimensions(0, columns);
  std::vector<double> row_lo, row_hi;
  CoinPackedVector nodes_row, power_row;
  int column = 0;
  for (const ParmJob& job : in.jobs) {
    CoinPackedVector choice_row;
    for (const ParmOption& o : job.options) {
      choice_row.insert(column, 1.0);
      nodes_row.insert(column, double(o.nodes));
      power_row.insert(column, in.power_w(o));
      ++column;
    }
    if (job.options.empty()) continue;
    matrix.appendRow(choice_row);
    row_lo.push_back(job.running ? 1.0 : 0.0);  // Eq. 3 / Eq. 2
    row_hi.push_back(1.0);
  }
  matrix.appendRow(nodes_row);  // Eq. 4
  row_lo.push_back(-COIN_DBL_MAX);
  row_hi.push_back(double(in.node_capacity));
  matrix.appendRow(power_row);  // Eq. 5
  row_lo.push_back(-COIN_DBL_MAX);
  row_hi.push_back(in.power_budget_w);

  std::vector<double> lower(std::size_t(columns), 0.0), upper(std::size_t(columns), 1.0), cost;
  for (const auto& [j, o] : column_of) cost.push_back(-in.jobs[j].options[std::size_t(o)].value);  // CBC minimises
  OsiClpSolverInterface solver;
  solver.messageHandler()->setLogLevel(0);
  solver.setHintParam(OsiDoReducePrint, true, OsiHintTry);
  solver.loadProblem(matrix, lower.data(), upper.data(), cost.data(), row_lo.data(), row_hi.data());
  for (int k = 0; k < columns; ++k) solver.setInteger(k);

  CbcModel model(solver);
  model.messageHandler()->setLogLevel(0);
  CbcSolverUsefulData data;
  CbcMain0(model, data);
  data.noPrinting_ = true;
  const char* argv[] = {"parm_ilp", "-log", "0", "-slog", "0", "-solve", "-quit"};
  CbcMain1(int(sizeof argv / sizeof argv[0]), argv, model, no_callback, data);

  const double* x = model.bestSolution();
  if (!x) {
    if (model.isProvenInfeasible() || model.status() == 0) return ParmSolution{};
    throw SimulationError("PARM ILP: CBC stopped without a solution or a proof of infeasibility");
  }
  if (model.status() != 0) throw SimulationError("PARM ILP: CBC stopped before proving optimality");
  for (int k = 0; k < columns; ++k) {
    if (x[k] > 0.5) choice[column_of[std::size_t(k)].first] = column_of[std::size_t(k)].second;
  }
  ParmSolution out = evaluate_parm_choice(in, std::move(choice));
  if (!out.feasible) throw SimulationError("PARM ILP: CBC returned a choice that breaks a constraint");
  return out;
}

}  // namespace dcsweep
