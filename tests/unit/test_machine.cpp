#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "dcsweep/alloc/allocator.hpp"
#include "dcsweep/core/error.hpp"
#include "dcsweep/sim/catalog.hpp"

namespace dcsweep {
namespace {

TEST(Machine, OccupyReleaseAndLowestFree) {
  Machine m(130);
  EXPECT_EQ(m.free_count(), 130);
  const std::vector<NodeId> a = {0, 1, 64, 129};
  m.occupy(a);
  EXPECT_EQ(m.free_count(), 126);
  EXPECT_FALSE(m.is_free(64));
  std::vector<NodeId> low;
  m.lowest_free(3, low);
  EXPECT_EQ(low, (std::vector<NodeId>{2, 3, 4}));
  EXPECT_THROW(m.occupy(std::vector<NodeId>{1}), SimulationError);
  m.release(a);
  EXPECT_EQ(m.free_count(), 130);
  EXPECT_THROW(m.release(std::vector<NodeId>{1}), SimulationError);
}

std::unique_ptr<Allocator> make_allocator(const std::string& name, std::uint64_t seed) {
  static const Platform platform{"p", 100, 1, ""};
  ParamSet params(simulation_catalog());
  return allocator_registry().at(name).make(BuildContext{params, {seed, 0, 0}}, platform);
}

TEST(Allocators, FirstFitTakesLowestFreeIds) {
  Machine m(100);
  m.occupy(std::vector<NodeId>{0, 2});
  std::vector<NodeId> out;
  ASSERT_TRUE(make_allocator("first_fit", 1)->allocate(3, m, out));
  EXPECT_EQ(out, (std::vector<NodeId>{1, 3, 4}));
}

TEST(Allocators, RandomGivesDistinctFreeNodesReproducibly) {
  Machine m(100);
  std::vector<NodeId> busy(50);
  for (int i = 0; i < 50; ++i) busy[i] = 2 * i;
  m.occupy(busy);
  std::vector<NodeId> a, b, c;
  ASSERT_TRUE(make_allocator("random", 7)->allocate(20, m, a));
  ASSERT_TRUE(make_allocator("random", 7)->allocate(20, m, b));
  ASSERT_TRUE(make_allocator("random", 8)->allocate(20, m, c));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(std::set<NodeId>(a.begin(), a.end()).size(), 20u);
  for (NodeId n : a) EXPECT_TRUE(m.is_free(n));
}

TEST(Allocators, RandomIsUniformOverFreeNodes) {
  Machine m(10);
  auto allocator = make_allocator("random", 3);
  int hits[10] = {};
  for (int i = 0; i < 20000; ++i) {
    std::vector<NodeId> out;
    allocator->allocate(3, m, out);
    for (NodeId n : out) ++hits[n];
  }
  for (int h : hits) EXPECT_NEAR(h, 6000, 300);
}

TEST(Allocators, UnknownNameListsValidOnes) {
  try {
    allocator_registry().at("firstfit");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "unknown allocator 'firstfit' (did you mean 'first_fit'?); valid: first_fit, random, mc1x1, mm, genalg, bqp");
  }
}

}  // namespace
}  // namespace dcsweep
