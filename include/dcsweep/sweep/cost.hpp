#pragma once
// A-priori cost of each sweep point, used to hand out the most expensive points first and by
// `dcsweep validate`. The model is linear in the jobs simulated and the node ids handed out,
// plus jobs x thermal zones when the physics is on, plus each distinct room's D build on the
// first point that uses it, calibrated on the benchmarks (docs/performance.md): seconds on one
// core. Policies whose cost grows with the queue (parm) see the offered load: the workload's
// node-seconds over the machine's node-seconds between the first and the last arrival.
#include <array>
#include <vector>

#include "dcsweep/sim/datacenter.hpp"
#include "dcsweep/sim/scenario.hpp"
#include "dcsweep/sweep/grid.hpp"

namespace dcsweep {

/// mm's or genalg's decisions (sweep/cost.cpp): most centres are scored from the ideal shape or
/// from plane tables and dropped by a bound.
struct NearestCost {
  double mesh_per_node_k04_s;   ///< on a mesh: x N x k^0.4
  double torus_per_node_s;      ///< on a torus: x N
  double torus_per_node_k04_s;  ///< and x N x k^0.4
};

struct CostModel {
  double per_point_s = 3e-5;   ///< a point's scenario, engine and metrics whatever its jobs (bench/specs/cheap100k.toml: 39 us a point)
  double per_job_s = 4.3e-7;   ///< event handling, queue and metrics per job
  double per_node_s = 3.2e-9;  ///< allocation and release per node of a job
  double per_job_zone_s = 5e-10;             ///< recirculation model: O(zones) per start and end
  double per_job_physics_s = 1e-6;           ///< and the power and energy bookkeeping (meng40, 8,000 KTH jobs: 12 ms with it, 5 without)
  double per_job_zone_crac_node_s = 1e-6;    ///< CRAC+node model: a sparse solve per change
  double per_zone3_s = 5.2e-11;  ///< building a room's D (dense LU): zones^3, once per rank and room
  double per_zone2_build_s = 5e-8;  ///< and its matrices' assembly: zones^2 (oxley1080: 0.12 s in all, oxley4320: 5 s)
                                 ///< (oxley4320 at node level: 4.2 s); counted on its first point
  // Policies (per point: the points of one workload may differ in them)
  /// easy on an overloaded machine: per job and job waiting (the queue grows by 1 - 1 / load of
  /// the arrivals: half that on average; easy-wait-knee-grid at gamma 0.25: 0.12 s, 0.01 s at 1)
  double easy_per_job_queued_s = 8e-10;
  double per_job_planning_s = 2e-6;  ///< conservative and edf: planning the queue (whole CEA-Curie: 0.6 s, 2.7 x EASY)
  double per_job_thermostat_s = 5e-6;  ///< cooling = thermostat: the CRAC's mode switches, Eq. 6 per change (asu50, KTH-SP2: 15-20 ms for 3,000 jobs with sp_eir's chain)
  /// task_mapping rcb: per term of a leaf's permutations (m! x m for a leaf of m nodes; a job of 8
  /// to 1,024 nodes on oxley4320, mixed patterns: 0.75 ms at 8, 5.9 ms at 64, 124 ms at 1,024)
  double rcb_per_leaf_term_s = 2.2e-9;
  // parm (nomm): a decision at every arrival and end, its ILP over the running and the queued jobs
  // (fitted to sarood-p2 on intrepid and parm-busy128 on 128 nodes: docs/performance.md, PARM)
  // (x 1.5 on November 28, 2026: parm-busy128 measured 3.0 x its estimate, sarood-p2 1.1 x; with
  // CBC's heavy tail single points still range 0.3-17 x)
  double parm_per_decision_s = 1.5e-4;
  double parm_per_decision_job_s = 7.8e-6;  ///< per job in the ILP
  double parm_nose_factor = 1.7;            ///< nose: every node level of a queued job
  double parm_wse_factor = 4.6;             ///< wse: running jobs' levels too, and resize re-solves
  // Allocators, per decision (one per job): fitted to bench_decisions on CEA-Curie from job
  // 10,500 on meng40, oxley1080, oxley4320 and intrepid (docs/performance.md), within 3 x of each.
  double mc1x1_per_node_s = 1.4e-8;       ///< x N
  // mesh: meng40, oxley1080, oxley4320 (1.9 s); torus: intrepid, 2,000 jobs (29 s; since December
  // 1's changes 15-16 s, the torus terms x 0.6). December 2, scores kept between decisions of a
  // size: on alloc-scale's platforms from records 1, 10,500 and 150,000 mm's and genalg's points
  // measured 0.35-0.76 x their estimate on the meshes, 0.39-1.00 x on intrepid: the mesh terms x
  // 0.6, the torus terms x 0.75 (a workload whose sizes never repeat reuses nothing: about 1.4 x
  // more then).
  NearestCost mm{5.4e-8, 2.4e-8, 2.7e-8};
  // mesh: meng40, oxley1080, oxley4320 (1.2 s); torus: intrepid, 2,000 jobs (16 s; since December
  // 1's, 10 s: x 0.7); December 2 as mm's
  NearestCost genalg{3.3e-8, 0.0, 2.0e-8};
  /// x k^0.7 x N^-0.1: the heuristic on a large room (fitted on oxley1080, oxley4320 and intrepid
  /// from CEA-Curie's records 1, 10,500 and 150,000: 0.77-1.54 x, December 2, after its polish
  /// passes over a node none of whose swaps can win; x k^0.7 N^0.2 and 4.3e-5 before, when
  /// intrepid's points then read 0.27-0.32 x)
  double bqp_per_k07_s = 2.8e-4;
  double bqp_small_per_node_s = 5e-8;     ///< x N, a machine of at most 2 x bqp_exact_max_nodes
  /// and its branch and bound, x k^2 (meng-alpha-beta-redline: 40 Poisson jobs of 1-16 nodes on
  /// meng40, 3-5 ms a point; with beta = 0, pairwise hops alone, 21-29 ms)
  double bqp_exact_per_k2_s = 1.1e-6;
  double bqp_exact_hops_per_k2_s = 6.7e-6;
  double mpit_per_zone2_s = 3e-9;         ///< x zones^2: the LP (joint's too)
  double mpit_per_node_s = 1.4e-9;        ///< x N: reading the machine (joint's too)
  double joint_per_k2_s = 9e-9;           ///< x k^2: a shell per MPIT node, its peak (k < 1,024)
  /// and x k^2 x the zones a shell spans (k where zones are nodes): the peak's columns of D (at
  /// most two per run of zones adding equal power since November 28; not refitted)
  /// (meng40: the demo's joint points 54-81 ms, 1.7-2.6 x this estimate; meng-p1-table1's 0.6 x)
  double joint_per_k2_zone_s = 2e-9;
  double joint_inner_per_k_zone2_s = 2e-9;  ///< x k zones^2: k >= 1,024, each shell bounded first
  // rooms of > 256 zones (mpit / joint for 2,000 jobs, bench_decisions' CPU time: oxley1080 0.46 /
  // 0.91 s, oxley4320 18 / 44 s when fitted; on November 28, once joint's shells' peaks added D's
  // columns per run of zones, oxley4320 23 s both: joint costs about mpit's own): the LP's rows
  // generated, each move after rounding over up to pools^2 pairs, a shell's bound per centre;
  // the first decision of a point sets up the LP and D's copies (oxley1080 45 ms, oxley4320 1.1-1.5 s).
  // Refitted December 2 on bench/specs/alloc-scale.toml's points from record 10,500 (wall s of
  // the point, mpit / joint: oxley1080 0.59 / 1.79, oxley4320 24.9 / 22.0, a slow hour; joint's
  // shells since they are bounded by their inner cubes): mpit 0.53 / 0.43 x the estimate before,
  // 1.1 / 0.93 x after; joint's shells cost more than its LP on oxley1080 and far less on
  // oxley4320, which x k^2 x zones cannot follow: its factor splits the difference (2.1 / 0.48 x).
  double mpit_many_zones_setup_per_z23_s = 5e-9;   ///< x zones^2.3, once per point
  double mpit_many_zones_per_k08_z21_s = 9e-12;    ///< x k^0.8 x zones^2.1 (fitted)
  double joint_many_zones_per_k2_z_s = 7.5e-12;    ///< x k^2 x zones, on top of mpit's
  // mtdp per decision: the free nodes grouped by (zone, delta) in a map, the room's rises copied
  // and ranked per zone, then per node taken the classes scored. Fitted to bench_decisions'
  // 2,000 CEA-Curie jobs on intrepid (80 zones: 0.06-0.12 s of decisions, the cell 0.14-0.24 s),
  // oxley4320 (0.06 s) and oxley1080 (0.013 s), December 1 (x N alone read 1.6e-9 on intrepid,
  // 7.8e-9 on oxley4320: the rest grows with the zones; the estimate had intrepid's cell 3.7 x)
  double mtdp_per_node_s = 1.2e-9;        ///< x N: grouping the free nodes
  double mtdp_per_zone_s = 3.7e-9;        ///< x zones: the room's rises per decision
  // lrh and hts rank the nodes once per point from D (alloc-scale grid: oxley4320 50 ms, intrepid 13 ms)
  double rank_per_zone2_s = 2.7e-9;       ///< x zones^2: D's column sums (lrh), D times the busy powers (hts)
  double rank_per_node_s = 3e-7;          ///< x N: the scores and their sort
  /// x k x zones x min(1, offered load): the greedy, one step per node, each reading every inlet's
  /// margin and adding the chosen node's column (2.4e-8 s per node and zone while every step bound
  /// every zone class; 4.5e-9 since classes wait in heaps by inlet: the 9 points of oxley1080,
  /// oxley4320 and intrepid from records 1, 10,500 and 150,000 at 0.55-1.33 x, December 2).
  /// It runs only where a job finds more nodes on and idle than it takes (mtdp keeps idle nodes
  /// off and boots what waiting jobs need): those decisions held 1.7%, 17% and 45% of the jobs'
  /// nodes in 2,000 CEA-Curie jobs from records 1, 10,500 and 150,000 (offered loads 0.045, 0.18,
  /// 0.69), on oxley4320 and intrepid alike. The offered load stands for that share (its
  /// estimate 2.6 x, 1.0 x and 1.5 x of it). December 2, 2026, bench_decisions --csv.
  double mtdp_greedy_per_k_zone_s = 4.5e-9;
  /// sp_eir with nodes switched off: one LP per distinct (busy, on) count, by row generation over
  /// the inlets (sim/sp_eir.cpp), seconds per LP by zones as measured (2,000 KTH-SP2 or 100-600
  /// CEA-Curie jobs, idle_nodes_off against the same point without): asu50, generated rooms of 2
  /// rows of 5, 7, 10 and 15 racks of 36 nodes. Their cost rises steeply past about 400 zones,
  /// where the first 8 rows no longer hold the optimum's and rows are added over many rounds
  /// (the 1,080-zone point is the generated room's 0.61 s; oxley1080 itself about 0.35 s). Beyond
  /// 1,080 zones (up to kSpEirMaxZones) the last segment's slope: 2,048 zones about 10 s (checked on
  /// December 1 on a generated room of 2 x 28 racks of 36 nodes, 2,016 zones, the first 6 CEA-Curie
  /// jobs: idle nodes off 58.6 s against 65.7 estimated, about 7.4 s per LP against 8.5).
  std::array<std::pair<double, double>, 5> sp_eir_off_lp_s{
      {{50, 3.2e-4}, {360, 7e-4}, {504, 1.1e-2}, {720, 0.1}, {1080, 0.61}}};
  /// distinct (busy, on) counts with nodes switched off: reach x (1 - exp(-jobs / reach)), reach =
  /// scale x nodes^exponent: about one per job in a short run, saturating as pairs recur (fitted:
  /// asu50 436 for 3,000 KTH-SP2 jobs; a 360-zone room 783 and oxley1080 1,152 for 2,000 CEA-Curie
  /// jobs, oxley1080 56, 114 and 399 for its first 60, 120 and 400); at most every pair
  double sp_eir_pairs_scale = 80;
  double sp_eir_pairs_exponent = 0.43;
  /// sp_eir with every node on: k_busy = 0, 1, ... solved in turn, each warm from the last, x zones^2
  /// (a 360-zone room 2.0 ms, oxley1080 23.5 ms per LP)
  double per_sp_eir_chain_lp_zone2_s = 1.5e-8;
  // model = ratebased points (sim/ratebased.hpp): gene = one (core, task type) pair
  double rate_greedy_per_gene_s = 2e-8;     ///< greedy (Alg. 2)
  double rate_ga_per_gene_generation_s = 1e-7;  ///< GA (Alg. 3-4), per generation (oxley1080: 4 ms)
  double rate_ga_node_step_s = 1.3e-4;  ///< the GA's node step, two offspring a generation (oxley1080 mix of 4/6/12 cores)
  double rate_nlp_per_gene_s = 1e-2;  ///< nlp (Ipopt + repair; hybrid: 88 cores 0.5 s, 968 cores 41 s), capped by nlp_time_limit_s
  /// the LP bound, x genes x zones^1.5 per LP it may solve (ratebased_bound_lps), once per
  /// distinct instance: per-zone watt prices make an LP of oxley4320 (4 x the genes and zones of
  /// oxley1080) 35 s against 0.55 s, but it stops after fewer (oxley1080: 8-14 s in all,
  /// oxley4320: 280 s; oxley-p3-4320.toml measured 4 x its estimate when this was x genes alone)
  double rate_bound_per_gene_z15_lp_s = 7.0e-10;
  /// ... times a factor of the budget's headroom over the idle room, v = (phi - I (1 + 1 / CoP(T_red)))
  /// / I, with I every node's static power: I (1 + 1 / CoP(T_red)) is the least the idle room can
  /// draw (its CRACs blow at most at the redline), so below it (v < 0) the point is infeasible and the
  /// technique and the bound stop at their first check (premise: air conserved, see
  /// rate_infeasible_margin). Measured on oxley1080 (hybrid, greedy,
  /// 12 LPs, phi 80-300 kW x redline 24-32 C: bench/specs/ratebased-budget.toml) as {v, seconds of
  /// the point}, divided by 11.8 s (the term above there), log-linear between knots and flat
  /// beyond: just over idle the LPs are small; near v = 1 (150 kW) the budget and the inlet rows
  /// bind together and each LP takes seconds (67-91 s a point); from v = 3.4 (300 kW) the LPs
  /// plateau and the bound stops after 5 (0.4 s). [P3]'s 230 kW at 30 C is v = 2.4.
  std::array<std::array<double, 2>, 9> rate_bound_headroom_s{
      {{0.0, 0.1}, {0.05, 0.58}, {0.21, 7.3}, {0.37, 15.4}, {0.76, 32.7}, {1.15, 83.6}, {1.92, 18.9}, {2.37, 9.9},
       {3.45, 0.37}}};
  double rate_bound_headroom_reference_s = 11.8;
  /// ... and at least this per LP whatever the room (Clp's set-up and the first rounds of columns:
  /// a 12-node room's bound takes 0.09-0.34 s), where the point is not surely infeasible
  double rate_bound_per_lp_s = 0.015;
  /// Surely infeasible below v = -this: the premise (the idle room draws at least I (1 + 1 /
  /// CoP(T_red))) holds where the room conserves air; imported indices may be 1% out of balance.
  double rate_infeasible_margin = 0.02;
  double rate_room_per_zone2_s = 6e-7;      ///< the room and its linear map, once per room (oxley1080 0.4 s, oxley4320 11 s)
  double rate_validate_per_task_s = 1e-6;   ///< ratebased_validate, per simulated arrival
};

/// Estimated seconds per flat point. A model = ratebased point: its technique, its share of the
/// bound and room builds it is the first to need, its validation; its tables are read and checked
/// against the platform (InputError: bad input before anything runs). Builds each distinct workload once (so a missing trace or
/// an impossible platform is an InputError here, before anything runs). With `parts` > 1 only the
/// distinct workloads numbered `part` modulo `parts` (in order of first appearance) are built and
/// the other points are -1: the ranks of a sweep share the estimate and combine it with a max.
/// With `heat`, each distinct room (its share of them) is also built through it, so that a bad
/// heat_distribution or recirculation file is reported here, and the built D is cached for later.
/// A (model = trace) point's cost leaves out what the rank's points share: a rank reads each
/// trace and builds each room's heat distribution once, before the first of its points that
/// needs it starts its clock (prepare_shared_inputs), so /points/wall_s leaves them out too;
/// estimate_room_builds prices the rooms. (A model = ratebased point's first use of a room on a
/// rank builds it inside the point, and its cost holds that: rate_room_per_zone2_s.)
std::vector<double> estimate_costs(const Grid& grid, const TraceLoader& loader, const CostModel& model = {},
                                   std::size_t part = 0, std::size_t parts = 1, const HeatProvider& heat = {});

/// The distinct rooms of a grid's (trace model) points and the seconds to build each once (its
/// heat distribution by a dense LU): a run pays this on every rank that runs points of the room.
struct RoomBuilds {
  std::size_t rooms = 0;
  double seconds = 0;
};
RoomBuilds estimate_room_builds(const Grid& grid, const CostModel& model = {});

/// What a rank's points share, made ready for a point through the caching `loader` and `heat`:
/// its trace, read, and the heat distribution its physics reads (its room's or its matrix
/// file's), built; nothing for what a point does not use.
void prepare_shared_inputs(const ParamSet& params, const TraceLoader& loader, const HeatProvider& heat);

/// What a sweep will write, estimated from the workloads' spans: each point's metrics, and its
/// series (span / series_interval_s samples of time and value, per series).
struct OutputEstimate {
  double series_samples = 0;  ///< over all points and series
  double result_bytes = 0;    ///< the HDF5 file, uncompressed
  double journal_bytes = 0;   ///< OUT.h5.journal at its largest (every point)
};
OutputEstimate estimate_output(const Grid& grid, const TraceLoader& loader, std::size_t metric_count,
                               std::size_t series_count);

/// A loader that parses each trace path once.
TraceLoader caching_trace_loader();

}  // namespace dcsweep
