#pragma once
// No silent no-ops (issue 30): a parameter a spec sets explicitly ([base], an axis, a zip, a
// factor) that no point of the sweep reads is bad input, named with what would read it
// (ParamSpec::read_by). An axis over such a parameter would multiply the cost and yield flat
// arrays that look like a finding.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "dcsweep/sweep/grid.hpp"

namespace dcsweep {

class ReadCheck {
 public:
  explicit ReadCheck(const SweepSpec& spec, const ParamCatalog& catalog);
  /// Notes which of the explicit parameters this point reads.
  void observe(const ParamSet& point);
  /// InputError "SPEC:12: [axes] NAME: parameter 'NAME' is read by ...; no point of this sweep
  /// has that (...)" for the first explicit parameter no observed point read.
  void finish() const;

 private:
  struct Explicit {
    const ParamSpec* spec;
    std::string where;  ///< " [base] name", "12: [axes] name" (after "SPEC:")
    bool read = false;
    std::map<std::string, std::set<std::string>> seen;  ///< selector -> values the points had
  };
  std::string path_;
  std::vector<Explicit> explicit_;
};

/// The same for one simulation's values: InputError for the first parameter set that it does not
/// read ("parameter 'parm_scheme' is read by scheduler = parm; this run has scheduler = easy").
void check_params_read(const ParamSet& values);

}  // namespace dcsweep
