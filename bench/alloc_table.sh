#!/usr/bin/env bash
# Issue 29's end-to-end table: 2,000 CEA-Curie jobs from record 10,500 (job id 311770), scaled
# onto each platform, EASY, one process on one core, wall seconds of `dcsweep simulate` per
# allocator (a cell over its limit is killed and shown as "> limit"; the room's D build is inside
# every cell of a platform). FIRST_JOB=0 runs from the trace's first record instead: what
# `--first-job 10500` did until December 2, 2026 (CEA-Curie's ids start at 272393, so 10500 selected
# its first job; `dcsweep simulate` now says so in a note).
# usage: bench/alloc_table.sh [LIMIT_S]     (after .ci/build; default 120 s per cell)
#        ALLOCATORS="mpit joint" PLATFORMS="oxley4320" bench/alloc_table.sh 120   (some cells only)
#        FIRST_JOB=0 bench/alloc_table.sh; DCSWEEP=/path/to/dcsweep bench/alloc_table.sh (another binary)
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-120}
trace=inputs/traces/CEA-Curie-2011-2.1-cln.swf.gz
first_job=${FIRST_JOB:-311770}
read -r -a allocators <<< "${ALLOCATORS:-first_fit mc1x1 mm genalg bqp mpit joint lrh mtdp}"
read -r -a platforms <<< "${PLATFORMS:-oxley1080 oxley4320 intrepid}"
printf '| allocator |'
for p in "${platforms[@]}"; do printf ' %s |' "$p"; done
printf '\n|---|'
for _ in "${platforms[@]}"; do printf -- '---:|'; done
printf '\n'
for a in "${allocators[@]}"; do
  printf '| %s |' "$a"
  for p in "${platforms[@]}"; do
    start=$(date +%s.%N)
    if timeout "$limit" taskset -c 0 ${DCSWEEP:-build/dcsweep} simulate --trace "$trace" --platform "$p" --first-job "$first_job" \
      --jobs 2000 --scale-to-platform --allocator "$a" --json >/dev/null 2>&1; then
      printf ' %.2f |' "$(echo "$(date +%s.%N) - $start" | bc -l)"
    else
      printf ' > %s |' "$limit"
    fi
  done
  printf '\n'
done
