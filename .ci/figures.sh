#!/usr/bin/env bash
# Regenerates the README's pictures (.ci/figures/*.png) with `dcsweep plot`, from shipped specs
# run on 2 MPI ranks into results/: the demo sweep (inputs/specs/demo.toml) and the meng40
# sensitivity study (inputs/specs/meng40-sensitivity.toml, 7,168 simulations, about 15 s).
# usage: bash .ci/figures.sh     (after .ci/build)
set -euo pipefail
cd "$(dirname "$0")/.."
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1  # Open MPI as root
mkdir -p results .ci/figures
for name in demo meng40-sensitivity; do
  rm -f "results/$name.h5" "results/$name.h5.journal"  # start over: `dcsweep run` never overwrites
  mpirun -q -np 2 build/dcsweep run "inputs/specs/$name.toml" -o "results/$name.h5" --quiet >/dev/null
done
plot() { build/dcsweep plot "$@"; }
plot results/demo.h5 cooling_energy_j --x redline_c --y allocator -o .ci/figures/demo-cooling-heatmap.png
plot results/demo.h5 cooling_power_w --x time --select redline_c=27 -o .ci/figures/demo-cooling-series.png
plot results/meng40-sensitivity.h5 cooling_energy_j --x factor -o .ci/figures/meng40-sobol-cooling.png
build/dcsweep analyze results/meng40-sensitivity.h5 --metric cooling_energy_j avg_cooling_power_w makespan_s
