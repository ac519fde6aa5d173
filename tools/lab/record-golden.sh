#!/usr/bin/env bash
# Records a set of golden captures (as testdata/rxe and testdata/rxe-cm hold) between two
# kernel rxe devices: boots a lab of the release named with two guests on one bridge, runs each
# rdma-core or perftest program with its server on guest 2 (10.77.0.3, fd77::3) and its client
# on guest 1 (10.77.0.2, fd77::2), and keeps what tcpdump on the bridge saw of UDP port 4791:
# classic pcap, Ethernet, microsecond timestamps, both directions. Needs root, the lab's
# prerequisites and tcpdump; honours JRXE_LAB_NETNS and JRXE_LAB_RUN like lab.sh.
#
# Usage: record-golden.sh [--release R] OUT_DIR [NAME...]
#   writes OUT_DIR/*.pcap (the data path) and OUT_DIR/cm/*.pcap with a .txt of what both
#   programs printed (RDMA CM), then prints each file's BTH opcode counts. A run with a
#   retransmission or a dropped packet is made again (see record). With NAMEs (guest_pingpong,
#   cm_rping_v4, ...), only those are recorded. Needs tshark too.
set -euo pipefail

lab_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
lab="$lab_dir/lab.sh"
netns=${JRXE_LAB_NETNS:-jrxe-lab}
release=bookworm
server4=10.77.0.3

die() { echo "record-golden: $*" >&2; exit 2; }
say() { echo "record-golden: $*" >&2; }
bad_option() { echo "record-golden: $* (usage: record-golden.sh [--release bookworm|trixie] OUT_DIR)" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --release) [ $# -ge 2 ] || bad_option "--release needs a value"; release=$2; shift 2 ;;
    -*) bad_option "no option '$1'" ;;
    *) break ;;
  esac
done
[ $# -ge 1 ] || bad_option "OUT_DIR is missing"
out=$(mkdir -p "$1" && cd "$1" && pwd) || die "cannot create $1"
shift
only=" $* "
wanted() { [ "$only" = "  " ] || [[ $only == *" $1 "* ]]; }
command -v tcpdump >/dev/null || die "tcpdump is missing (Debian package tcpdump)"
command -v tshark >/dev/null || die "tshark is missing (Debian package tshark): it checks each capture for retransmissions"

tmp=$(mktemp -d)
started_here=""
tcpdump_pid=""
cleanup() {
  [ -n "$tcpdump_pid" ] && kill "$tcpdump_pid" 2>/dev/null
  [ -n "$started_here" ] && "$lab" down >/dev/null 2>&1
  rm -rf "$tmp"
}
trap cleanup EXIT

if ! "$lab" status >/dev/null 2>&1; then
  started_here=yes
fi
"$lab" up --release "$release" --guests 2 --boot-timeout 600 --lifetime 2h >&2

# Polls CMD in guest 2 until it prints something, at most 60 s: the server is ready.
await_guest2() {
  local deadline=$((SECONDS + 60))
  until [ -n "$("$lab" run --guest 2 --timeout 10 "$1" 2>/dev/null)" ]; do
    [ $SECONDS -lt $deadline ] || die "guest 2 was not ready within 60 s ($1)"
    kill -0 "$2" 2>/dev/null || die "the server on guest 2 ended before it was ready: $(cat "$3")"
    sleep 0.2
  done
}

start_tcpdump() { # $1: the capture file
  ip netns exec "$netns" tcpdump -i jrxe-br0 --immediate-mode -B 16384 -U -n -s 0 -w "$1" 'udp port 4791' 2>"$tmp/tcpdump.log" &
  tcpdump_pid=$!
  local deadline=$((SECONDS + 30))
  until grep -q "listening on" "$tmp/tcpdump.log" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] && kill -0 "$tcpdump_pid" 2>/dev/null || die "tcpdump did not start: $(cat "$tmp/tcpdump.log")"
    sleep 0.1
  done
}

stop_tcpdump() {
  kill -INT "$tcpdump_pid"
  wait "$tcpdump_pid" || true
  tcpdump_pid=""
}

# One run of SERVER on guest 2 and CLIENT on guest 1 into FILE, once READY (a command in guest 2)
# prints something; with REFUSED set, the client must fail.
run_once() {
  local name=$1 ready=$2 server=$3 client=$4 refused=$5 file=$6
  start_tcpdump "$file"
  local server_pid=""
  if [ -n "$server" ]; then
    "$lab" run --guest 2 --timeout 90 "$server" >"$tmp/$name.server" 2>&1 &
    server_pid=$!
    await_guest2 "$ready" "$server_pid" "$tmp/$name.server"
  fi
  local status=0
  "$lab" run --guest 1 --timeout 90 "$client" >"$tmp/$name.client" 2>&1 || status=$?
  if [ -n "$server_pid" ]; then
    wait "$server_pid" || die "$name: the server failed: $(cat "$tmp/$name.server")"
  fi
  if [ -n "$refused" ]; then
    [ "$status" -ne 0 ] || die "$name: the client should have been refused: $(cat "$tmp/$name.client")"
  else
    [ "$status" -eq 0 ] || die "$name: the client exited $status: $(cat "$tmp/$name.client")"
  fi
  stop_tcpdump
}

# How many packets of FILE repeat an earlier one of their sender (BTH opcode and PSN): the
# retransmissions, and the ACKs they drew; -1 when tcpdump dropped packets. Under TCG on a busy
# host a guest can be slower than rxe's retransmission timer (see testdata/rxe-trixie/README.md).
repeats() {
  grep -q "^0 packets dropped by kernel" "$tmp/tcpdump.log" || { echo -1; return; }
  tshark -r "$1" -T fields -E separator=/ -e ip.src -e ipv6.src -e infiniband.bth.opcode -e infiniband.bth.psn 2>/dev/null \
    | sort | uniq -c | awk '$1 > 1 { n += $1 - 1 } END { print n + 0 }'
}

# record NAME READY SERVER CLIENT [refused]: a clean capture of NAME (no packet repeated, none
# dropped) in at most 20 runs; failing that, the run with the fewest repeated packets, named at
# the end; with no run without drops, NAME is a failure (and the others are still recorded).
failed=()
kept_with_repeats=()
record() {
  local name=$1 file="$out/$1.pcap" attempt n best=-1
  wanted "$name" || return 0
  say "$name: $3 / $4"
  for attempt in $(seq 20); do
    run_once "$1" "$2" "$3" "$4" "${5:-}" "$tmp/run.pcap"
    n=$(repeats "$tmp/run.pcap")
    if [ "$n" -eq 0 ]; then
      mv "$tmp/run.pcap" "$file"
      say "$name: $(tcpdump -r "$file" 2>/dev/null | wc -l) packets (run $attempt)"
      return
    fi
    say "$name: run $attempt has $([ "$n" -lt 0 ] && echo "dropped packets" || echo "$n repeated packets"), again"
    if [ "$n" -gt 0 ] && { [ "$best" -lt 0 ] || [ "$n" -lt "$best" ]; }; then
      best=$n
      mv "$tmp/run.pcap" "$tmp/best.pcap"
    fi
  done
  if [ "$best" -lt 0 ]; then
    say "$name: tcpdump dropped packets in every one of 20 runs"
    failed+=("$name")
    return
  fi
  mv "$tmp/best.pcap" "$file"
  say "$name: no clean run in 20; kept the one with $best repeated packets"
  kept_with_repeats+=("$name ($best)")
}

# What both programs printed, the server's first (as testdata/rxe-cm's .txt files hold).
keep_output() {
  wanted "$1" || return 0
  { echo "# server (guest 2, $server4): $2"; cat "$tmp/$1.server" 2>/dev/null || true
    echo "# client (guest 1, 10.77.0.2): $3"; cat "$tmp/$1.client"; } >"$out/$1.txt"
}

tcp_listen() { echo "ss -Hltn 'sport = :$1'"; }
cm_listen="rdma resource show cm_id | grep LISTEN"

record guest_pingpong "$(tcp_listen 18515)" "ibv_rc_pingpong -d rxe0 -g 1 -n 10" "ibv_rc_pingpong -d rxe0 -g 1 -n 10 $server4"
record guest_ud_pingpong "$(tcp_listen 18515)" "ibv_ud_pingpong -d rxe0 -g 1 -n 5 -s 512" "ibv_ud_pingpong -d rxe0 -g 1 -n 5 -s 512 $server4"
record guest_write_bw "$(tcp_listen 18515)" "ib_write_bw -d rxe0 -x 1 -F -n 20 -s 8192" "ib_write_bw -d rxe0 -x 1 -F -n 20 -s 8192 $server4"
record guest_read_bw "$(tcp_listen 18515)" "ib_read_bw -d rxe0 -x 1 -F -n 20" "ib_read_bw -d rxe0 -x 1 -F -n 20 $server4"
record guest_atomic_fadd "$(tcp_listen 18515)" "ib_atomic_bw -d rxe0 -x 1 -F -n 20 -A FETCH_AND_ADD" \
  "ib_atomic_bw -d rxe0 -x 1 -F -n 20 -A FETCH_AND_ADD $server4"
# -e: both sides wait for completions instead of polling for them, which sends the same packets but
# leaves the guests' CPUs to rxe; on a busy host two polling guests are slower than rxe's retry timer
# (67 ms for ibv_rc_pingpong).
record v6_pingpong "$(tcp_listen 18515)" "ibv_rc_pingpong -d rxe0 -g 2 -n 10 -e" "ibv_rc_pingpong -d rxe0 -g 2 -n 10 -e $server4"
record v6_write_bw "$(tcp_listen 18515)" "ib_write_bw -d rxe0 -x 2 -F -n 20 -s 8192" "ib_write_bw -d rxe0 -x 2 -F -n 20 -s 8192 $server4"

# Path MTU 4096: eth0 of both guests, their taps and the bridge at 4200; rxe0 follows eth0.
set_mtu() {
  ip netns exec "$netns" ip link set jrxe-br0 mtu "$1"
  ip netns exec "$netns" ip link set jrxe-tap0 mtu "$1"
  ip netns exec "$netns" ip link set jrxe-tap1 mtu "$1"
  local g
  for g in 1 2; do
    "$lab" run --guest "$g" --timeout 30 "ip link set eth0 mtu $1
      for i in \$(seq 100); do ibv_devinfo -d rxe0 | grep -q 'active_mtu:.*$2' && exit 0; sleep 0.1; done
      echo rxe0 did not reach MTU $2; exit 1" >&2 || die "guest $g: rxe0 did not take MTU $2"
  done
}
if wanted mtu4k_write_bw; then
  set_mtu 4200 4096
  record mtu4k_write_bw "$(tcp_listen 18515)" "ib_write_bw -d rxe0 -x 1 -F -s 65536 -n 10" "ib_write_bw -d rxe0 -x 1 -F -s 65536 -n 10 $server4"
  set_mtu 1500 1024
fi

mkdir -p "$out/cm"
out_data=$out
out="$out_data/cm"
s="rping -s -a $server4 -C 3 -v"; c="rping -c -a $server4 -C 3 -v"
record cm_rping_v4 "$cm_listen" "$s" "$c"; keep_output cm_rping_v4 "$s" "$c"
s="ucmatose -b $server4 -c 2 -C 4"; c="ucmatose -s $server4 -c 2 -C 4"
record cm_ucmatose "$cm_listen" "$s" "$c"; keep_output cm_ucmatose "$s" "$c"
c="rping -c -a $server4 -p 7999 -C 1 -v"
rm -f "$tmp/cm_refused.server"
record cm_refused "" "" "$c" refused; keep_output cm_refused "nobody listening on port 7999" "$c"
out=$out_data

for f in "$out"/*.pcap "$out"/cm/*.pcap; do
  [ -f "$f" ] || continue
  echo "${f#"$out"/}: $(tshark -r "$f" -T fields -e infiniband.bth.opcode 2>/dev/null | sort -n | uniq -c | awk '{ printf "%s:%s ", $2, $1 }')"
done
[ ${#kept_with_repeats[@]} -eq 0 ] || say "kept with repeated packets: ${kept_with_repeats[*]}"
[ ${#failed[@]} -eq 0 ] || die "no clean capture of ${failed[*]}: record-golden.sh --release $release $out ${failed[*]} tries again"
say "done: $out"
