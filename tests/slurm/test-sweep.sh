#!/usr/bin/env bash
# A sweep on a real one-node Slurm cluster (cluster.sh), against the same
# sweep run locally:
#   1. 20 points, one per array task, submitted by `sweep --slurm --submit`
#      to a cluster whose MaxArraySize is 8 (so three arrays);
#      `collect --watch` waits for them and must print and write exactly
#      what the local sweep does.
#   2. The same sweep in chunks of 2, submitted held by hand; one array task
#      is cancelled before it runs (its points are missing) and one point's
#      result cannot be written (it fails). `collect` must name both and exit
#      1; `collect --only-missing --submit` re-runs them; then the output is
#      the local sweep's again.
#   3. `reproduce --quick --slurm --submit` of two experiments collects to
#      the local reproduce's tables and JSON, and its exit status.
# Exit 77 (ctest's SKIP_RETURN_CODE) when slurm-wlm or munge cannot run here.
#
#   test-sweep.sh CLI SCENARIO PARAM REPEAT
set -uo pipefail
# CI may run us with stdin closed: a daemon started so would take fd 0 for
# a socket of its own and lose it to the jobs it starts.
exec </dev/null
cli="$1" scenario="$2" param="$3" repeat="$4"
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/cluster.sh"

T="$(mktemp -d "${TMPDIR:-/tmp}/schedscope-slurm.XXXXXX")"
cleanup() {
  slurm_cluster_stop
  rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
started=$SECONDS

fail() {
  echo "FAIL: $*" >&2
  for f in "$T"/*.err "$T"/*.out; do
    [ -f "$f" ] && { echo "---- $f" >&2; cat "$f" >&2; }
  done
  slurm_cluster_dump_logs
  exit 1
}
step() { echo "[$((SECONDS - started)) s] $*"; }

sweep_args=(--scenario "$scenario" --param "$param" --repeat "$repeat")

step "local sweep"
"$cli" sweep "${sweep_args[@]}" --jobs 2 --json "$T/local.json" >"$T/local.txt" 2>"$T/local.err" ||
  fail "the local sweep failed"

step "starting the cluster"
slurm_cluster_start "$T/cluster" 8
rc=$?
if [ $rc -eq 77 ]; then
  echo "SKIP: no Slurm cluster can run here (slurm-wlm and munge; scripts/deps.sh installs them)"
  exit 77
fi
[ $rc -eq 0 ] || fail "the test cluster did not start"
slurm_cluster_watchdog

# --- 1: submit, watch, collect ------------------------------------------
step "sweep --slurm --submit (20 points, MaxArraySize 8)"
"$cli" sweep "${sweep_args[@]}" --slurm "$T/a" --submit --sbatch=--time=10 >"$T/a-sweep.out" 2>"$T/a-sweep.err" ||
  fail "sweep --slurm --submit failed"
[ "$(grep -c '^submitted ' "$T/a-sweep.out")" = 3 ] || fail "expected 3 arrays of at most 8 tasks"
grep -q '^#SBATCH --array=0-7$' "$T/a/sweep-1.sbatch" || fail "sweep-1.sbatch is not an array of 8"
grep -q '^#SBATCH --array=0-3$' "$T/a/sweep-3.sbatch" || fail "sweep-3.sbatch is not an array of 4"
grep -q '^#SBATCH --time=10$' "$T/a/sweep-2.sbatch" || fail "sweep-2.sbatch lacks the --sbatch option"
step "collect --watch"
timeout 240 "$cli" collect "$T/a" --watch --interval 0.5 --json "$T/a.json" >"$T/a.txt" 2>"$T/a-collect.err" ||
  fail "collect --watch failed"
grep -q 'points done' "$T/a-collect.err" || fail "collect --watch showed no progress"
grep -q '^collect: 20/20 points done, 0 failed, 0 pending, 0 running, 0 missing$' "$T/a-collect.err" ||
  fail "collect --watch did not end with every point done"
cmp "$T/local.txt" "$T/a.txt" || fail "the collected table differs from the local sweep's"
cmp "$T/local.json" "$T/a.json" || fail "the collected JSON differs from the local sweep's"

# --- 2: a cancelled task and a failed point, re-run ----------------------
step "sweep --slurm --chunk 2, submitted held"
"$cli" sweep "${sweep_args[@]}" --slurm "$T/b" --chunk 2 >"$T/b-sweep.out" 2>"$T/b-sweep.err" ||
  fail "sweep --slurm --chunk 2 failed"
[ -f "$T/b/sweep-1.sbatch" ] && [ -f "$T/b/sweep-2.sbatch" ] || fail "expected two scripts (10 tasks, 8 per array)"
# Point 7's result cannot be written there: its run fails and says why.
mkdir "$T/b/points/7.json"
jobs=()
for s in "$T"/b/sweep-1.sbatch "$T"/b/sweep-2.sbatch; do
  jobs+=("$(sbatch --parsable --hold "$s")") || fail "sbatch --hold $s"
done
# Task 2 of the first array (points 4 and 5) never runs.
scancel "${jobs[0]}_2" || fail "scancel ${jobs[0]}_2"
scontrol release "${jobs[@]}" || fail "scontrol release"
step "collect --watch (expecting points 4, 5 missing and 7 failed)"
timeout 240 "$cli" collect "$T/b" --watch --interval 0.5 >"$T/b1.txt" 2>"$T/b1.err"
rc=$?
[ $rc -eq 1 ] || fail "collect of an incomplete sweep exited $rc, not 1"
[ ! -s "$T/b1.txt" ] || fail "collect printed a table with points missing"
grep -q '^collect: 17/20 points done, 1 failed, 0 pending, 0 running, 2 missing$' "$T/b1.err" ||
  fail "collect --watch did not end with 17 done, 1 failed and 2 missing"
grep -q '^  point 4 (.*): missing: no result' "$T/b1.err" || fail "point 4 is not listed as missing"
grep -q '^  point 5 (.*): missing: no result' "$T/b1.err" || fail "point 5 is not listed as missing"
grep -q "^  point 7 (.*): failed: .*points/7.json" "$T/b1.err" || fail "point 7 is not listed as failed"
[ "$(grep -c '^  point ' "$T/b1.err")" = 3 ] || fail "expected exactly 3 points not done"
rmdir "$T/b/points/7.json"
step "collect --only-missing --submit"
"$cli" collect "$T/b" --only-missing --submit >"$T/b-rerun.out" 2>"$T/b-rerun.err" || fail "collect --only-missing --submit failed"
grep -q '^#SBATCH --array=0-1$' "$T/b/rerun-1.sbatch" || fail "rerun-1.sbatch is not 2 tasks (4-5 and 7)"
grep -q '^TASKS=(4-5 7)$' "$T/b/rerun-1.sbatch" || fail "rerun-1.sbatch does not run points 4-5 and 7"
step "collect --watch"
timeout 240 "$cli" collect "$T/b" --watch --interval 0.5 --json "$T/b.json" >"$T/b.txt" 2>"$T/b2.err" ||
  fail "collect after the re-run failed"
cmp "$T/local.txt" "$T/b.txt" || fail "the re-run sweep's table differs from the local sweep's"
cmp "$T/local.json" "$T/b.json" || fail "the re-run sweep's JSON differs from the local sweep's"
# --- 3: reproduce on the cluster -----------------------------------------
experiments=(migration-matrix-p3 migration-matrix-itanium)
step "reproduce --quick --slurm --submit (${#experiments[@]} experiments)"
"$cli" reproduce --quick "${experiments[@]}" --jobs 2 --json "$T/rlocal.json" >"$T/rlocal.txt" 2>"$T/rlocal.err"
rlocal=$?
[ $rlocal -le 1 ] || fail "the local reproduce failed"
"$cli" reproduce --quick "${experiments[@]}" --slurm "$T/r" --submit >"$T/r-submit.out" 2>"$T/r-submit.err" ||
  fail "reproduce --slurm --submit failed"
timeout 240 "$cli" collect "$T/r" --watch --interval 0.5 --json "$T/r.json" >"$T/r.txt" 2>"$T/r-collect.err"
rc=$?
[ $rc -eq $rlocal ] || fail "collect of reproduce exited $rc, the local reproduce $rlocal"
cmp "$T/rlocal.txt" "$T/r.txt" || fail "the collected reproduce tables differ from the local run's"
cmp "$T/rlocal.json" "$T/r.json" || fail "the collected reproduce JSON differs from the local run's"
step "done"
