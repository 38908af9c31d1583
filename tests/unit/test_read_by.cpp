// No silent no-ops (issue 30): every parameter declares what reads it (ParamSpec::read_by); a
// parameter set explicitly where nothing reads it is an error naming what would. The first test
// is generated from the declarations: every parameter with readers, against a composition that
// ignores it, so a new parameter is covered by construction.
#include <gtest/gtest.h>

#include <algorithm>

#include "dcsweep/core/text.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sweep/read_check.hpp"
#include "test_helpers.hpp"

namespace dcsweep {
namespace {

/// A value of `selector` that none of `spec`'s readers on that selector names, or "" if none is.
std::string value_reading_nothing(const ParamSpec& spec, const ParamSpec& selector) {
  for (const std::string& candidate : selector.choices) {
    const bool reads = std::any_of(spec.read_by.begin(), spec.read_by.end(), [&](const ParamReader& r) {
      return r.param == selector.name && std::find(r.values.begin(), r.values.end(), candidate) != r.values.end();
    });
    if (!reads) return candidate;
  }
  return "";
}

TEST(ReadBy, EveryParameterIsRefusedWhereNothingReadsItAndAcceptedWhereAReaderDoes) {
  const ParamCatalog& catalog = simulation_catalog();
  int refused = 0;
  for (const ParamSpec& spec : catalog.all()) {
    if (spec.read_by.empty()) continue;
    ParamSet ignoring(catalog);
    bool composable = true;
    for (const ParamReader& r : spec.read_by) {
      const std::string other = value_reading_nothing(spec, catalog.at(catalog.index_of(r.param)));
      if (other.empty())
        composable = false;
      else
        ignoring.set_text(r.param, other);
    }
    if (!composable) continue;  // every value of a selector reads it
    ignoring.set(spec.name, spec.default_value);
    SCOPED_TRACE(spec.name);
    EXPECT_EQ(
        test::input_error([&] { check_params_read(ignoring); }),
        "parameter '" + spec.name + "' is read by " + readers_text(spec) + "; this run has " + [&] {
          std::vector<std::string> seen;
          for (const ParamReader& r : spec.read_by) {
            const std::string part = r.param + " = " + format_value(ignoring.value(r.param));
            if (std::find(seen.begin(), seen.end(), part) == seen.end()) seen.push_back(part);
          }
          std::sort(seen.begin(), seen.end());
          return join(seen, "; ");
        }());
    for (const ParamReader& r : spec.read_by) {
      ParamSet reading = ignoring;
      reading.set_text(r.param, r.values.front());
      EXPECT_TRUE(param_is_read(spec, reading)) << r.param << " = " << r.values.front();
      EXPECT_EQ(test::input_error([&] { check_params_read(reading); }), "");
    }
    ++refused;
  }
  EXPECT_GT(refused, 60);  // the plug-ins' parameters, the workload's, the rate-based model's
}

TEST(ReadBy, TheIssuesExamplesAreRefusedWithOneLine) {
  ParamSet p(simulation_catalog());
  p.set("parm_scheme", std::string("nomm"));
  EXPECT_EQ(test::input_error([&] { check_params_read(p); }),
            "parameter 'parm_scheme' is read by scheduler = parm; this run has scheduler = easy");
  ParamSet q(simulation_catalog());
  q.set("workload", std::string("poisson"));
  q.set("jobs", std::int64_t{7});
  EXPECT_EQ(test::input_error([&] { check_params_read(q); }),
            "parameter 'jobs' is read by workload = trace; this run has workload = poisson");
  ParamSet g(simulation_catalog());  // gamma scales Poisson arrivals too: read
  g.set("workload", std::string("poisson"));
  g.set("gamma", 0.5);
  EXPECT_EQ(test::input_error([&] { check_params_read(g); }), "");
}

}  // namespace
}  // namespace dcsweep
