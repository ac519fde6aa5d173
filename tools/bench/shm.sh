#!/usr/bin/env bash
# The shared-memory wire's targets (docs/shm.md#speed), each round measured side by side with udp-baseline and with
# the same command over UDP, ROUNDS times (default 3), two JVMs per pairing. Prints each figure, its ratio and its
# target; exits 0 when every ratio met its target in every round.
#
#   tools/bench/shm.sh [ROUNDS [KEEP_DIR]]
#
# With KEEP_DIR, every round's outputs stay in KEEP_DIR/round-N (one file per command, the client's; the server's as
# NAME.server). Meant for an otherwise idle machine, as tools/bench/latency.sh is.
set -euo pipefail

server_ip=127.0.9.4
client_ip=127.0.9.3
tcp_port=18700
bench=shm.sh
# shellcheck source=tools/bench/pairs.sh
source "$(dirname "${BASH_SOURCE[0]}")/pairs.sh"
bench_start "$@"

# bw_ratio A B: the average bandwidth of run A over run B
bw_ratio() { ratio "$(bw_field "$1" 4)" "$(bw_field "$2" 4)"; }

for round in $(seq "$rounds"); do
  echo "round $round of $rounds"
  "$jrxe" udp-baseline --addr-a "$client_ip" --addr-b "$server_ip" --seconds 2 --pauses >"$out/udp" 2>&1
  rtt=$(udp_rtt_p50)
  gso=$(udp_gso)
  printf '  udp-baseline: 64-byte round trip p50 %s us; GSO bandwidth %s GB/s\n' "$rtt" "$gso"
  sed -n 's/^\(memory copy\|ICRC\|machine pauses\)/  \1/p' "$out/udp"

  pair wbw write-bw --wire shm -s 65536 --if-mtu 4200 -D 6
  pair wbw-udp write-bw -s 65536 --if-mtu 4200 -D 6
  # MiB/s over GB/s: 1 MiB/s = 1.048576e-3 GB/s
  check "write-bw -s 65536 --if-mtu 4200 -D 6, shm: BW / UDP GSO" \
    "$(awk -v m="$(bw_field wbw 4)" -v g="$gso" 'BEGIN {printf "%.3f", m * 1.048576e-3 / g}')" ">=" 2.0
  info "the same, shm / jrxe over UDP" "$(bw_ratio wbw wbw-udp)"
  pair pp64 pingpong --wire shm -s 64 -n 10000
  check "pingpong -s 64 -n 10000, shm: us/iter / UDP p50" "$(ratio "$(usec_per_iter pp64)" "$rtt")" "<=" 0.5
  pair sbw send-bw --wire shm -s 64 -D 6
  pair sbw-udp send-bw -s 64 -D 6
  check "send-bw -s 64 -D 6: shm / UDP" "$(bw_ratio sbw sbw-udp)" ">=" 2.0
  pair wl write-lat --wire shm -s 2 -n 20000
  check "write-lat -s 2 -n 20000, shm: p99 / typical" "$(ratio "$(lat_field wl 8)" "$(lat_field wl 5)")" "<=" 3
  info "write-lat -s 2 -n 20000, shm: typical us" "$(lat_field wl 5)"
  # A sample is half a round trip between two spinning threads: above 1%, the machine's own pauses are its p99.
  info "write-lat round trips a machine pause >10 us meets, %" "$(pause_share_pct "$(pauses_over 10)" "$(awk -v t="$(lat_field wl 5)" 'BEGIN {print 2 * t}')")"
  if [ -n "$keep" ]; then
    mkdir -p "$keep/round-$round"
    cp "$out"/* "$keep/round-$round/"
  fi
done
bench_end
