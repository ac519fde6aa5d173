#!/usr/bin/env bash
# jrxe's latency and bandwidth targets (docs/benchmarks.md), measured side by side with udp-baseline, ROUNDS times
# (default 3), two JVMs on loopback per pairing. Prints each figure, its ratio and its target;
# exits 0 when every ratio met its target in every round. The pingpong rows also show, without a
# target, how far jrxe is from its floor: the same datagrams exchanged by two threads that
# busy-poll bare sockets (udp-baseline --exchange-floor), so the rest is jrxe's own work. Each round
# also shows the machine's own tail: the floor's p99 and p99.9 over its p50, and how often a
# spinning thread is paused with no socket at all (udp-baseline --pauses).
#
#   tools/bench/latency.sh [ROUNDS [KEEP_DIR]]
#
# With KEEP_DIR, every round's outputs stay in KEEP_DIR/round-N (one file per command, the client's; the
# server's as NAME.server), and the 20,000-message latency runs also list each message's time in order (-U):
# where a tail came from (a slow start, a burst, single stalls) shows there.
#
# Meant for an otherwise idle machine: other busy processes take the cores the four
# threads of a pairing need, and their time slices become the tails being measured.
set -euo pipefail

server_ip=127.0.9.2
client_ip=127.0.9.1
tcp_port=18600
bench=latency.sh
# shellcheck source=tools/bench/pairs.sh
source "$(dirname "${BASH_SOURCE[0]}")/pairs.sh"
bench_start "$@"

for round in $(seq "$rounds"); do
  echo "round $round of $rounds"
  "$jrxe" udp-baseline --addr-a "$client_ip" --addr-b "$server_ip" --seconds 2 --exchange-floor --pauses --no-copy-crc >"$out/udp" 2>&1
  rtt=$(udp_rtt_p50)
  gso=$(udp_gso)
  floor64=$(floor_p50 64)
  floor4k=$(floor_p50 4096)
  printf '  udp-baseline: 64-byte round trip p50 %s us; GSO bandwidth %s GB/s\n' "$rtt" "$gso"
  printf '  floor (the datagrams of a pingpong, busy-polled by bare sockets): p50 %s us (64 B), %s us (4096 B)\n' \
    "$floor64" "$floor4k"
  # The machine's own tail, against the latency tools' tail targets: bare sockets exchanging a write-lat's
  # datagrams, and how often a spinning thread is stopped with no socket at all.
  info "floor 64 B (bare sockets): p99 / p50 (tail target 3)" "$(ratio "$(floor_at 64 p99)" "$floor64")"
  info "floor 64 B (bare sockets): p99.9 / p50 (tail target 10)" "$(ratio "$(floor_at 64 p99.9)" "$floor64")"
  sed -n 's/^machine pauses/  machine pauses/p' "$out/udp"

  pair pp pingpong
  check "pingpong (4096 B, 1000 iters): us/iter / UDP p50" "$(ratio "$(usec_per_iter pp)" "$rtt")" "<=" 4
  info "pingpong (4096 B, 1000 iters): us/iter / floor" "$(ratio "$(usec_per_iter pp)" "$floor4k")"
  pair pp64 pingpong -s 64 -n 10000
  check "pingpong -s 64 -n 10000: us/iter / UDP p50" "$(ratio "$(usec_per_iter pp64)" "$rtt")" "<=" 2
  info "pingpong -s 64 -n 10000: us/iter / floor" "$(ratio "$(usec_per_iter pp64)" "$floor64")"
  pair ppe pingpong -e
  check "pingpong -e: us/iter / UDP p50" "$(ratio "$(usec_per_iter ppe)" "$rtt")" "<=" 3
  info "pingpong -e: us/iter / floor" "$(ratio "$(usec_per_iter ppe)" "$floor4k")"
  pair ud ud-pingpong
  check "ud-pingpong: us/iter / UDP p50" "$(ratio "$(usec_per_iter ud)" "$rtt")" "<=" 3

  [ -n "$keep" ] && client_extra=(-U)
  for t in write-lat send-lat read-lat; do
    pair "$t" "$t" -s 2 -n 20000
    typ=$(lat_field "$t" 5)
    check "$t -s 2 -n 20000: p99 / typical" "$(ratio "$(lat_field "$t" 8)" "$typ")" "<=" 3
    check "$t -s 2 -n 20000: p99.9 / typical" "$(ratio "$(lat_field "$t" 9)" "$typ")" "<=" 10
    check "$t -s 2 -n 20000: average / typical" "$(ratio "$(lat_field "$t" 6)" "$typ")" "<=" 1.3
  done
  client_extra=()
  check "write-lat typical / half the UDP p50" "$(ratio "$(lat_field write-lat 5)" "$(ratio "$rtt" 2)")" "<=" 1.3
  pair wl1000 write-lat -s 2
  check "write-lat -s 2 (1000 iters): average / typical" "$(ratio "$(lat_field wl1000 6)" "$(lat_field wl1000 5)")" "<=" 2
  client_extra=(--capture "$out/cap.pcapng")
  pair wlcap write-lat -s 2 -n 20000
  client_extra=()
  check "write-lat with --capture: typical / without" "$(ratio "$(lat_field wlcap 5)" "$(lat_field write-lat 5)")" "<=" 1.5

  pair wbw write-bw -s 65536 --if-mtu 4200 -D 6
  # MiB/s over GB/s: 1 MiB/s = 1.048576e-3 GB/s
  check "write-bw -s 65536 --if-mtu 4200 -D 6: BW / UDP GSO" "$(awk -v m="$(bw_field wbw 4)" -v g="$gso" 'BEGIN {printf "%.3f", m * 1.048576e-3 / g}')" ">=" 1.0
  pair sbw send-bw -s 64 -D 6
  check "send-bw -s 64 -D 6: million messages/s" "$(bw_field sbw 5)" ">=" 0.9
  if [ -n "$keep" ]; then
    mkdir -p "$keep/round-$round"
    cp "$out"/* "$keep/round-$round/"
  fi
done
bench_end
