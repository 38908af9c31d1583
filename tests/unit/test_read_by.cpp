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

/// Sets what makes `spec` itself read (its first reader, and that reader's selector in turn).
void make_read(ParamSet& values, const ParamSpec& spec) {
  if (param_is_read(spec, values)) return;
  const ParamReader& r = spec.read_by.front();
  values.set_text(r.param, r.values.front());
  make_read(values, values.catalog().at(values.catalog().index_of(r.param)));
}

/// "platform = trace; scheduler = easy": what each of `spec`'s selectors is in `values`.
std::string selectors_text(const ParamSpec& spec, const ParamSet& values) {
  std::vector<std::string> seen;
  for (const ParamReader& r : spec.read_by) {
    const std::string part = r.param + " = " + format_value(values.value(r.param));
    if (std::find(seen.begin(), seen.end(), part) == seen.end()) seen.push_back(part);
  }
  std::sort(seen.begin(), seen.end());
  return join(seen, "; ");
}

TEST(ReadBy, EveryParameterIsRefusedWhereNothingReadsItAndAcceptedWhereAReaderDoes) {
  const ParamCatalog& catalog = simulation_catalog();
  int refused = 0;
  for (const ParamSpec& spec : catalog.all()) {
    if (spec.read_by.empty()) continue;
    // Each selector at a value that does not read the parameter, and itself read.
    ParamSet ignoring(catalog);
    bool composable = true;
    for (const ParamReader& r : spec.read_by) {
      const ParamSpec& selector = catalog.at(catalog.index_of(r.param));
      const std::string other = value_reading_nothing(spec, selector);
      if (other.empty()) composable = false;
      else ignoring.set_text(r.param, other), make_read(ignoring, selector);
    }
    if (!composable || param_is_read(spec, ignoring)) continue;  // every value of a selector reads it
    ignoring.set(spec.name, spec.default_value);
    SCOPED_TRACE(spec.name);
    EXPECT_EQ(test::input_error([&] { check_params_read(ignoring); }),
              "parameter '" + spec.name + "' is read by " + readers_text(spec) + "; this run has " +
                  selectors_text(spec, ignoring));
    for (const ParamReader& r : spec.read_by) {
      ParamSet reading = ignoring;
      reading.set_text(r.param, r.values.front());
      make_read(reading, catalog.at(catalog.index_of(r.param)));
      EXPECT_TRUE(param_is_read(spec, reading)) << r.param << " = " << r.values.front();
      EXPECT_EQ(test::input_error([&] { check_params_read(reading); }), "") << r.param << " = " << r.values.front();
    }
    ++refused;
  }
  EXPECT_GT(refused, 80);  // the plug-ins' parameters, the workload's, the room's, the rate-based model's
}

// A reader whose own selector is not read: the message says why that one is not.
TEST(ReadBy, AReaderThatIsItselfUnreadIsExplained) {
  ParamSet p(simulation_catalog());
  p.set("thermostat_high_c", 27.0);
  p.set("cooling", std::string("thermostat"));
  EXPECT_EQ(test::input_error([&] { check_params_read(p); }),
            "parameter 'cooling' is read by platform = meng40, asu50, oxley1080, oxley4320, intrepid, room; this run "
            "has platform = trace");
  ParamSet q(simulation_catalog());  // cooling left at its default: the chain is explained
  q.set("thermostat_high_c", 27.0);
  EXPECT_EQ(test::input_error([&] { check_params_read(q); }),
            "parameter 'thermostat_high_c' is read by cooling = thermostat; this run has cooling = redline");
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
