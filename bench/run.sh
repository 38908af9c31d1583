#!/usr/bin/env bash
# Speed and memory of `dcsweep simulate` on the largest shipped trace, on one core (taskset -c 0),
# median of RUNS runs each, with the bare count-only EASY loop (bench/bare_easy.cpp) measured in
# the same run as the baseline, and conservative backfilling and edf against EASY. Then
# in-process jobs/s for 10k, 100k and all jobs, and the thermal model's cost (bench_thermal)
# with the peak memory of an intrepid run with it.
# usage: bench/run.sh [RUNS]     (after .ci/build; writes nothing but stdout)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
bin=build
trace=inputs/traces/CEA-Curie-2011-2.1-cln.swf.gz

# measure LABEL CMD...: prints "LABEL median_s max_rss_MB"
measure() {
  local label=$1
  shift
  local times=() rss=0 out
  for _ in $(seq "$runs"); do
    /usr/bin/time -o /tmp/dcsweep-bench-time -f "%e %M" taskset -c 0 "$@" >/dev/null 2>&1
    out=$(tail -1 /tmp/dcsweep-bench-time)
    times+=("${out% *}")
    if ((${out#* } > rss)); then rss=${out#* }; fi
  done
  local median
  median=$(printf '%s\n' "${times[@]}" | sort -g | sed -n "$(((runs + 1) / 2))p")
  printf '%-44s %8s s %8.1f MB\n' "$label" "$median" "$(echo "$rss / 1024" | bc -l)"
  echo "$median" >"/tmp/dcsweep-bench-$label"
}

echo "== end to end, one core, median of $runs (reading the .gz included) =="
measure baseline_bare_easy "$bin/bench/bare_easy" "$trace" 16 5544
measure curie_easy_first_fit "$bin/dcsweep" simulate --trace "$trace" --scheduler easy --allocator first_fit
measure curie_on_intrepid_easy_first_fit "$bin/dcsweep" simulate --trace "$trace" --platform intrepid \
  --scale-to-platform --scheduler easy --allocator first_fit --node-power none  # scheduling only
base=$(cat /tmp/dcsweep-bench-baseline_bare_easy)
for case in curie_easy_first_fit curie_on_intrepid_easy_first_fit; do
  printf '%-44s %8.2f x baseline\n' "$case" "$(echo "$(cat /tmp/dcsweep-bench-$case) / $base" | bc -l)"
done
echo
echo "== conservative backfilling and edf (issue 10), whole CEA-Curie, vs EASY in the same run (target <= 3 x) =="
measure curie_conservative_first_fit "$bin/dcsweep" simulate --trace "$trace" --scheduler conservative --allocator first_fit
measure curie_edf_first_fit "$bin/dcsweep" simulate --trace "$trace" --scheduler edf --allocator first_fit
easy=$(cat /tmp/dcsweep-bench-curie_easy_first_fit)
for case in curie_conservative_first_fit curie_edf_first_fit; do
  printf '%-44s %8.2f x EASY\n' "$case" "$(echo "$(cat /tmp/dcsweep-bench-$case) / $easy" | bc -l)"
done
echo
echo "== in process: simulate() only, trace machine =="
taskset -c 0 "$bin/bench/bench_engine" "$trace" --runs "$runs"
echo
echo "== in process: simulate() only, scaled onto intrepid =="
taskset -c 0 "$bin/bench/bench_engine" "$trace" --platform intrepid --scale-to-platform --runs "$runs"
echo
echo "== thermal model in the loop, one core, median of $runs (issue 4; D built once beforehand) =="
taskset -c 0 "$bin/bench/bench_thermal" "$trace" --platform intrepid --scale-to-platform --runs "$runs"
# No taskset here: a large room's D is built on all cores (the simulation itself is single-threaded).
"$bin/bench/bench_thermal" inputs/traces/KTH-SP2-1996-2.1-cln.swf --platform oxley4320 \
  --scale-to-platform --jobs 10000 --runs "$runs"
measure intrepid_thermal_end_to_end "$bin/dcsweep" simulate --trace "$trace" --platform intrepid --scale-to-platform
measure intrepid_no_thermal_end_to_end "$bin/dcsweep" simulate --trace "$trace" --platform intrepid --scale-to-platform \
  --node-power none
echo
echo "== allocators (issue 8): one 512-node decision on half-busy intrepid, median of $runs =="
taskset -c 0 "$bin/bench/bench_alloc" --runs "$runs"
echo
echo "== allocators over a realistic run (issue 29): CEA-Curie from record 10,500 (job id 311770), 600 records, 25 s limit each =="
for platform in oxley1080 oxley4320 intrepid; do
  taskset -c 0 "$bin/bench/bench_decisions" inputs/traces/CEA-Curie-2011-2.1-cln.swf.gz --platform "$platform" \
    --scale-to-platform --first-job 311770 --jobs 600 --limit-s 25 --allocator mc1x1 --allocator mm \
    --allocator genalg --allocator bqp --allocator mpit --allocator joint --allocator mtdp --allocator lrh
done
echo
echo "== NASA-iPSC (whole trace) on meng40 with meng_tau, in process, one core, median of $runs =="
taskset -c 0 "$bin/bench/bench_compare" inputs/traces/NASA-iPSC-1993-3.1-cln.swf --platform meng40 --scale-to-platform \
  --runs "$runs" --set runtime_model=meng_tau --variant allocator=first_fit --variant allocator=mc1x1
echo
echo "== cooling-aware allocators (issue 9): NASA-iPSC with [P1]'s setting, joint <= 3 x mc1x1; one MPIT decision =="
taskset -c 0 "$bin/bench/bench_compare" inputs/traces/NASA-iPSC-1993-3.1-cln.swf --platform meng40 --scale-to-platform \
  --runs "$runs" --set runtime_model=meng_tau --set node_power=meng_p1 --set scheduler=easy \
  --variant allocator=mc1x1 --variant allocator=mpit --variant allocator=joint
taskset -c 0 "$bin/bench/bench_mpit"
echo
echo "== sensitivity analysis (issue 13): analyze on 100,002 points, designs of 10^6 points, one core, median of $runs =="
taskset -c 0 "$bin/bench/bench_analysis" --runs "$runs"
echo
echo "== PARM ILP (issue 11): one decision on intrepid, 200 jobs x 8 node counts x 6 caps, 20 instances, fast vs CBC =="
taskset -c 0 "$bin/bench/bench_parm" --instances 20
taskset -c 0 "$bin/bench/bench_parm" --instances 20 --nodes 55248 --running 30  # overprovisioned: both rows bind
