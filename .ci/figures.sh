#!/usr/bin/env bash
# Regenerates every picture and generated table of README.md and docs/: runs the shipped specs
# behind them on 2 MPI ranks into results/ (the demo sweep, inputs/specs/demo.toml, 15 simulations;
# the meng40 sensitivity study, inputs/specs/meng40-sensitivity.toml, 7,168 simulations), redraws
# .ci/figures/*.png with `dcsweep plot`, runs the user guide's first spec (inputs/specs/tutorial.toml), and rewrites the blocks between `<!-- figures.sh: NAME -->`
# and `<!-- /figures.sh -->` in README.md and docs/*.md (.ci/figures_embed.py) with the output of
# the commands the README's tour shows. About a minute on 2 cores. Commit what it changed.
# usage: bash .ci/figures.sh     (after .ci/build)
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # Open MPI as root
mkdir -p results .ci/figures
gen=$(mktemp -d)
trap 'rm -rf "$gen"' EXIT
embed() { /usr/bin/python3 .ci/figures_embed.py "$@"; }
# Keeps the lines of a metric listing whose first word is one of the names, then an ellipsis.
pick() { grep -E "^ *(dcsweep:|[0-9]+ points:|dims:|metric|$1)( |$)" | sed "s|$PWD/||"; echo "..."; }
shown='jobs_completed|makespan_s|avg_wait_s|utilization|avg_comm_cost|avg_runtime_stretch|cooling_energy_j|avg_cooling_power_w|max_inlet_c|avg_supply_temp_c'

# The user guide's first spec, and what analyze says of it.
embed tutorial-spec inputs/specs/tutorial.toml toml
rm -f results/tutorial.h5 results/tutorial.h5.journal
mpirun -q -np 2 build/dcsweep run inputs/specs/tutorial.toml -o results/tutorial.h5 --quiet >/dev/null
build/dcsweep analyze results/tutorial.h5 --metric avg_wait_s cooling_energy_j | sed "s|results/||" >"$gen/tutorial"
embed tutorial-analyze "$gen/tutorial" text

# The tour: one simulation, the demo sweep on 2 ranks, the file in xarray, a picture.
build/dcsweep simulate --platform meng40 --trace inputs/traces/KTH-SP2-1996-2.1-cln.swf --jobs 3000 \
  --scale-to-platform --runtime-model meng_tau --allocator joint --redline-c 27 2>/dev/null | pick "$shown" >"$gen/simulate"
embed tour-simulate "$gen/simulate" text
embed demo-spec inputs/specs/demo.toml toml
for name in demo meng40-sensitivity; do
  rm -f "results/$name.h5" "results/$name.h5.journal"  # start over: `dcsweep run` never overwrites
  mpirun -q -np 2 build/dcsweep run "inputs/specs/$name.toml" -o "results/$name.h5" --quiet >"$gen/$name.run"
done
pick "$shown" <"$gen/demo.run" >"$gen/run"
embed tour-run "$gen/run" text
embed tour-xarray-code .ci/tour_xarray.py python
/usr/bin/python3 .ci/tour_xarray.py >"$gen/xarray"
embed tour-xarray "$gen/xarray" text

plot() { build/dcsweep plot "$@"; }
plot results/demo.h5 cooling_energy_j --x redline_c --y allocator -o .ci/figures/demo-cooling-heatmap.png
plot results/demo.h5 cooling_power_w --x time --select redline_c=27 -o .ci/figures/demo-cooling-series.png
plot results/meng40-sensitivity.h5 cooling_energy_j --x factor -o .ci/figures/meng40-sobol-cooling.png
/usr/bin/python3 .ci/sobol_table.py build/dcsweep results/meng40-sensitivity.h5 >"$gen/sobol"
embed meng40-sobol-table "$gen/sobol"
git --no-pager diff --stat -- README.md docs .ci/figures || true
echo "figures.sh: done in $((SECONDS - start)) s"
