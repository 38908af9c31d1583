#include <gtest/gtest.h>

#include "dcsweep/workload/synthetic.hpp"
#include "dcsweep/workload/workload.hpp"
#include "test_helpers.hpp"

namespace dcsweep {
namespace {

using test::input_error;

/// A trace on a 10-node, 4-core machine; line numbers are the record number + 2.
SwfTrace sample() {
  return parse_swf(
      "; MaxNodes: 10\n"
      "; MaxProcs: 40\n"
      "1 100 0 50 8 -1 -1 8 60 -1 1 1 1 1 1 1 -1 -1\n"     // 8 procs -> 2 nodes
      "2 110 0 0 -1 -1 -1 16 60 -1 5 1 1 1 1 1 -1 -1\n"    // cancelled: runtime 0
      "3 120 0 30 -1 -1 -1 12 -1 -1 1 1 1 1 1 1 -1 -1\n"   // alloc -1: requested 12 -> 3 nodes
      "4 130 0 30 -1 -1 -1 -1 60 -1 0 1 1 1 1 1 -1 -1\n"   // no size at all
      "5 140 0 90 44 -1 -1 44 60 -1 1 1 1 1 1 1 -1 -1\n"   // 11 nodes > 10; killed if it ran
      "6 140 0 10 1 -1 -1 1 20 -1 1 1 1 1 1 1 -1 -1\n",
      "t.swf");
}

TEST(Workload, ConvertsAndRejectsPerDocumentedRules) {
  const Workload w = build_workload(sample(), {}, {10, 4});
  ASSERT_EQ(w.jobs.size(), 3u);
  EXPECT_EQ(w.jobs[0].id, 1);
  EXPECT_EQ(w.jobs[0].nodes, 2);
  EXPECT_EQ(w.jobs[0].submit_s, 0) << "rebased on the first selected record";
  EXPECT_EQ(w.jobs[0].estimate_s, 60);
  EXPECT_EQ(w.jobs[1].id, 3);
  EXPECT_EQ(w.jobs[1].nodes, 3);
  EXPECT_EQ(w.jobs[1].estimate_s, 30) << "no request: the runtime is the estimate";
  EXPECT_EQ(w.jobs[2].id, 6);
  EXPECT_EQ(w.rejected.no_runtime, 1);
  EXPECT_EQ(w.rejected.no_size, 1);
  EXPECT_EQ(w.rejected.too_large, 1);
  EXPECT_EQ(w.rejected.total(), 3);
  EXPECT_EQ(w.rejected.first, "line 4 (job 2): runtime 0");
}

TEST(Workload, StrictTurnsRejectionsIntoOneError) {
  TraceOptions strict;
  strict.strict = true;
  EXPECT_EQ(input_error([&] { build_workload(sample(), strict, {10, 4}); }),
            "t.swf: 3 of 6 jobs rejected under strict (1 without runtime, 1 without size, 0 without submit time, "
            "1 larger than the 10-node platform); first: line 4 (job 2): runtime 0");
}

TEST(Workload, SelectionByFirstJobAndCount) {
  TraceOptions o;
  o.first_job = 3;
  o.jobs = 2;
  const Workload w = build_workload(sample(), o, {10, 4});
  ASSERT_EQ(w.jobs.size(), 1u);
  EXPECT_EQ(w.jobs[0].id, 3);
  EXPECT_EQ(w.jobs[0].submit_s, 0);
  EXPECT_EQ(w.rejected.no_size, 1);
  o.first_job = 99;
  EXPECT_EQ(input_error([&] { build_workload(sample(), o, {10, 4}); }), "t.swf: no job with id >= first_job 99");
}

TEST(Workload, FirstJobBelowTheFirstIdIsNotedAsSelectingFromTheStart) {
  // Ids from 41: first_job 1-40 select what 0 selects; the note says so and names record
  // first_job's id where the trace has that many records.
  SwfTrace trace = sample();
  for (SwfRecord& r : trace.records) r.id += 40;
  TraceOptions o;
  o.first_job = 3;
  const Workload from_3 = build_workload(trace, o, {10, 4}), from_0 = build_workload(trace, {}, {10, 4});
  ASSERT_EQ(from_3.jobs.size(), from_0.jobs.size());
  EXPECT_EQ(from_3.jobs.front().id, 41);
  EXPECT_EQ(first_job_note(trace, 3),
            "first_job 3 is below the trace's first job id 41, so the run starts at its first job, as with 0 "
            "(first_job is a job id, not a record number; record 3 has id 43)");
  EXPECT_EQ(first_job_note(trace, 40),
            "first_job 40 is below the trace's first job id 41, so the run starts at its first job, as with 0 "
            "(first_job is a job id, not a record number)");
  for (const std::int64_t selects : {0, 41, 43, 46}) EXPECT_EQ(first_job_note(trace, selects), "") << selects;
  EXPECT_EQ(first_job_note(sample(), 1), "") << "ids from 1: first_job 1 is the first job";
}

TEST(Workload, GammaScalesRebasedSubmitTimes) {
  TraceOptions o;
  o.gamma = 0.5;
  const Workload w = build_workload(sample(), o, {10, 4});
  EXPECT_EQ(w.jobs[1].submit_s, 10);  // (120 - 100) x 0.5
  EXPECT_EQ(w.jobs[2].submit_s, 20);  // (140 - 100) x 0.5
}

TEST(Workload, SizeScalingAndMappingOntoAnotherPlatform) {
  TraceOptions o;
  o.size_scale = 1.5;
  EXPECT_EQ(build_workload(sample(), o, {10, 4}).jobs[1].nodes, 5);  // ceil(3 x 1.5)
  TraceOptions map;
  map.scale_to_platform = true;
  // Trace machine 10 nodes x 4 cores onto 40 nodes x 1 core: sizes in trace nodes x 4.
  const Workload w = build_workload(sample(), map, {40, 1});
  EXPECT_EQ(w.jobs[0].nodes, 8);
  EXPECT_EQ(w.jobs[1].nodes, 12);
  EXPECT_EQ(w.rejected.too_large, 1) << "11 trace nodes is still larger than the mapped machine";
  // Without mapping, 40 single-core nodes take processors one per node.
  EXPECT_EQ(build_workload(sample(), {}, {40, 1}).jobs[0].nodes, 8);
}

TEST(Workload, ArrivalsSortedBySubmitThenId) {
  const SwfTrace t = parse_swf(
      "; MaxNodes: 4\n"
      "5 10 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 -1 -1\n"
      "4 10 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 -1 -1\n"
      "3 5 0 1 1 -1 -1 1 1 -1 1 1 1 1 1 1 -1 -1\n",
      "o.swf");
  const Workload w = build_workload(t, {}, {4, 1});
  ASSERT_EQ(w.jobs.size(), 3u);
  EXPECT_EQ(w.jobs[0].id, 3);
  EXPECT_EQ(w.jobs[1].id, 4);
  EXPECT_EQ(w.jobs[2].id, 5);
}

// gamma scales synthetic arrivals as it scales a trace's ([P2]: submit' = gamma x submit): the
// same jobs, arriving gamma times as far apart.
TEST(Poisson, GammaScalesTheArrivalsOfTheSameJobs) {
  PoissonOptions o;
  o.count = 200;
  PoissonOptions half = o;
  half.gamma = 0.5;
  RngStream a({4, 0, 0}, StreamPurpose::workload), b({4, 0, 0}, StreamPurpose::workload);
  const Workload w1 = generate_poisson(o, a, 40), w2 = generate_poisson(half, b, 40);
  ASSERT_EQ(w1.jobs.size(), w2.jobs.size());
  for (std::size_t i = 0; i < w1.jobs.size(); ++i) {
    EXPECT_EQ(w2.jobs[i].submit_s, 0.5 * w1.jobs[i].submit_s);
    EXPECT_EQ(w2.jobs[i].nodes, w1.jobs[i].nodes);
    EXPECT_EQ(w2.jobs[i].runtime_s, w1.jobs[i].runtime_s);
  }
  EXPECT_GT(w1.jobs.back().submit_s, 0);
}

TEST(Poisson, DeterministicPerStreamAndWithinRanges) {
  PoissonOptions o;
  o.count = 500;
  RngStream a({9, 3, 0}, StreamPurpose::workload), b({9, 3, 0}, StreamPurpose::workload);
  const Workload w1 = generate_poisson(o, a, 40), w2 = generate_poisson(o, b, 40);
  ASSERT_EQ(w1.jobs.size(), 500u);
  double last = 0;
  for (std::size_t i = 0; i < w1.jobs.size(); ++i) {
    const Job& j = w1.jobs[i];
    EXPECT_EQ(j.submit_s, w2.jobs[i].submit_s);
    EXPECT_EQ(j.nodes, w2.jobs[i].nodes);
    EXPECT_GE(j.nodes, 1);
    EXPECT_LE(j.nodes, 16);
    EXPECT_GE(j.runtime_s, 60);
    EXPECT_LE(j.runtime_s, 1200);
    EXPECT_GT(j.submit_s, last);
    last = j.submit_s;
  }
  // 500 arrivals at 20/h span about 25 h.
  EXPECT_NEAR(last / 3600, 25, 4);
}

}  // namespace
}  // namespace dcsweep
