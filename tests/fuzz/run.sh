#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan + UBSan) in BUILD_DIR and runs each for SECONDS
# (default 20) from a seed corpus of the project's own inputs. Any finding fails; the input that
# caused it is left in BUILD_DIR/findings/ (reproduce: BUILD_DIR/tests/fuzz/fuzz_TARGET FILE).
# usage: tests/fuzz/run.sh PROJECT_DIR BUILD_DIR [SECONDS]
set -euo pipefail
root=$1
build=$2
seconds=${3:-20}
# The sources no reader runs: -O0 with line tables only, uninstrumented, one unity source per
# library (most of their compile time was parsing the same headers). The sources the targets run
# are instrumented and compiled at -O1, each on its own (tests/fuzz/CMakeLists.txt lists them).
# Build: 63 s on 2 cores, from 200-250 s with every source instrumented. To list them again:
# configure with every source in that list's place (`file(GLOB_RECURSE ...)` of src/*.cpp), build,
# run each target with -print_coverage=1 on BUILD_DIR/corpus/TARGET, and keep the files named on
# its COVERED_FUNC lines.
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDCSWEEP_FUZZ=ON \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -gline-tables-only -DNDEBUG" \
  -DDCSWEEP_BUILD_TESTS=OFF -DDCSWEEP_BUILD_BENCH=OFF -DDCSWEEP_NATIVE=OFF \
  -DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=0 >/dev/null
cmake --build "$build" --target fuzz_swf fuzz_spec fuzz_matrix >/dev/null
corpus=$build/corpus
rm -rf "$corpus"
mkdir -p "$corpus"/{swf,spec,matrix} "$build/findings"
# Seeds: the first lines of shipped traces (headers and records), the shipped specs, the matrices.
for t in "$root"/inputs/traces/*.swf; do head -c 4000 "$t" >"$corpus/swf/$(basename "$t")"; done
for t in "$root"/inputs/traces/*.swf.gz; do (zcat "$t" || true) | head -c 4000 | gzip -c >"$corpus/swf/$(basename "$t")"; done
cp "$root"/inputs/specs/*.toml "$root"/tests/sweep/specs/*.toml "$corpus/spec/"
{ printf 'x'; head -c 3000 "$root/inputs/matrices/meng40_D.mtx"; } >"$corpus/matrix/meng40.mtx"
{ printf 'y'; head -5 "$root/inputs/matrices/simware50_D.csv"; } >"$corpus/matrix/simware.csv"
status=0
# Inputs that once failed (tests/fuzz/regressions/TARGET/) run first, every time.
for target in swf spec matrix; do
  dir=$root/tests/fuzz/regressions/$target
  [ -d "$dir" ] || continue
  if ! ASAN_OPTIONS=detect_leaks=0 "$build/tests/fuzz/fuzz_$target" -rss_limit_mb=2048 -timeout=10 "$dir"/* \
      >"$build/fuzz_${target}_regressions.log" 2>&1; then
    echo "FAIL: fuzz_$target fails on a saved regression input:"; tail -30 "$build/fuzz_${target}_regressions.log"; status=1
  fi
done
for target in swf spec matrix; do
  echo "fuzz_$target: $seconds s"
  if ! ASAN_OPTIONS=detect_leaks=0 "$build/tests/fuzz/fuzz_$target" -max_total_time="$seconds" -rss_limit_mb=2048 \
      -timeout=10 -artifact_prefix="$build/findings/$target-" -print_final_stats=1 "$corpus/$target" \
      >"$build/fuzz_$target.log" 2>&1; then
    echo "FAIL: fuzz_$target found a problem:"; tail -30 "$build/fuzz_$target.log"; status=1
  else
    grep -E "stat::number_of_executed_units" "$build/fuzz_$target.log" || true
  fi
done
exit $status
