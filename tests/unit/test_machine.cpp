#include <gtest/gtest.h>

#include <algorithm>
#include <random>
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

TEST(Machine, AgreesWithAPlainModelThroughRandomOperations) {
  // Word masks and the summary of non-empty words against a vector<bool> of free nodes, through
  // occupy, release, power off and boot on 1,000 nodes (16 words, a partial last one); each call
  // takes a shuffled node set, sometimes with a duplicate or a node in the wrong state (refused
  // and naming that node, the machine unchanged before it).
  const NodeId n = 1000;
  Machine m(n);
  std::vector<char> free(std::size_t(n), 1), off(std::size_t(n), 0), booting(std::size_t(n), 0);
  std::mt19937_64 rng(5);
  auto pick = [&](const std::vector<char>& from, std::size_t most) {
    std::vector<NodeId> out;
    for (NodeId v = 0; v < n; ++v) {
      if (from[std::size_t(v)]) out.push_back(v);
    }
    // A third of the sets are the lowest such nodes in order (as first fit gives them: whole
    // words of 64 consecutive ids, the masks' fast path), the others shuffled.
    if (rng() % 3 != 0) std::shuffle(out.begin(), out.end(), rng);
    out.resize(std::min(out.size(), std::size_t(rng() % (most + 1))));
    return out;
  };
  for (int step = 0; step < 3000; ++step) {
    const int op = int(rng() % 5);
    std::vector<NodeId> nodes = pick(op == 0 || op == 2 ? free : op == 1 ? std::vector<char>(free.size(), 0) : op == 3 ? off : booting, 200);
    if (op == 1) {  // release busy nodes: neither free, off nor booting
      for (NodeId v = 0; v < n; ++v) {
        if (!free[std::size_t(v)] && !off[std::size_t(v)] && !booting[std::size_t(v)]) nodes.push_back(v);
      }
      std::shuffle(nodes.begin(), nodes.end(), rng);
      nodes.resize(std::min(nodes.size(), std::size_t(rng() % 200)));
    }
    if (op <= 1 && !nodes.empty() && rng() % 10 == 0) {  // a duplicate in one call: refused
      nodes.push_back(nodes[rng() % nodes.size()]);
      const Machine before = m;
      EXPECT_THROW(op == 0 ? m.occupy(nodes) : m.release(nodes), SimulationError);
      m = before;
      continue;
    }
    switch (op) {
      case 0: m.occupy(nodes); for (NodeId v : nodes) free[std::size_t(v)] = 0; break;
      case 1: m.release(nodes); for (NodeId v : nodes) free[std::size_t(v)] = 1; break;
      case 2: m.power_off(nodes); for (NodeId v : nodes) { free[std::size_t(v)] = 0; off[std::size_t(v)] = 1; } break;
      case 3: m.begin_boot(nodes); for (NodeId v : nodes) { off[std::size_t(v)] = 0; booting[std::size_t(v)] = 1; } break;
      default: m.end_boot(nodes); for (NodeId v : nodes) { booting[std::size_t(v)] = 0; free[std::size_t(v)] = 1; } break;
    }
    std::vector<NodeId> expected;
    for (NodeId v = 0; v < n; ++v) {
      if (free[std::size_t(v)]) expected.push_back(v);
      ASSERT_EQ(m.is_free(v), bool(free[std::size_t(v)])) << "step " << step << " node " << v;
    }
    ASSERT_EQ(m.free_count(), NodeId(expected.size()));
    const auto k = std::int32_t(rng() % (expected.size() + 1));
    std::vector<NodeId> low{-1};  // appends after what is there
    m.lowest_free(k, low);
    expected.resize(std::size_t(k));
    expected.insert(expected.begin(), -1);
    ASSERT_EQ(low, expected) << "step " << step;
  }
  // A busy node given again names itself.
  std::vector<NodeId> busy;
  for (NodeId v = 0; v < n && busy.empty(); ++v) {
    if (!free[std::size_t(v)] && !off[std::size_t(v)] && !booting[std::size_t(v)]) busy.push_back(v);
  }
  ASSERT_FALSE(busy.empty());
  try {
    m.occupy(busy);
    FAIL() << "occupied a busy node";
  } catch (const SimulationError& e) {
    EXPECT_EQ(std::string(e.what()), "node " + std::to_string(busy[0]) + " given to two jobs at once");
  }
}

TEST(Machine, RunsAgreeWithNodeIdsThroughRandomOperations) {
  // Two machines of 1,000 nodes (a partial last word) driven through the same jobs, one by node
  // ids, one by runs (NodeRun): jobs of 1-300 nodes placed by lowest_free (ids vs runs, which must
  // expand to the same ids) or at random (runs cut from a shuffled set), released in any order.
  // After each step both agree on every node and on lowest_free's answer.
  const NodeId n = 1000;
  Machine by_ids(n), by_runs(n);
  std::mt19937_64 rng(11);
  std::vector<std::vector<NodeId>> jobs;
  for (int step = 0; step < 4000; ++step) {
    if (jobs.empty() || (rng() % 2 == 0 && by_ids.free_count() > 0)) {
      const auto k = std::int32_t(1 + rng() % std::uint64_t(std::min(300, by_ids.free_count())));
      std::vector<NodeId> ids;
      std::vector<NodeRun> runs;
      if (rng() % 2 == 0) {
        by_ids.lowest_free(k, ids);
        by_runs.lowest_free(k, runs);
        std::vector<NodeId> expanded;
        append_ids(runs, expanded);
        ASSERT_EQ(expanded, ids) << "step " << step;
        for (std::size_t r = 1; r < runs.size(); ++r) {  // maximal runs: none continues the one before
          ASSERT_NE(runs[r - 1].first + runs[r - 1].count, runs[r].first);
        }
      } else {
        by_ids.lowest_free(by_ids.free_count(), ids);
        std::shuffle(ids.begin(), ids.end(), rng);
        ids.resize(std::size_t(k));
        std::sort(ids.begin(), ids.end(), [&](NodeId a, NodeId b) { return a / 50 < b / 50; });  // some runs
        append_runs(ids, runs);
      }
      by_ids.occupy(ids);
      by_runs.occupy(runs);
      jobs.push_back(ids);
    } else {
      const std::size_t j = rng() % jobs.size();
      std::vector<NodeRun> runs;
      append_runs(jobs[j], runs);
      ASSERT_EQ(node_total(runs), std::int64_t(jobs[j].size()));
      by_ids.release(jobs[j]);
      by_runs.release(runs);
      jobs.erase(jobs.begin() + std::ptrdiff_t(j));
    }
    ASSERT_EQ(by_ids.free_count(), by_runs.free_count());
    for (NodeId v = 0; v < n; ++v) ASSERT_EQ(by_ids.is_free(v), by_runs.is_free(v)) << "step " << step << " node " << v;
    const auto k = std::int32_t(rng() % std::uint64_t(by_ids.free_count() + 1));
    std::vector<NodeId> low, expanded{-1};
    std::vector<NodeRun> runs{{-10, 1}};  // appends after what is there
    by_ids.lowest_free(k, low);
    by_runs.lowest_free(k, runs);
    low.insert(low.begin(), -1);
    append_ids(std::span<const NodeRun>(runs).subspan(1), expanded);
    ASSERT_EQ(expanded, low) << "step " << step;
  }
}

TEST(Machine, RunsRefusedNameTheirFirstOffendingNode) {
  Machine m(130);
  const NodeRun a[] = {{60, 10}, {128, 2}};
  m.occupy(a);
  EXPECT_EQ(m.free_count(), 118);
  EXPECT_FALSE(m.is_free(63));
  EXPECT_FALSE(m.is_free(64));
  EXPECT_TRUE(m.is_free(70));
  const auto message = [&](auto op) {
    try {
      op();
    } catch (const SimulationError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message([&] { m.occupy(std::vector<NodeRun>{{50, 20}}); }), "node 60 given to two jobs at once");
  EXPECT_EQ(message([&] { m.release(std::vector<NodeRun>{{68, 3}}); }), "node 70 released twice");
  EXPECT_EQ(message([&] { m.occupy(std::vector<NodeRun>{{0, 2}, {1, 1}}); }), "node 1 given to two jobs at once");
  EXPECT_EQ(message([&] { m.occupy(std::vector<NodeRun>{{125, 6}}); }), "nodes 125+6 are not all on the machine (130 nodes)");
  Machine fresh(130);
  fresh.occupy(a);
  fresh.release(a);
  EXPECT_EQ(fresh.free_count(), 130);
  // A conflict in a whole word in the middle of a long run, and in its last word; nothing changes.
  Machine big(1000);
  big.occupy(std::vector<NodeId>{200, 900});
  EXPECT_EQ(message([&] { big.occupy(std::vector<NodeRun>{{10, 500}}); }), "node 200 given to two jobs at once");
  EXPECT_EQ(message([&] { big.occupy(std::vector<NodeRun>{{700, 201}}); }), "node 900 given to two jobs at once");
  EXPECT_EQ(message([&] { big.release(std::vector<NodeRun>{{200, 1}, {300, 500}}); }), "node 300 released twice");
  EXPECT_EQ(big.free_count(), 998 + 1);  // the first run's release went through
  big.occupy(std::vector<NodeRun>{{0, 900}, {901, 99}});
  EXPECT_EQ(big.free_count(), 0);
  std::vector<NodeRun> none;
  big.lowest_free(0, none);
  EXPECT_TRUE(none.empty());
  big.release(std::vector<NodeRun>{{0, 1000}});
  std::vector<NodeRun> all;
  big.lowest_free(1000, all);
  EXPECT_EQ(all, (std::vector<NodeRun>{{0, 1000}}));
}

TEST(NodeRuns, CutJoinSortAndCount) {
  std::vector<NodeRun> runs;
  append_runs(std::vector<NodeId>{3, 4, 5, 9, 8}, runs);
  EXPECT_EQ(runs, (std::vector<NodeRun>{{3, 3}, {9, 1}, {8, 1}}));
  append_runs(std::vector<NodeId>{9, 10, 2}, runs);  // 9 continues the run of 8
  EXPECT_EQ(runs, (std::vector<NodeRun>{{3, 3}, {9, 1}, {8, 3}, {2, 1}}));
  EXPECT_EQ(node_total(runs), 8);
  std::vector<NodeId> ids;
  append_ids(runs, ids);
  EXPECT_EQ(ids, (std::vector<NodeId>{3, 4, 5, 9, 8, 9, 10, 2}));
  std::vector<NodeRun> disjoint{{9, 2}, {2, 1}, {3, 3}, {20, 1}, {6, 1}};
  sort_runs(disjoint);
  EXPECT_EQ(disjoint, (std::vector<NodeRun>{{2, 5}, {9, 2}, {20, 1}}));
  std::vector<NodeRun> sorted{{0, 1}, {5, 2}};
  sort_runs(sorted);
  EXPECT_EQ(sorted, (std::vector<NodeRun>{{0, 1}, {5, 2}}));
}

TEST(Machine, AscendingAndConsecutiveAgreeWithPlainLoops) {
  // The vectorised checks behind sort_nodes and the whole-word masks, against plain loops on
  // every length to 40 with the one step out of order at every position (8 at a time + a tail).
  for (std::int32_t n = 0; n <= 40; ++n) {
    std::vector<std::int32_t> v(static_cast<std::size_t>(n));
    for (std::int32_t i = 0; i < n; ++i) v[std::size_t(i)] = 128 + i;
    EXPECT_TRUE(ascending(v));
    EXPECT_TRUE(consecutive(v));
    for (std::int32_t i = 0; i < n; ++i) {
      std::vector<std::int32_t> w = v;
      w[std::size_t(i)] += 2;  // breaks consecutiveness; order too unless it is the last
      EXPECT_EQ(ascending(w), std::is_sorted(w.begin(), w.end())) << n << " " << i;
      EXPECT_EQ(consecutive(w), n == 1) << n << " " << i;  // one value is always consecutive
      w[std::size_t(i)] = v[std::size_t(i)] - 1;  // ties and steps down
      EXPECT_EQ(ascending(w), std::is_sorted(w.begin(), w.end())) << n << " " << i;
      EXPECT_EQ(consecutive(w), n == 1) << n << " " << i;
    }
  }
  EXPECT_TRUE(ascending(std::vector<std::int32_t>{3, 3, 3, 3, 3, 3, 3, 3, 3, 3}));
  EXPECT_FALSE(consecutive(std::vector<std::int32_t>{3, 3}));
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
    EXPECT_STREQ(e.what(), "unknown allocator 'firstfit' (did you mean 'first_fit'?); valid: first_fit, random, mc1x1, mm, genalg, bqp, mpit, joint, lrh, hts, mtdp");
  }
}

}  // namespace
}  // namespace dcsweep
