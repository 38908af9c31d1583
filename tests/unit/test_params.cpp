#include <gtest/gtest.h>

#include "dcsweep/core/error.hpp"
#include "dcsweep/core/params.hpp"
#include "dcsweep/sim/catalog.hpp"

namespace dcsweep {
namespace {

ParamCatalog sample_catalog() {
  ParamCatalog c;
  c.add({.name = "gamma", .type = ParamType::real, .default_value = 1.0, .min = 0, .max = 10, .min_open = true,
         .help = "arrival scaling"});
  c.add({.name = "jobs", .type = ParamType::integer, .default_value = std::int64_t{0}, .min = 0, .help = "count"});
  c.add({.name = "scheduler", .type = ParamType::choice, .default_value = std::string("easy"),
         .choices = {"easy", "fcfs"}, .help = "policy"});
  c.add({.name = "strict", .type = ParamType::boolean, .default_value = false, .help = "strict"});
  return c;
}

std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Params, DefaultsThenSetValues) {
  const ParamCatalog c = sample_catalog();
  ParamSet p(c);
  EXPECT_EQ(p.real("gamma"), 1.0);
  p.set_text("gamma", "0.5");
  p.set("jobs", std::int64_t{7});
  p.set_text("strict", "true");
  EXPECT_EQ(p.real("gamma"), 0.5);
  EXPECT_EQ(p.integer("jobs"), 7);
  EXPECT_TRUE(p.boolean("strict"));
  EXPECT_TRUE(p.was_set("gamma"));
  EXPECT_FALSE(p.was_set("scheduler"));
}

TEST(Params, IntegerAcceptedForRealAndWholeRealForInteger) {
  const ParamCatalog c = sample_catalog();
  ParamSet p(c);
  p.set("gamma", std::int64_t{2});
  p.set("jobs", 3.0);
  EXPECT_EQ(p.real("gamma"), 2.0);
  EXPECT_EQ(p.integer("jobs"), 3);
  EXPECT_EQ(error_of([&] { p.set("jobs", 2.5); }), "parameter 'jobs': expected an integer, got 2.5");
}

TEST(Params, RangeErrorsNameTheParameterAndRange) {
  const ParamCatalog c = sample_catalog();
  ParamSet p(c);
  EXPECT_EQ(error_of([&] { p.set_text("gamma", "-1"); }), "parameter 'gamma': -1 is out of range (0, 10]");
  EXPECT_EQ(error_of([&] { p.set_text("gamma", "0"); }), "parameter 'gamma': 0 is out of range (0, 10]");
  EXPECT_EQ(error_of([&] { p.set_text("gamma", "abc"); }), "parameter 'gamma': expected a number, got 'abc'");
  EXPECT_EQ(p.real("gamma"), 1.0) << "a rejected value leaves the old one";
}

TEST(Params, UnknownNamesSuggestTheClosest) {
  const ParamCatalog c = sample_catalog();
  ParamSet p(c);
  EXPECT_EQ(error_of([&] { p.set_text("gama", "1"); }), "unknown parameter 'gama' (did you mean 'gamma'?)");
  EXPECT_EQ(error_of([&] { p.set_text("scheduler", "esay"); }),
            "parameter 'scheduler': unknown value 'esay' (did you mean 'easy'?); valid: easy, fcfs");
}

TEST(Params, RedeclarationMustBeIdentical) {
  ParamCatalog c = sample_catalog();
  EXPECT_NO_THROW(c.add(*c.find("strict")));
  ParamSpec changed = *c.find("strict");
  changed.help = "other";
  EXPECT_THROW(c.add(changed), std::logic_error);
}

TEST(Params, SimulationCatalogHasTheContractNamesWithValidDefaults) {
  const ParamCatalog& c = simulation_catalog();
  for (const char* name : {"platform", "trace", "first_job", "jobs", "gamma", "scheduler", "allocator", "seed"}) {
    EXPECT_NE(c.find(name), nullptr) << name;
  }
  for (const ParamSpec& spec : c.all()) {
    EXPECT_FALSE(spec.help.empty()) << spec.name;
    EXPECT_NO_THROW(check_param(spec, spec.default_value)) << spec.name;
  }
}

}  // namespace
}  // namespace dcsweep
