// The sweep engine's parts that need no MPI: result encoding, the run journal (torn tails), the
// chunk planner and its makespan replay, spec differences, and the utilization series.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numeric>
#include <random>
#include <thread>

#include "dcsweep/core/error.hpp"
#include "dcsweep/sim/catalog.hpp"
#include "dcsweep/sim/run.hpp"
#include "dcsweep/sim/utilization.hpp"
#include "dcsweep/thermal/room.hpp"
#include "dcsweep/workload/swf.hpp"
#include "dcsweep/sweep/cost.hpp"
#include "dcsweep/sweep/distribution.hpp"
#include "dcsweep/sweep/inputs.hpp"
#include "dcsweep/sweep/journal.hpp"
#include "dcsweep/sweep/liveness.hpp"
#include "dcsweep/sweep/progress.hpp"
#include "test_helpers.hpp"

namespace dcsweep {
namespace {

PointResult sample(std::uint64_t flat, PointStatus status = PointStatus::ok) {
  PointResult r;
  r.flat = flat;
  r.status = status;
  r.error = status == PointStatus::failed ? "boom at point " + std::to_string(flat) : "";
  r.wall_s = 0.25 * double(flat);
  r.rank = int(flat % 3);
  r.metrics = {1.5, NAN, -2.0, double(flat)};
  r.series = {{{0, 3600, 7200}, {0.5, 1.0, 0.25}}, {}};
  return r;
}

void expect_same(const PointResult& a, const PointResult& b) {
  EXPECT_EQ(a.flat, b.flat);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.error, b.error);
  EXPECT_EQ(a.wall_s, b.wall_s);
  EXPECT_EQ(a.rank, b.rank);
  ASSERT_EQ(a.metrics.size(), b.metrics.size());
  for (std::size_t i = 0; i < a.metrics.size(); ++i) {
    EXPECT_TRUE(a.metrics[i] == b.metrics[i] || (std::isnan(a.metrics[i]) && std::isnan(b.metrics[i])));
  }
  EXPECT_EQ(a.series, b.series);
}

TEST(PointEncoding, RoundTripsAndRejectsTruncation) {
  std::string bytes;
  encode(sample(7), bytes);
  encode(sample(8, PointStatus::failed), bytes);
  std::string_view in = bytes;
  expect_same(decode(in), sample(7));
  expect_same(decode(in), sample(8, PointStatus::failed));
  EXPECT_TRUE(in.empty());
  std::string_view cut = std::string_view(bytes).substr(0, 30);
  EXPECT_THROW(decode(cut), std::runtime_error);
}

class JournalTest : public ::testing::Test {
 protected:
  void SetUp() override { std::filesystem::remove(path_); }
  void TearDown() override { std::filesystem::remove(path_); }
  const std::string path_ = test::temp_path("engine.h5.journal").string();
  const JournalHeader header_{"spec.toml", "[sweep]\nseed = 3\n", "2026-11-21T00:00:00Z", 10};
};

TEST(EvaluatePoint, TheRanksTraceAndRoomAreReadAndBuiltBeforeThePointsClockStarts) {
  // A rank's points share their trace and their room's heat distribution (cached): read and built
  // before the first point's clock starts, they are in no point's wall_s (nor its estimate, which
  // prices the room apart). Here each read or build takes a second more than it should; the
  // points themselves (20 jobs on a 480-node room) take milliseconds.
  const std::string trace = std::string(DCSWEEP_SOURCE_DIR) + "/inputs/traces/KTH-SP2-1996-2.1-cln.swf";
  auto spec_of = [](const std::string& path) {
    return "[sweep]\nseed = 1\n[base]\nplatform = \"room\"\nroom_rows = 2\nroom_racks_per_row = 6\n"
           "room_nodes_per_rack = 40\ntrace = \"" + path + "\"\njobs = 20\nscale_to_platform = true\n"
           "[axes]\nallocator = [\"first_fit\", \"random\"]\n";
  };
  const SweepSpec spec = parse_spec(spec_of(trace), "s.toml", simulation_catalog());
  const Grid grid(spec, simulation_catalog());
  const ResultLayout layout = ResultLayout::of_grid(grid);
  std::map<std::string, std::shared_ptr<const SwfTrace>> traces;
  std::map<std::string, HeatDistributionBuild> rooms;
  const TraceLoader loader = [&](const std::string& path) {
    auto& slot = traces[path];
    if (!slot) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      slot = std::make_shared<const SwfTrace>(read_swf(path));
    }
    return slot;
  };
  const HeatProvider heat = [&](const Platform& platform, const ParamSet& params) {
    const std::string key = heat_distribution_key(platform, params);
    if (!rooms.contains(key)) {
      std::this_thread::sleep_for(std::chrono::seconds(1));
      rooms[key] = build_heat_distribution(platform, params, read_matrix_any);
    }
    return rooms[key];
  };
  for (std::uint64_t flat = 0; flat < grid.size(); ++flat) {
    const PointResult r = evaluate_point(grid, flat, layout, loader, heat, 0, nullptr);
    EXPECT_EQ(r.status, PointStatus::ok) << r.error;
    EXPECT_LT(r.wall_s, 0.9) << "point " << flat;
  }
  EXPECT_EQ(traces.size(), 1u);
  EXPECT_EQ(rooms.size(), 1u);  // the points' own calls found the room the preparation built
  const std::vector<double> costs = estimate_costs(grid, caching_trace_loader());
  const RoomBuilds room = estimate_room_builds(grid);
  EXPECT_EQ(room.rooms, 1u);
  EXPECT_LT(costs[0], room.seconds);  // 480 zones: the D build outweighs 20 jobs, and is not in it
  // A trace that cannot be read fails the point (its message names the file), as before.
  const SweepSpec missing = parse_spec(spec_of("/nonexistent/t.swf"), "s.toml", simulation_catalog());
  const Grid bad(missing, simulation_catalog());
  const PointResult r = evaluate_point(bad, 0, layout, caching_trace_loader(), caching_heat_provider(), 0, nullptr);
  EXPECT_EQ(r.status, PointStatus::failed);
  EXPECT_NE(r.error.find("/nonexistent/t.swf"), std::string::npos) << r.error;
}

TEST_F(JournalTest, KeepsHeaderAndResultsAcrossReopen) {
  {
    Journal j = Journal::create(path_, header_);
    const PointResult first[] = {sample(3), sample(1, PointStatus::failed)};
    j.append(first);
    j.sync();
  }
  JournalContents c = read_journal(path_);
  EXPECT_EQ(c.header.spec_text, header_.spec_text);
  EXPECT_EQ(c.header.created, header_.created);
  EXPECT_EQ(c.header.points, 10u);
  ASSERT_EQ(c.results.size(), 2u);
  expect_same(c.results[1], sample(1, PointStatus::failed));
  EXPECT_FALSE(c.torn_tail);
  {
    Journal j = Journal::reopen(path_, c.valid_bytes);
    const PointResult more[] = {sample(9)};
    j.append(more);
  }
  EXPECT_EQ(read_journal(path_).results.size(), 3u);
}

TEST_F(JournalTest, ACreatedJournalIsNeverOverwritten) {
  Journal::create(path_, header_);
  EXPECT_NE(test::input_error([&] { Journal::create(path_, header_); }).find("cannot create the run journal"),
            std::string::npos);
}

TEST_F(JournalTest, TornOrCorruptTailIsDroppedAndCutOnReopen) {
  {
    Journal j = Journal::create(path_, header_);
    const PointResult results[] = {sample(0), sample(1), sample(2)};
    j.append(results);
  }
  const auto full = std::filesystem::file_size(path_);
  std::filesystem::resize_file(path_, full - 5);  // a kill in the middle of the last write
  JournalContents c = read_journal(path_);
  EXPECT_EQ(c.results.size(), 2u);
  EXPECT_TRUE(c.torn_tail);
  {
    Journal j = Journal::reopen(path_, c.valid_bytes);
    const PointResult again[] = {sample(2)};
    j.append(again);
  }
  c = read_journal(path_);
  ASSERT_EQ(c.results.size(), 3u);
  EXPECT_FALSE(c.torn_tail);
  expect_same(c.results[2], sample(2));
  // A flipped byte inside a record: the CRC stops reading there.
  {
    std::fstream f(path_, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(c.valid_bytes) - 20);
    f.put('\x7f');
  }
  EXPECT_EQ(read_journal(path_).results.size(), 2u);
}

TEST_F(JournalTest, DamageInTheMiddleCostsOnlyTheRecordsItHits) {
  std::vector<PointResult> results;
  for (std::uint64_t i = 0; i < 17; ++i) results.push_back(sample(i));
  { Journal::create(path_, header_).append(results); }
  const auto size = std::filesystem::file_size(path_);
  {  // 16 corrupted bytes at a third of the file
    std::fstream f(path_, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(size / 3));
    for (int i = 0; i < 16; ++i) f.put('\x5a');
  }
  const JournalContents c = read_journal(path_);
  EXPECT_GE(c.results.size(), 15u);  // one record hit, two at most if the bytes straddle a boundary
  EXPECT_LE(c.results.size(), 16u);
  ASSERT_EQ(c.skipped.size(), 1u);
  EXPECT_LE(c.skipped[0].offset, size / 3);
  EXPECT_FALSE(c.torn_tail);
  EXPECT_EQ(c.valid_bytes, size);
  expect_same(c.results.back(), sample(16));  // the records after the damage are kept
}

TEST_F(JournalTest, NotAJournalIsAnInputError) {
  std::ofstream(path_) << "hello";
  EXPECT_NE(test::input_error([&] { read_journal(path_); }).find("not a dcsweep journal"), std::string::npos);
}

TEST(ChunkPlanner, MostExpensiveFirstEveryPointOnceShrinkingChunks) {
  std::vector<double> costs(200);
  std::mt19937_64 gen(5);
  for (double& c : costs) c = double(gen() % 1000) / 100.0;  // 0 .. 10 s
  std::vector<std::uint64_t> points(costs.size());
  std::iota(points.begin(), points.end(), 0);
  ChunkPlanner planner(points, costs, 4);
  std::vector<std::uint64_t> seen;
  double previous_cost = INFINITY, previous_chunk = INFINITY;
  int chunks = 0;
  for (auto chunk = planner.next(); !chunk.empty(); chunk = planner.next(), ++chunks) {
    double chunk_cost = 0;
    for (const std::uint64_t p : chunk) {
      EXPECT_LE(costs[p], previous_cost);  // descending cost
      previous_cost = costs[p];
      chunk_cost += costs[p];
      seen.push_back(p);
    }
    // a chunk is at most ~ remaining / (3 x 4), or a single point
    if (chunk.size() > 1) {
      EXPECT_LE(chunk_cost, previous_chunk + 1e-9);
    }
    previous_chunk = chunk.size() > 1 ? chunk_cost : previous_chunk;
  }
  std::sort(seen.begin(), seen.end());
  EXPECT_EQ(seen, points);
  EXPECT_GT(chunks, 12);
  EXPECT_EQ(planner.remaining(), 0u);
}

TEST(ChunkPlanner, TiesGoInFlatOrderAndCheapPointsAreGrouped) {
  const std::vector<double> costs(100, 0.001);  // 1 ms each, 2 ranks: chunks of several points
  std::vector<std::uint64_t> points(costs.size());
  std::iota(points.begin(), points.end(), 0);
  ChunkPlanner planner(points, costs, 2);
  const auto first = planner.next();
  ASSERT_GT(first.size(), 1u);
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_EQ(first[i], i);
}

TEST(MakespanPlan, HandWorkedExamples) {
  // Two ranks, costs = times: 4, 3, 2, 1 s. Factoring: the first chunks are single points.
  // Rank A: 4 then 1 (5 s); rank B: 3 then 2 (5 s).
  const std::vector<double> t = {1, 4, 2, 3};
  MakespanPlan plan = plan_makespan(t, t, 2);
  EXPECT_DOUBLE_EQ(plan.total_s, 10);
  EXPECT_DOUBLE_EQ(plan.longest_s, 4);
  EXPECT_DOUBLE_EQ(plan.lower_bound_s, 5);
  EXPECT_DOUBLE_EQ(plan.makespan_s, 5);
  // One rank: the sum; as many ranks as points: the longest.
  EXPECT_DOUBLE_EQ(plan_makespan(t, t, 1).makespan_s, 10);
  EXPECT_DOUBLE_EQ(plan_makespan(t, t, 64).makespan_s, 4);
}

TEST(MakespanPlan, WithinFivePercentOfTheBoundForManyRanks) {
  // Mixed costs over three orders of magnitude, estimates off by up to 30%.
  std::mt19937_64 gen(11);
  std::vector<double> wall(5000), est(5000);
  for (std::size_t i = 0; i < wall.size(); ++i) {
    wall[i] = std::pow(10.0, double(gen() % 3000) / 1000.0) * 0.01;  // 10 ms .. 10 s
    est[i] = wall[i] * (0.7 + 0.6 * double(gen() % 1000) / 1000.0);
  }
  for (const int ranks : {2, 64, 1024, 4096}) {
    const MakespanPlan plan = plan_makespan(est, wall, ranks);
    EXPECT_LE(plan.makespan_s, 1.05 * plan.lower_bound_s) << ranks << " ranks";
    EXPECT_GE(plan.makespan_s, plan.lower_bound_s - 1e-9);
  }
}

TEST(SpecDifferences, NamesWhatChangedAndIgnoresComments) {
  const ParamCatalog& catalog = simulation_catalog();
  const std::string text = "[sweep]\nseed = 1\n[base]\njobs = 100\n[axes]\ngamma = [0.5, 1.0]\n";
  const SweepSpec a = parse_spec(text, "a.toml", catalog);
  EXPECT_TRUE(spec_differences(a, parse_spec("# note\n" + text, "b.toml", catalog)).empty());
  const SweepSpec b = parse_spec(
      "[sweep]\nseed = 2\n[base]\njobs = 200\nstrict = true\n[axes]\ngamma = [0.5, 0.9]\n", "b.toml", catalog);
  const auto d = spec_differences(a, b);
  ASSERT_EQ(d.size(), 4u);
  EXPECT_EQ(d[0], "[sweep] seed: 2, was 1");
  EXPECT_EQ(d[1], "[base] jobs: 200, was 100");
  EXPECT_EQ(d[2], "[base] strict = true added");
  EXPECT_EQ(d[3], "axis gamma: 2 values [0.5, 0.9], was 2 values [0.5, 1]");
}

TEST(UtilizationSeries, HandWorkedBins) {
  // 4 nodes, 10 s bins. Job of 2 nodes from t=5 to t=25; job of 4 nodes from 25 to 30; end 30.
  UtilizationSeries u(4, 10.0);
  const Job a{1, 5, 20, 20, 2}, b{2, 25, 5, 5, 4};
  const NodeId two[] = {0, 1}, four[] = {0, 1, 2, 3};
  u.advance_to(5);
  u.on_job_start(5, Placement{a, {}, two});
  u.advance_to(25);
  u.on_job_end(25, Placement{a, {}, two}, false);
  u.on_job_start(25, Placement{b, {}, four});
  u.advance_to(30);
  u.on_job_end(30, Placement{b, {}, four}, false);
  Report report;
  u.report(30, report);
  ASSERT_EQ(report.series.size(), 1u);
  const Series& s = report.series[0];
  EXPECT_EQ(s.name, "utilization");
  // bin [0,10): first event at 5, 2 nodes busy 5 s -> 10 / 40; [10,20): 2 nodes -> 0.5;
  // [20,30): 2 nodes 5 s + 4 nodes 5 s = 30 node-s / 40.
  ASSERT_EQ(s.times_s, (std::vector<double>{0, 10, 20}));
  EXPECT_DOUBLE_EQ(s.values[0], 0.25);
  EXPECT_DOUBLE_EQ(s.values[1], 0.5);
  EXPECT_DOUBLE_EQ(s.values[2], 0.75);
}

TEST(UtilizationSeries, LastPartialBinAveragesOverItsSimulatedPart) {
  // Counts alone (no ids), as the engine gives them when it keeps node sets as runs.
  UtilizationSeries u(2, 100.0);
  const Job a{1, 0, 150, 150, 2};
  const NodeRun both[] = {{0, 2}};
  u.advance_to(0);
  u.on_job_start(0, Placement{a, {}, both, 2});
  u.advance_to(150);
  u.on_job_end(150, Placement{a, {}, both, 2}, false);
  Report report;
  u.report(150, report);
  EXPECT_EQ(report.series[0].values, (std::vector<double>{1.0, 1.0}));
}

TEST(UtilizationSeries, AnAbsurdSpanFailsThePointInsteadOfGrowingWithoutBound) {
  UtilizationSeries u(2, 1.0);
  u.advance_to(0);
  EXPECT_THROW(u.advance_to(1e12), SimulationError);
}

TEST(ResultLayout, MetricAndParameterNamesNeverClash) {
  // Both become top-level names of the result file.
  const ParamCatalog& catalog = simulation_catalog();
  for (const MetricSpec& m : simulation_metric_specs()) EXPECT_EQ(catalog.find(m.name), nullptr) << m.name;
}

TEST(Progress, DurationsReadLikeALog) {
  EXPECT_EQ(Progress::duration_text(42.4), "42 s");
  EXPECT_EQ(Progress::duration_text(310), "5 min 10 s");
  EXPECT_EQ(Progress::duration_text(7500), "2 h 05 min");
}


TEST(Liveness, SilentWhilePointsFinishThenNamesWhatEachRankHolds) {
  Liveness live(3, 10.0, 0.0);
  const std::vector<std::uint64_t> chunk1{7, 8, 9}, chunk2{3};
  live.handed(1, chunk1, 1.0);
  live.handed(2, chunk2, 2.0);
  live.finished(2, 1, 5.0);  // rank 2 done with point 3 at t = 5
  live.handed(2, {}, 5.0);   // and told to stop
  EXPECT_FALSE(live.stalled(14.9));
  EXPECT_FALSE(live.check(14.9, 1, 5, {}, {0, 0, 0}));
  ASSERT_TRUE(live.stalled(15.0));
  const auto warning = live.check(15.0, 1, 5, {std::uint64_t{4}, 12.0}, {0, 1, 0});
  ASSERT_TRUE(warning);
  EXPECT_EQ(*warning,
            "dcsweep: warning: no point finished for 10.0 s (1/5 done); rank 0: serving, its worker on point 4 for "
            "3.0 s; rank 1: computing a chunk of 3 points (first 7, 0 reported) handed 14.0 s ago, 1 message(s) "
            "from rank 0 not yet received by it; rank 2: done");
  EXPECT_FALSE(live.stalled(20.0));  // the next warning comes a full period later
  EXPECT_TRUE(live.stalled(25.0));
}

TEST(Liveness, ResultsCoverTheOldestChunksAndZeroTurnsItOff) {
  Liveness live(2, 1.0, 0.0);
  live.handed(1, std::vector<std::uint64_t>{1, 2}, 0.0);
  live.handed(1, std::vector<std::uint64_t>{5}, 0.5);  // prefetched while computing the first
  live.finished(1, 2, 0.9);
  const auto warning = live.check(2.0, 2, 3, {}, {0, 0});
  ASSERT_TRUE(warning);
  EXPECT_NE(warning->find("rank 0: serving only"), std::string::npos);
  EXPECT_NE(warning->find("rank 1: computing a chunk of 1 points (first 5, 0 reported) handed 1.5 s ago"),
            std::string::npos);
  Liveness off(2, 0.0, 0.0);
  EXPECT_FALSE(off.stalled(1e9));
}

}  // namespace
}  // namespace dcsweep
