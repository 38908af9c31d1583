#!/usr/bin/env bash
# End-to-end checks of the dcsweep binary: exit codes, one-line errors, and the --jobs-out file
# of a whole shipped trace (each job once, no start before submit, rows + rejected = records).
# usage: test_cli.sh DCSWEEP_BINARY PROJECT_DIR [BENCH_DIR]
# With BENCH_DIR, the benchmarks there refuse bad input as the command does.
set -u
bin=$1
root=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
pass=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
ok() { pass=$((pass + 1)); }

# expect_error CODE 'message prefix' args...: exit code, one stderr line starting with the prefix, empty stdout
expect_error() {
  local code=$1 prefix=$2
  shift 2
  "$bin" "$@" >"$tmp/out" 2>"$tmp/err"
  local got=$?
  local lines
  lines=$(wc -l <"$tmp/err")
  if [[ $got -ne $code ]]; then fail "$* -> exit $got, want $code"; return; fi
  if [[ $lines -ne 1 ]]; then fail "$* -> $lines stderr lines: $(cat "$tmp/err")"; return; fi
  if [[ $(head -c ${#prefix} "$tmp/err") != "$prefix" ]]; then fail "$* -> '$(cat "$tmp/err")'"; return; fi
  if [[ -s $tmp/out ]]; then fail "$* -> wrote to stdout"; return; fi
  ok
}

traces=$root/inputs/traces
printf '; MaxNodes: 8\n1 0 0 10 1 -1 -1 1 10 -1 1 1 1 1 1 1 -1 -1\n2 5 0 10 1 -1 -1\n' >"$tmp/bad.swf"

expect_error 2 "dcsweep: error: $tmp/missing.swf: cannot open" simulate --trace "$tmp/missing.swf"
expect_error 2 "dcsweep: error: $tmp/bad.swf:3: expected 18 fields, found 7" simulate --trace "$tmp/bad.swf"
expect_error 2 "dcsweep: error: parameter 'scheduler': unknown value 'backfill'" \
  simulate --trace "$traces/KTH-SP2-1996-2.1-cln.swf" --scheduler backfill
expect_error 2 "dcsweep: error: parameter 'gamma': -1 is out of range" \
  simulate --trace "$traces/KTH-SP2-1996-2.1-cln.swf" --gamma -1
expect_error 2 "dcsweep: error: parameter 'allocator': unknown value 'best_fit'" \
  simulate --trace "$traces/KTH-SP2-1996-2.1-cln.swf" --allocator best_fit
expect_error 2 "dcsweep: error: unknown command" frobnicate
printf '; MaxNodes: 8\n1 0 0 10 2 -1 -1 2 10 -1 1 1 1 1 1 1 -1 -1\n' >"$tmp/one.swf"
expect_error 2 "dcsweep: error: allocator 'mc1x1' needs a platform with a network (mesh or torus); platform 'trace' has none" \
  simulate --trace "$tmp/one.swf" --allocator mc1x1
expect_error 2 "dcsweep: error: task_mapping 'rcb' needs a platform with a network" simulate --trace "$tmp/one.swf" --task-mapping rcb
expect_error 2 "dcsweep: error: parameter 'alpha': -1 is out of range" \
  simulate --platform meng40 --workload poisson --allocator bqp --alpha -1
expect_error 2 "dcsweep: error: parameter 'beta': -0.5 is out of range" \
  simulate --platform meng40 --workload poisson --allocator bqp --beta -0.5
expect_error 2 "dcsweep: error: parameter 'alpha': alpha and beta are both 0" \
  simulate --platform meng40 --workload poisson --allocator bqp --alpha 0 --beta 0
expect_error 2 "dcsweep: error: parameter 'alpha': allocator 'bqp' with alpha = 0.5 needs a platform with a network" \
  simulate --trace "$tmp/one.swf" --allocator bqp
expect_error 2 "dcsweep: error: parameter 'beta': allocator 'bqp' with beta = 0.5 needs a platform with a room" \
  simulate --trace "$tmp/one.swf" --allocator bqp --alpha 0
expect_error 2 "dcsweep: error: parameter 'beta': allocator 'bqp' with beta > 0 needs the room's heat-distribution matrix D" \
  simulate --platform meng40 --workload poisson --allocator bqp --thermal-model crac_node
expect_error 2 "dcsweep: error: allocator 'mpit' needs a platform with a room (it reads inlet temperatures); platform 'trace' has none" \
  simulate --trace "$tmp/one.swf" --allocator mpit
expect_error 2 "dcsweep: error: allocator 'joint' needs a platform with a room (it reads inlet temperatures); platform 'trace' has none" \
  simulate --trace "$tmp/one.swf" --allocator joint
expect_error 2 "dcsweep: error: allocator 'mpit' needs the recirculation model" \
  simulate --trace "$tmp/one.swf" --platform meng40 --thermal-model crac_node --allocator mpit
expect_error 2 "dcsweep: error: parameter 'comm_pattern': unknown value 'ring'" simulate --trace "$tmp/one.swf" --comm-pattern ring
# a sweep point whose parameters rule out a thermal allocator is bad input before any simulation
printf '[sweep]\nseed = 1\n[base]\nplatform = "meng40"\nworkload = "poisson"\nthermal_model = "crac_node"\n[axes]\nallocator = ["mc1x1", "mpit"]\n' >"$tmp/mpit_crac.toml"
expect_error 2 "dcsweep: error: allocator 'mpit' needs the recirculation model" validate "$tmp/mpit_crac.toml"
expect_error 2 "dcsweep: error: allocator 'mpit' needs the recirculation model" run "$tmp/mpit_crac.toml" -o "$tmp/mpit_crac.h5"
[ ! -e "$tmp/mpit_crac.h5" ] || { echo "FAIL: a refused sweep wrote $tmp/mpit_crac.h5"; exit 1; }
# edf's deadlines need requested times: a trace without them is bad input, in simulate and for a
# sweep point whose workload another point (easy) builds first, before anything is written.
nasa=$traces/NASA-iPSC-1993-3.1-cln.swf
edf_error="dcsweep: error: scheduler 'edf' needs requested times (SWF field 9) for its deadlines: 18066 of 18066 jobs of $nasa have none (first: job 1)"
expect_error 2 "$edf_error" simulate --trace "$nasa" --scheduler edf
printf '[sweep]\nseed = 1\n[base]\ntrace = "%s"\n[axes]\nscheduler = ["easy", "edf"]\n' "$nasa" >"$tmp/edf.toml"
expect_error 2 "$edf_error" validate "$tmp/edf.toml"
expect_error 2 "$edf_error" run "$tmp/edf.toml" -o "$tmp/edf.h5"
[ ! -e "$tmp/edf.h5" ] || { echo "FAIL: a refused sweep wrote $tmp/edf.h5"; exit 1; }
# [P2] parm: a budget the idle machine already exceeds, no CPU cap levels, theta outside (0, 1]
parm=(simulate --platform intrepid --trace "$traces/KTH-SP2-1996-2.1-cln.swf" --jobs 20 --scheduler parm --runtime-model pass)
expect_error 2 "dcsweep: error: parameter 'power_budget_w': 1e+06 W is below the idle power of platform 'intrepid' (3522560 W for 40960 nodes)" \
  "${parm[@]}" --power-budget-w 1e6
expect_error 2 "dcsweep: error: parameter 'parm_cpu_caps_w': no CPU cap levels" "${parm[@]}" --parm-cpu-caps-w ''
expect_error 2 "dcsweep: error: parameter 'parm_cpu_caps_w': 'abc' is not a positive number of watts" "${parm[@]}" --parm-cpu-caps-w 30,abc
expect_error 2 "dcsweep: error: parameter 'parm_theta_min': 0 is out of range (0, 1]" "${parm[@]}" --parm-theta-min 0
expect_error 2 "dcsweep: error: parameter 'parm_theta_max': 1.5 is out of range (0, 1]" "${parm[@]}" --parm-theta-max 1.5
expect_error 2 "dcsweep: error: parameter 'budget_includes_cooling': the thermostat's cooling power follows its mode" \
  "${parm[@]}" --budget-includes-cooling true --cooling thermostat
expect_error 2 "dcsweep: error: parameter 'runtime_model': scheduler 'parm' plans with the PASS model" \
  simulate --platform intrepid --trace "$traces/KTH-SP2-1996-2.1-cln.swf" --jobs 20 --scheduler parm
# No silent no-ops (issue 30): a parameter nothing reads is refused on the command line and in a
# spec, where an axis is refused when no point reads it and accepted when some point does.
expect_error 2 "dcsweep: error: parameter 'parm_scheme' is read by scheduler = parm; this run has scheduler = easy" \
  simulate --scheduler easy --parm-scheme nomm --workload poisson
expect_error 2 "dcsweep: error: parameter 'first_job' is read by workload = trace; this run has workload = poisson" \
  simulate --workload poisson --first-job 500 --jobs 7
expect_error 2 "dcsweep: error: parameter 'thermostat_high_c' is read by cooling = thermostat; this run has cooling = redline" \
  simulate --platform meng40 --workload poisson --cooling redline --thermostat-high-c 12
expect_error 2 "dcsweep: error: parameter 'alpha' is read by allocator = bqp; this run has allocator = first_fit" \
  simulate --platform meng40 --workload poisson --alpha 0.3
printf '[sweep]\nseed = 1\n[base]\nplatform = "meng40"\nworkload = "poisson"\n[axes]\nalpha = [0.2, 0.8]\n' >"$tmp/noop.toml"
expect_error 2 "dcsweep: error: $tmp/noop.toml:7: [axes] alpha: parameter 'alpha' is read by allocator = bqp; no point of this sweep has that (allocator = first_fit)" \
  validate "$tmp/noop.toml"
printf 'allocator = ["first_fit", "bqp"]\n' >>"$tmp/noop.toml"
"$bin" validate "$tmp/noop.toml" >/dev/null 2>"$tmp/err" && ok || fail "validate: an axis some point reads: $(cat "$tmp/err")"
printf '[sweep]\nseed = 1\n[axes]\ngamma = []\n' >"$tmp/empty.toml"
expect_error 2 "dcsweep: error: $tmp/empty.toml:4: [axes] gamma: empty axis" validate "$tmp/empty.toml"
expect_error 2 "dcsweep: error: $tmp/missing.toml: cannot open the spec" validate "$tmp/missing.toml"
expect_error 2 "dcsweep: error: validate: missing SPEC.toml" validate
(cd "$root" && "$bin" validate inputs/specs/example.toml >"$tmp/validate.txt") && grep -q '^points: 12$' "$tmp/validate.txt" \
  && ok || fail "validate inputs/specs/example.toml"

# A whole shipped trace, end to end.
trace=$traces/SDSC-SP2-1998-4.2-cln.swf.gz
if "$bin" simulate --trace "$trace" --scheduler easy --json --jobs-out "$tmp/jobs.csv" >"$tmp/metrics.json" 2>"$tmp/err"; then
  ok
  records=$(zcat "$trace" | grep -cv '^;')
  rejected=$(sed -E 's/.*"jobs_rejected": ([0-9]+).*/\1/' "$tmp/metrics.json")
  rows=$(($(wc -l <"$tmp/jobs.csv") - 1))
  [[ $(head -1 "$tmp/jobs.csv") == "id,submit_s,start_s,end_s,nodes,requested_s,runtime_s,node_ids,comm_cost" ]] && ok || fail "jobs-out header"
  [[ $((rows + rejected)) -eq $records ]] && ok || fail "rows $rows + rejected $rejected != records $records"
  dup=$(tail -n +2 "$tmp/jobs.csv" | cut -d, -f1 | sort | uniq -d | head -1)
  [[ -z $dup ]] && ok || fail "job $dup listed twice"
  early=$(awk -F, 'NR > 1 && $3 < $2 {print $1; exit}' "$tmp/jobs.csv")
  [[ -z $early ]] && ok || fail "job $early starts before its submit time"
else
  fail "simulate on $trace: $(cat "$tmp/err")"
fi

# dcsweep thermal: the real meng40 matrix gives the paper's inlet temperatures; given A or D
# files replace the platform's; bad matrices and power files are one error line and exit 2.
json_field() { sed -E "s/.*\"$1\": ([-0-9.e+]+).*/\1/" "$2"; }
near() { awk -v a="$1" -v b="$2" -v tol="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= tol) }'; }
expect_thermal() {  # expect_thermal FIELD VALUE TOLERANCE args...
  local field=$1 want=$2 tol=$3
  shift 3
  if "$bin" thermal "$@" >"$tmp/thermal.json" 2>"$tmp/err"; then
    local got
    got=$(json_field "$field" "$tmp/thermal.json")
    near "$got" "$want" "$tol" && ok || fail "thermal $* -> $field = $got, want $want"
  else
    fail "thermal $*: $(cat "$tmp/err")"
  fi
}
expect_thermal t_in_max_c 23.73 0.01 --platform meng40 --supply-temp-c 15
expect_thermal t_in_max_c 41.20 0.01 --platform meng40 --supply-temp-c 15 --uniform-power-w 3000
for _ in $(seq 40); do echo 3000; done >"$tmp/p3000.csv"
expect_thermal t_in_max_c 41.20 0.01 --platform meng40 --power-w "$tmp/p3000.csv"
expect_thermal t_sup_eff_c 16.27 0.01 --platform meng40 --redline-c 25   # 15 + 25 - 23.73
expect_thermal cooling_power_w "$(awk 'BEGIN { t = 25 - 8.7344786; print 40000 / (0.0068*t*t + 0.0008*t + 0.458) }')" 0.01 \
  --platform meng40 --redline-c 25
# A D file of 1e-4 K/W everywhere: 40 kW -> +4 K on every inlet.
awk 'BEGIN { for (i = 0; i < 40; i++) { line = ""; for (j = 0; j < 40; j++) line = line (j ? "," : "") "0.0001"; print line } }' >"$tmp/D.csv"
expect_thermal t_in_max_c 19 1e-9 --platform meng40 --heat-distribution "$tmp/D.csv"
# An A file (MatrixMarket) with no recirculation at all: T_in = T_sup.
printf '%%%%MatrixMarket matrix coordinate real general\n40 40 0\n' >"$tmp/A0.mtx"
expect_thermal t_in_max_c 15 1e-9 --platform meng40 --recirculation "$tmp/A0.mtx"
printf '1,2\n3,4\n' >"$tmp/small.csv"
expect_error 2 "dcsweep: error: $tmp/small.csv: D is 2 x 2; the platform has 40 thermal zones" \
  thermal --platform meng40 --heat-distribution "$tmp/small.csv"
printf '1,2,3\n3,4,5\n' >"$tmp/rect.csv"
expect_error 2 "dcsweep: error: $tmp/rect.csv: D must be square, it is 2 x 3" thermal --platform meng40 --heat-distribution "$tmp/rect.csv"
printf '%%%%MatrixMarket matrix coordinate real general\n40 40 1\n1 2 -0.1\n' >"$tmp/Aneg.mtx"
expect_error 2 "dcsweep: error: $tmp/Aneg.mtx: A[1][2] = -0.1 is negative" thermal --platform meng40 --recirculation "$tmp/Aneg.mtx"
printf '%%%%MatrixMarket matrix coordinate real general\n40 40 2\n1 2 0.6\n1 3 0.5\n' >"$tmp/Asum.mtx"
expect_error 2 "dcsweep: error: $tmp/Asum.mtx: row 1 of A sums to 1.1" thermal --platform meng40 --recirculation "$tmp/Asum.mtx"
printf '0.1,oops\n' >"$tmp/nan.csv"
expect_error 2 "dcsweep: error: $tmp/nan.csv:1: 'oops' is not a finite number" thermal --platform meng40 --heat-distribution "$tmp/nan.csv"
expect_error 2 "dcsweep: error: $tmp/none.csv: cannot open" thermal --platform meng40 --heat-distribution "$tmp/none.csv"
head -39 "$tmp/p3000.csv" >"$tmp/p39.csv"
expect_error 2 "dcsweep: error: $tmp/p39.csv: 39 values; platform meng40 has 40 nodes" thermal --platform meng40 --power-w "$tmp/p39.csv"
{ head -5 "$tmp/p3000.csv"; echo -5; tail -34 "$tmp/p3000.csv"; } >"$tmp/pneg.csv"
expect_error 2 "dcsweep: error: $tmp/pneg.csv: node 6 has negative power -5" thermal --platform meng40 --power-w "$tmp/pneg.csv"
expect_error 2 "dcsweep: error: platform 'trace' needs a trace" thermal --platform trace
# [P4] Eq. 7's bound on SP-EIR: asu50 is above 1 and far below [P4]'s 1.69 (1.070: the CRAC adds a few
# per cent to a compute ratio of 1.061; docs/models.md, Data-center physics); without a room or node power, exit 2.
if "$bin" thermal --platform asu50 --sp-eir-bound >"$tmp/speir.json" 2>"$tmp/err"; then
  got=$(json_field sp_eir_bound "$tmp/speir.json")
  awk -v b="$got" 'BEGIN { exit !(b > 1 && b < 1.69) }' && ok || fail "thermal --sp-eir-bound on asu50 -> $got"
  near "$got" 1.0696 0.0001 && ok || fail "thermal --sp-eir-bound on asu50 -> $got, want 1.0696 ([P4]'s 100 / 350 kW levels)"
else
  fail "thermal --platform asu50 --sp-eir-bound: $(cat "$tmp/err")"
fi
expect_error 2 "dcsweep: error: platform 'trace' needs a trace" thermal --platform trace --sp-eir-bound
expect_error 2 "dcsweep: error: thermal: --sp-eir-bound needs a node power model" \
  thermal --platform meng40 --node-power none --sp-eir-bound
expect_error 2 "dcsweep: error: thermal: --sp-eir-bound evaluates every node busy and every node idle" \
  thermal --platform meng40 --uniform-power-w 3000 --sp-eir-bound
expect_error 2 "dcsweep: error: thermostat: the compute power 111600 W is not below the CRAC's high-mode extraction 1e+05 W" \
  thermal --platform meng40 --crac-high-extract-w 100000 --sp-eir-bound
# Matrices in HDF5 files: a dataset "D" (or a named one), as written by h5py.
/usr/bin/python3 - "$tmp/room.h5" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "w") as f:
    f["D"] = np.full((40, 40), 1e-4)
    f["rooms/A"] = np.zeros((40, 40))
    f["bad"] = np.zeros(40)
PY
expect_thermal t_in_max_c 19 1e-9 --platform meng40 --heat-distribution "$tmp/room.h5"
expect_thermal t_in_max_c 15 1e-9 --platform meng40 --recirculation "$tmp/room.h5:/rooms/A"
expect_error 2 "dcsweep: error: $tmp/room.h5: dataset 'bad' is not 2-D" thermal --platform meng40 --heat-distribution "$tmp/room.h5:bad"
expect_error 2 "dcsweep: error: $tmp/room.h5: no dataset 'nope'" thermal --platform meng40 --heat-distribution "$tmp/room.h5:nope"
# Oxley's CRAC + node model: isolated cold aisles keep the inlets cooler than open ones.
"$bin" thermal --platform oxley1080 --thermal-model crac_node --uniform-power-w 200 >"$tmp/open.json" 2>"$tmp/err" &&
  "$bin" thermal --platform oxley1080 --thermal-model crac_node --uniform-power-w 200 --aisle-containment 1 \
    >"$tmp/isolated.json" 2>>"$tmp/err" &&
  awk -v a="$(json_field t_in_max_c "$tmp/isolated.json")" -v b="$(json_field t_in_max_c "$tmp/open.json")" \
    'BEGIN { exit !(a < b - 5) }' && ok || fail "crac_node isolated vs open: $(cat "$tmp/err")"
# At steady state the CRACs remove what the nodes dissipate (the indices conserve air), here with
# 1,080 zones of 3 air flows, 49.3 m3/s of node air against one CRAC of 26.1 m3/s.
for containment in 0 1; do
  if "$bin" thermal --platform oxley1080 --thermal-model crac_node --uniform-power-w 150 --aisle-containment "$containment" \
    >"$tmp/balance.json" 2>"$tmp/err" && near "$(json_field removed_heat_w "$tmp/balance.json")" 162000 1e-4; then
    ok
  else
    fail "crac_node heat balance at containment $containment: $(cat "$tmp/err" "$tmp/balance.json" | cut -c1-200)"
  fi
done
# Imported influence indices: the generated ones written by `platform --matrices-out` read back
# give the same room; slightly unbalanced ones a warning naming the worst outlet; grossly
# unbalanced ones (an outlet delivering 30% more air than it moves) one error line, exit 2.
room_args=(--platform room --room-rows 2 --room-racks-per-row 3 --room-nodes-per-rack 4 --room-cracs 2 --thermal-model crac_node)
if "$bin" platform room "${room_args[@]:2}" --matrices-out "$tmp/cn" >/dev/null 2>"$tmp/err" &&
  "$bin" thermal "${room_args[@]}" --uniform-power-w 300 >"$tmp/gen.json" 2>>"$tmp/err" &&
  "$bin" thermal "${room_args[@]}" --uniform-power-w 300 --influence-indices "$tmp/cn_influence.csv" >"$tmp/imp.json" 2>>"$tmp/err" &&
  [[ ! -s $tmp/err ]] && near "$(json_field removed_heat_w "$tmp/imp.json")" 7200 1e-6 &&
  near "$(json_field t_in_max_c "$tmp/imp.json")" "$(json_field t_in_max_c "$tmp/gen.json")" 1e-12; then
  ok
else
  fail "crac_node indices round trip: $(cat "$tmp/err" | cut -c1-300)"
fi
/usr/bin/python3 - "$tmp/cn_influence.csv" "$tmp" <<'PY'
import sys, numpy as np
a = np.loadtxt(sys.argv[1], delimiter=",")
n = a.shape[0] - 2                    # 24 node zones, then 2 CRACs
small = a.copy(); small[3, :n] *= 1 + 1e-4; small[n:, :n] -= (small[:, :n].sum(0) - 1) / 2  # shares still 1
np.savetxt(sys.argv[2] + "/cn_small.csv", small, delimiter=",", fmt="%.17g")
gross = a.copy(); gross[5, :n] *= 1.3; gross[n:, :n] -= (gross[:, :n].sum(0) - 1) / 2
np.savetxt(sys.argv[2] + "/cn_gross.csv", gross, delimiter=",", fmt="%.17g")
PY
if "$bin" thermal "${room_args[@]}" --influence-indices "$tmp/cn_small.csv" >"$tmp/cn_small.json" 2>"$tmp/err" &&
  [[ $(wc -l <"$tmp/err") -eq 1 ]] &&
  grep -q "^dcsweep: warning: $tmp/cn_small.csv: air is not conserved: the outlet of node zone 4 delivers .* (within 1%: used as given" "$tmp/err"; then
  ok
else
  fail "slightly unbalanced indices: $(cat "$tmp/err" | cut -c1-300)"
fi
expect_error 2 "dcsweep: error: $tmp/cn_gross.csv: air is not conserved: the outlet of node zone 6 delivers" \
  thermal "${room_args[@]}" --influence-indices "$tmp/cn_gross.csv"
expect_error 2 "dcsweep: error: $tmp/cn_small.csv: influence indices must be 14 x 14 (12 node zones, then 2 CRACs), not 26 x 26" \
  thermal --platform room --room-rows 2 --room-racks-per-row 3 --room-nodes-per-rack 2 --room-cracs 2 \
  --thermal-model crac_node --influence-indices "$tmp/cn_small.csv"
expect_error 2 "dcsweep: error: influence_indices is for thermal_model crac_node" \
  thermal --platform meng40 --influence-indices "$tmp/cn_small.csv"
# asu50's D (from SimWare) has negative entries: a warning, not an error.
if "$bin" thermal --platform asu50 >"$tmp/asu.json" 2>"$tmp/err" && grep -q "warning: builtin:simware50_D.csv: 484 negative entries" "$tmp/err"; then
  ok
else
  fail "thermal --platform asu50: $(cat "$tmp/err")"
fi

# dcsweep platform: a summary, the nodes (one row each), the room's matrices (D equals what
# `thermal` uses: the inlet rises of a uniform power state recomputed from the written D).
if "$bin" platform meng40 --nodes-out "$tmp/nodes.csv" --matrices-out "$tmp/m40" >"$tmp/plat.txt" 2>"$tmp/err"; then
  grep -q "^platform meng40: 40 nodes" "$tmp/plat.txt" && grep -q "network: 3D mesh 2 x 5 x 4" "$tmp/plat.txt" && ok ||
    fail "platform summary: $(cat "$tmp/plat.txt")"
  [[ $(head -1 "$tmp/nodes.csv") == "node,type,row,rack,slot,x,y,z,zone" && $(wc -l <"$tmp/nodes.csv") -eq 41 ]] && ok ||
    fail "platform --nodes-out: $(head -2 "$tmp/nodes.csv")"
  [[ $(sed -n 8p "$tmp/nodes.csv") == "6,meng_chassis,0,1,2,0,1,2,6" ]] && ok || fail "node 6 row: $(sed -n 8p "$tmp/nodes.csv")"
  "$bin" thermal --platform meng40 --uniform-power-w 1000 >"$tmp/t1000.json"
  /usr/bin/python3 - "$tmp/m40_D.csv" "$tmp/t1000.json" <<'PY' && ok || fail "platform --matrices-out D vs thermal"
import json, sys
import numpy as np
d = np.loadtxt(sys.argv[1], delimiter=",")
t = json.load(open(sys.argv[2]))
assert d.shape == (40, 40)
assert np.allclose(15 + d @ np.full(40, 1000.0), t["t_in_c"], atol=1e-9)
PY
else
  fail "platform meng40: $(cat "$tmp/err")"
fi
"$bin" platform room --room-rows 2 --room-racks-per-row 2 --room-nodes-per-rack 3 --matrices-out "$tmp/r" >/dev/null &&
  [[ $(wc -l <"$tmp/r_A.csv") -eq 12 && $(head -1 "$tmp/r_D.csv" | tr ',' '\n' | wc -l) -eq 12 ]] && ok ||
  fail "platform room --matrices-out"
expect_error 2 "dcsweep: error: platform: unknown option '--room-rowz'" platform room --room-rowz 2
expect_error 2 "dcsweep: error: parameter 'platform': unknown value 'meng41' (did you mean 'meng40'?)" platform meng41
expect_error 2 "dcsweep: error: platform: expected one platform NAME" platform

# Bounded work: a room too large for a dense D names its size and the parameter; validate estimates
# the output volume and prices the room builds.
expect_error 2 "dcsweep: error: platform room (40960 nodes): a D of 40960 x 40960 zones needs 13.4 GB" \
  simulate --platform room --room-rows 40 --room-racks-per-row 32 --room-nodes-per-rack 32 --workload poisson
# The policies count too: banerjee-p4 (thermostat CRAC, sp_eir's LPs, idle chassis off, edf) takes
# 5-7 core-seconds (10-25 before sp_eir's chain and row generation); it was estimated at 0.04.
if (cd "$root" && "$bin" validate inputs/specs/banerjee-p4.toml) >"$tmp/v.txt" 2>"$tmp/err"; then
  awk '/^estimated cost:/ { exit !($3 > 2 && $3 < 20) }' "$tmp/v.txt" && ok ||
    fail "policies not in the cost: $(cat "$tmp/v.txt")"
else
  fail "validate banerjee-p4: $(cat "$tmp/err")"
fi
printf '[sweep]\nseed = 1\n[base]\nplatform = "oxley4320"\nworkload = "poisson"\n[axes]\ngamma = [0.5, 1]\n' >"$tmp/o4320.toml"
if "$bin" validate "$tmp/o4320.toml" >"$tmp/v.txt" 2>"$tmp/err"; then
  # the points' costs leave the room out (each rank builds it once, off the points' clocks)
  build_s=$(sed -n 's/^estimated cost: .* (1 room, \([0-9.]*\) s for one build of each)$/\1/p' "$tmp/v.txt")
  awk -v s="${build_s:-0}" 'BEGIN { exit !(s > 3) }' && ok || fail "room build not in the cost: $(cat "$tmp/v.txt")"
  grep -q "^estimated output: .* result file (uncompressed), .* journal while it runs" "$tmp/v.txt" && ok ||
    fail "no output estimate: $(cat "$tmp/v.txt")"
else
  fail "validate o4320: $(cat "$tmp/err")"
fi
# Physics outside its domain: redline control stops at the 5.5 C supply floor (meng40 at 3000 W
# would need -1.20 C); a bad F file is one error line; a thermostat run whose supply is colder
# than a CRAC delivers warns once; one that would heat the room without bound fails (exit 1).
expect_thermal t_sup_eff_c 5.5 1e-9 --platform meng40 --uniform-power-w 3000 --cooling redline
expect_error 2 "dcsweep: error: $tmp/small.csv: F is 2 x 2; the platform has 40 thermal zones" \
  thermal --platform meng40 --supply-air-fraction "$tmp/small.csv"
printf '%%%%MatrixMarket matrix coordinate real general\n40 40 40\n' >"$tmp/Fhalf.mtx"
for i in $(seq 40); do echo "$i $i 0.5"; done >>"$tmp/Fhalf.mtx"
# [P4]'s diagonal F: half of each inlet's air is supply air; inlets at 15 C supply are 7.5 C + D P
# (meng40 at 1000 W: the hottest 7.5 + 8.73 C), and redline control may supply (25 - 8.73) / 0.5.
expect_thermal t_in_max_c 16.2346 1e-3 --platform meng40 --uniform-power-w 1000 --supply-air-fraction "$tmp/Fhalf.mtx"
expect_thermal t_sup_eff_c 32.5310 1e-3 --platform meng40 --uniform-power-w 1000 --cooling redline \
  --supply-air-fraction "$tmp/Fhalf.mtx"
# A supply above the redline warns once per run (static cooling at 27 C against a 25 C redline);
# with F (half supply air) the inlets stay cooler than the supply, and the warning says no more.
for f_args in "" "--supply-air-fraction $tmp/Fhalf.mtx"; do
  want=": every inlet was above the redline"
  [[ -n $f_args ]] && want=", warmer than any inlet may be"
  # shellcheck disable=SC2086
  if "$bin" simulate --platform meng40 --workload poisson --seed 2 --cooling static --supply-temp-c 27 $f_args \
    >/dev/null 2>"$tmp/err" &&
    [[ $(grep -c "^dcsweep: warning: the CRAC supply reached 27 C, above redline_c = 25 C$want\$" "$tmp/err") -eq 1 ]]; then
    ok
  else
    fail "supply above the redline warning ($f_args): $(cat "$tmp/err")"
  fi
done
sed 's/ 0.5$/ 1.25/' "$tmp/Fhalf.mtx" >"$tmp/Fbig.mtx"
expect_error 2 "dcsweep: error: $tmp/Fbig.mtx: row 1 of F sums to 1.25" \
  simulate --platform meng40 --workload poisson --supply-air-fraction "$tmp/Fbig.mtx"
if "$bin" simulate --platform asu50 --workload poisson --seed 3 --cooling thermostat --json >"$tmp/asu.json" 2>"$tmp/err" &&
  [[ $(grep -c "warning: the CRAC supply was below supply_temp_min_c = 5.5 C" "$tmp/err") -eq 1 ]] &&
  grep -q '"time_supply_below_floor_s": [1-9]' "$tmp/asu.json"; then
  ok
else
  fail "thermostat on asu50: $(cat "$tmp/err")"
fi
"$bin" simulate --platform meng40 --workload poisson --seed 1 --cooling thermostat --crac-high-extract-w 50000 \
  --json >"$tmp/hot.json" 2>"$tmp/err"
code=$?
[[ $code -eq 1 ]] && grep -q '"status": "failed", "error": "thermostat: at t = .*heat without bound' "$tmp/hot.json" &&
  ok || fail "undersized thermostat -> exit $code: $(cat "$tmp/hot.json" "$tmp/err")"

# [P3] model = ratebased (issue 12): bad rate tables are one error line naming the file and line,
# exit 2, before any room is built; nlp on a room above 1,000 cores and a grid mixing models are
# refused too.
rb_case() {  # rb_case NAME FILE SED: a copy of the shipped tables with FILE edited by SED
  mkdir -p "$tmp/rb_$1" && cp "$root"/inputs/ratebased/*.csv "$tmp/rb_$1/" && sed -i "$3" "$tmp/rb_$1/$2"
}
rb_args() {  # rb_args NAME: the simulate options reading that copy
  echo "--model ratebased --platform oxley1080 --ratebased-task-types $tmp/rb_$1/task_types.csv" \
    "--ratebased-pstate-tables $tmp/rb_$1/pstate_tables.csv --ratebased-colocation $tmp/rb_$1/colocation.csv"
}
rb_case neg_rate task_types.csv 's/^cg,heavy,22.0,17.6,/cg,heavy,22.0,-17.6,/'
rb_case nan_reward task_types.csv 's/^canneal,heavy,18.0,13.2,0.82,/canneal,heavy,18.0,13.2,nan,/'
rb_case short_task task_types.csv 's/^ua,heavy,14.0,10.56,0.91,375,/ua,heavy,14.0,10.56,375,/'
rb_case neg_ecs pstate_tables.csv '3s/,0.0081405313,/,-0.0081405313,/'
rb_case short_row pstate_tables.csv '4s/,2.88,1.14,/,2.88,/'
rb_case eight_states pstate_tables.csv '/,xeon_e5649,8,/d'
# shellcheck disable=SC2046
{
  expect_error 2 "dcsweep: error: $tmp/rb_neg_rate/task_types.csv:3: arrival_rate_per_s is -17.6 (must not be negative)" \
    simulate $(rb_args neg_rate)
  expect_error 2 "dcsweep: error: $tmp/rb_nan_reward/task_types.csv:2: reward is nan (must be finite)" \
    simulate $(rb_args nan_reward)
  expect_error 2 "dcsweep: error: $tmp/rb_short_task/task_types.csv:4: expected 9 fields (as the header), found 8" \
    simulate $(rb_args short_task)
  expect_error 2 "dcsweep: error: $tmp/rb_neg_ecs/pstate_tables.csv:3: ecs_per_s is -0.0081405313 (must not be negative)" \
    simulate $(rb_args neg_ecs)
  expect_error 2 "dcsweep: error: $tmp/rb_short_row/pstate_tables.csv:4: expected 7 fields (as the header), found 6" \
    simulate $(rb_args short_row)
  expect_error 2 "dcsweep: error: $tmp/rb_eight_states/pstate_tables.csv:18: node type 'xeon_e5649' has 8 P-states in the tables, 9 on platform oxley1080" \
    simulate $(rb_args eight_states)
}
expect_error 2 "dcsweep: error: ratebased_technique nlp: platform oxley1080 has 7920 cores, more than 1000 (the NLP is for small rooms; use greedy or ga)" \
  simulate --model ratebased --platform oxley1080 --ratebased-technique nlp
expect_error 2 "dcsweep: error: model 'ratebased' needs a platform with a room" simulate --model ratebased
printf '[sweep]\nseed = 1\n[base]\nplatform = "oxley1080"\nratebased_task_types = "%s"\nratebased_pstate_tables = "%s"
ratebased_colocation = "%s"\n[axes]\nredline_c = [28, 30]\n' "$tmp/rb_neg_rate/task_types.csv" \
  "$tmp/rb_neg_rate/pstate_tables.csv" "$tmp/rb_neg_rate/colocation.csv" >"$tmp/rb_bad.toml"
echo 'model = ["ratebased"]' >>"$tmp/rb_bad.toml"
expect_error 2 "dcsweep: error: $tmp/rb_neg_rate/task_types.csv:3: arrival_rate_per_s is -17.6" validate "$tmp/rb_bad.toml"
printf '[sweep]\nseed = 1\n[base]\nplatform = "oxley1080"\n[axes]\nmodel = ["trace", "ratebased"]\n' >"$tmp/rb_mixed.toml"
expect_error 2 "dcsweep: error: $tmp/rb_mixed.toml:6: [axes] model: mixes model = trace and model = ratebased points" \
  validate "$tmp/rb_mixed.toml"
room_args=(--platform room --room-rows 2 --room-racks-per-row 3 --room-nodes-per-rack 2
  --room-node-types xeon_e3_1225v3:1,xeon_e5649:1,xeon_e5_2697v2:1)
if (cd "$root" && "$bin" simulate --model ratebased "${room_args[@]}" --json >"$tmp/rb.json" 2>"$tmp/err") &&
  grep -q '"feasible": 1' "$tmp/rb.json" && grep -q '"reward_rate": [0-9]' "$tmp/rb.json" &&
  (cd "$root" && "$bin" simulate --model ratebased "${room_args[@]}" --facility-power-budget-w 1000 --redline-c 10 --json >"$tmp/rb12.json") &&
  grep -q '"feasible": 0' "$tmp/rb12.json" && grep -q '"reward_rate": null' "$tmp/rb12.json"; then
  ok
else
  fail "simulate --model ratebased on a small room: $(cat "$tmp/rb.json" "$tmp/err")"
fi

# A first_job below the trace's first id (CEA-Curie's start at 272393) selects what 0 selects:
# the run is the same and a note says so, naming record 10500's id.
curie=$traces/CEA-Curie-2011-2.1-cln.swf.gz
if "$bin" simulate --trace "$curie" --first-job 10500 --jobs 20 --json >"$tmp/fj.json" 2>"$tmp/fj.err" &&
  "$bin" simulate --trace "$curie" --jobs 20 --json >"$tmp/fj0.json" 2>"$tmp/fj0.err" && cmp -s "$tmp/fj.json" "$tmp/fj0.json" &&
  grep -qx "dcsweep: note: $curie: first_job 10500 is below the trace's first job id 272393, so the run starts at its first job, as with 0 (first_job is a job id, not a record number; record 10500 has id 311770)" "$tmp/fj.err" &&
  ! grep -q first_job "$tmp/fj0.err" &&
  "$bin" simulate --trace "$curie" --first-job 311770 --jobs 20 --json 2>"$tmp/fj1.err" | grep -q '"status": "ok"' &&
  ! grep -q first_job "$tmp/fj1.err"; then
  ok
else
  fail "simulate --first-job 10500 on CEA-Curie: $(cat "$tmp/fj.err" "$tmp/fj0.err")"
fi

printf '[sweep]\nname = "fj"\n[base]\ntrace = "%s"\njobs = 20\n[axes]\nfirst_job = [0, 10500, 20000, 311770]\n' "$curie" >"$tmp/fj.toml"
if "$bin" validate "$tmp/fj.toml" >"$tmp/fj.txt" 2>"$tmp/err" && [[ $(grep -c '^note: .*first_job' "$tmp/fj.txt") -eq 2 ]] &&
  grep -q "^note: $curie: first_job 10500 is below the trace's first job id 272393" "$tmp/fj.txt" &&
  grep -q "^note: $curie: first_job 20000 is below the trace's first job id 272393, .*record 20000 has id 3" "$tmp/fj.txt"; then
  ok
else
  fail "validate notes first_job below the first id: $(cat "$tmp/fj.txt" "$tmp/err")"
fi

# The benchmarks, where built: bad input is one line naming the tool, exit code 2, nothing on stdout.
if [[ $# -ge 3 ]]; then
  bench=$3
  for tool in bench_decisions bench_engine bench_thermal bench_compare; do
    more=()
    [[ $tool == bench_decisions ]] && more=(--allocator mm)
    bin=$bench/$tool expect_error 2 "$tool: error: $tmp/none.swf: cannot open" "$tmp/none.swf" --platform meng40 "${more[@]}"
    bin=$bench/$tool expect_error 2 "$tool: error: parameter 'platform': unknown value 'nosuch'" "$nasa" --platform nosuch "${more[@]}"
  done
  bin=$bench/bench_decisions expect_error 2 "bench_decisions: error: " "$nasa" --platform meng40 --nodes many --allocator mm
  bin=$bench/bench_decisions expect_error 2 "bench_decisions: error: unknown option '--allocater'" "$nasa" --platform meng40 --allocater mm
  bin=$bench/bench_decisions expect_error 2 "bench_decisions: error: no --allocator" "$nasa" --platform meng40 --jobs 10
  bin=$bench/bench_decisions expect_error 2 "bench_decisions: error: --limit-s needs a value" "$nasa" --allocator mm --limit-s
  bin=$bench/bench_alloc expect_error 2 "bench_alloc: error: " --runs x
  bin=$bench/bare_easy expect_error 2 "bare_easy: error: $tmp/none.swf: cannot open" "$tmp/none.swf" 16 128
  bin=$bench/bare_easy expect_error 2 "usage: bare_easy" "$nasa"
fi

echo "$pass passed, $failures failed"
[[ $failures -eq 0 ]]
