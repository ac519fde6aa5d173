#!/usr/bin/env bash
# A long run of mixed traffic with faults and churn between jrxe NICs on loopback (docs/reliability.md#a-long-run).
# Round after round until MINUTES have passed (at least one round):
#   - udp-soak between two processes, each NIC with its own seeded --faults (loss, duplication, reordering,
#     corruption and a targeted rule), RDMA WRITE, READ, SEND and atomics both ways, every byte and completion checked;
#   - qp-churn: QPs created, connected, used and destroyed in one process, its heap, threads and files watched;
#   - cm-churn: connections made and ended through the connection manager between two processes, both watched.
# Prints one line per round and the totals; exits 0 when no operation failed, no byte was wrong, no completion was
# lost or came twice, every churn cycle completed and no process grew.
#
#   tools/bench/long-run.sh [--minutes M] [--ops N] [--qp-cycles N] [--cm-cycles N] [--keep DIR]
#
# Defaults: 60 minutes, 4,000 operations a side, 5,000 QP cycles and 1,000 connections a round. JRXE names the
# command to run (default: this repository's ./jrxe); with --keep, each round's outputs stay in DIR/round-N.
set -euo pipefail

minutes=60
ops=4000
qp_cycles=5000
cm_cycles=1000
keep=
usage() {
  echo "usage: $0 [--minutes M] [--ops N] [--qp-cycles N] [--cm-cycles N] [--keep DIR] (whole numbers; M may be 0: one round)" >&2
  exit 1
}
number() { case "${1:-}" in ''|*[!0-9]*) usage ;; esac; }
while [ $# -gt 0 ]; do
  case "$1" in
    --minutes) number "${2:-}"; minutes=$2; shift 2 ;;
    --ops) number "${2:-}"; ops=$2; shift 2 ;;
    --qp-cycles) number "${2:-}"; qp_cycles=$2; shift 2 ;;
    --cm-cycles) number "${2:-}"; cm_cycles=$2; shift 2 ;;
    --keep) [ -n "${2:-}" ] || usage; keep=$2; shift 2 ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) usage ;;
  esac
done
for n in "$ops" "$qp_cycles" "$cm_cycles"; do [ "$n" -gt 0 ] || usage; done
if [ -n "$keep" ] && ! mkdir -p "$keep" 2>/dev/null; then
  echo "long-run.sh: cannot create the directory $keep" >&2
  exit 1
fi
base_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck disable=SC2206 # JRXE may be a command with its options
jrxe=(${JRXE:-$base_dir/jrxe})
out=$(mktemp -d)
trap 'rm -rf "$out"; kill $(jobs -p) 2>/dev/null || true' EXIT
if [ -z "${JRXE:-}" ]; then
  "${jrxe[@]}" --version >/dev/null # builds the jar first when it is stale, before any pair starts
fi

# Addresses and ports of this script's own, apart from the tests' and the tools' defaults.
soak_a=127.0.11.1 soak_b=127.0.11.2 soak_port=18671
churn_a=127.0.11.3 churn_b=127.0.11.4
cm_server=127.0.11.5 cm_port=7491

field() { sed -n "s/\(^\|.* \)$1=\([^ ]*\).*/\2/p" "$2" | tail -1; }

start=$(date +%s)
deadline=$((start + minutes * 60))
round=0
total_ops=0 total_ok=0 total_failed=0 total_mismatches=0 total_lost=0 total_duplicated=0 total_retransmits=0 total_faults=0
total_qp=0 total_cm=0 bad_rounds=0
while :; do
  round=$((round + 1))
  dir=$out/round-$round
  mkdir -p "$dir"
  seed=$((round * 2))
  # Both NICs' faults act on both directions of their own packets; the second side adds a targeted rule.
  faults_a="loss=0.01,dup=0.005,reorder=0.01:300us,corrupt=0.002,seed=$seed"
  faults_b="loss=0.01,corrupt=0.002,seed=$((seed + 1));drop,nth=3,count=20"
  "${jrxe[@]}" udp-soak --addr "$soak_a" -p "$soak_port" --ops "$ops" --seed "$seed" --faults "$faults_a" \
    >"$dir/soak.server" 2>"$dir/soak.server.err" &
  server=$!
  soak_status=0
  "${jrxe[@]}" udp-soak --addr "$soak_b" -p "$soak_port" --ops "$ops" --seed "$((seed + 1))" --faults "$faults_b" \
    "$soak_a" >"$dir/soak.client" 2>"$dir/soak.client.err" || soak_status=$?
  wait "$server" || soak_status=$?

  qp_status=0
  # A minute per cycle at most: a cold JVM's first cycles on a machine this run keeps busy take seconds.
  "${jrxe[@]}" qp-churn --cycles "$qp_cycles" --addr-a "$churn_a" --addr-b "$churn_b" --timeout 60 >"$dir/qp-churn" 2>&1 \
    || qp_status=$?

  "${jrxe[@]}" cm-churn -b "$cm_server" -p "$cm_port" --cycles "$cm_cycles" --timeout 60 >"$dir/cm-churn.server" 2>&1 &
  server=$!
  for _ in $(seq 1 600); do
    grep -q "listening" "$dir/cm-churn.server" 2>/dev/null && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.1
  done
  cm_status=0
  "${jrxe[@]}" cm-churn -s "$cm_server" -p "$cm_port" --cycles "$cm_cycles" --timeout 60 >"$dir/cm-churn.client" 2>&1 \
    || cm_status=$?
  wait "$server" || cm_status=$?

  r_ok=0 r_failed=0 r_mismatches=0 r_lost=0 r_duplicated=0 r_retransmits=0 r_faults=0 r_ops=0
  for side in server client; do
    f=$dir/soak.$side
    if [ -s "$f" ] && grep -q "^ops=" "$f"; then
      r_ops=$((r_ops + $(field ops "$f")))
      r_ok=$((r_ok + $(field ok "$f")))
      r_failed=$((r_failed + $(field failed "$f")))
      r_mismatches=$((r_mismatches + $(field mismatches "$f")))
      r_lost=$((r_lost + $(field lost_completions "$f")))
      r_duplicated=$((r_duplicated + $(field duplicated_completions "$f")))
      r_retransmits=$((r_retransmits + $(field retransmits "$f")))
      r_faults=$((r_faults + $(field faults "$f")))
    else
      [ "$soak_status" -ne 0 ] || soak_status=1
    fi
  done
  verdict=good
  if [ "$soak_status" -ne 0 ] || [ "$qp_status" -ne 0 ] || [ "$cm_status" -ne 0 ]; then
    verdict=BAD
    bad_rounds=$((bad_rounds + 1))
  fi
  qp_last=$(tail -1 "$dir/qp-churn")
  cm_last=$(tail -1 "$dir/cm-churn.client")
  echo "round $round: soak ops=$r_ops ok=$r_ok failed=$r_failed mismatches=$r_mismatches lost=$r_lost" \
    "duplicated=$r_duplicated retransmits=$r_retransmits faults=$r_faults (exit $soak_status);" \
    "qp-churn $qp_cycles cycles (exit $qp_status: $qp_last);" \
    "cm-churn $cm_cycles connections (exit $cm_status: $cm_last): $verdict"
  total_ops=$((total_ops + r_ops)) total_ok=$((total_ok + r_ok)) total_failed=$((total_failed + r_failed))
  total_mismatches=$((total_mismatches + r_mismatches)) total_lost=$((total_lost + r_lost))
  total_duplicated=$((total_duplicated + r_duplicated)) total_retransmits=$((total_retransmits + r_retransmits))
  total_faults=$((total_faults + r_faults))
  [ "$qp_status" -ne 0 ] || total_qp=$((total_qp + qp_cycles))
  [ "$cm_status" -ne 0 ] || total_cm=$((total_cm + cm_cycles))
  if [ -n "$keep" ]; then
    cp -r "$dir" "$keep/"
  fi
  [ "$(date +%s)" -lt "$deadline" ] || break
done
echo "long run: $round rounds in $(( ($(date +%s) - start + 30) / 60 )) minutes; soak ops=$total_ops ok=$total_ok" \
  "failed=$total_failed mismatches=$total_mismatches lost=$total_lost duplicated=$total_duplicated" \
  "retransmits=$total_retransmits faults=$total_faults; qp-churn cycles=$total_qp; cm-churn connections=$total_cm;" \
  "bad rounds=$bad_rounds"
[ "$bad_rounds" -eq 0 ]
