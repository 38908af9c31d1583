#!/usr/bin/env bash
# End-to-end checks of the dcsweep binary: exit codes, one-line errors, and the --jobs-out file
# of a whole shipped trace (each job once, no start before submit, rows + rejected = records).
# usage: test_cli.sh DCSWEEP_BINARY PROJECT_DIR
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
  [[ $(head -1 "$tmp/jobs.csv") == "id,submit_s,start_s,end_s,nodes,requested_s,runtime_s" ]] && ok || fail "jobs-out header"
  [[ $((rows + rejected)) -eq $records ]] && ok || fail "rows $rows + rejected $rejected != records $records"
  dup=$(tail -n +2 "$tmp/jobs.csv" | cut -d, -f1 | sort | uniq -d | head -1)
  [[ -z $dup ]] && ok || fail "job $dup listed twice"
  early=$(awk -F, 'NR > 1 && $3 < $2 {print $1; exit}' "$tmp/jobs.csv")
  [[ -z $early ]] && ok || fail "job $early starts before its submit time"
else
  fail "simulate on $trace: $(cat "$tmp/err")"
fi

echo "$pass passed, $failures failed"
[[ $failures -eq 0 ]]
