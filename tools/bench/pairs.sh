# What the benchmark scripts share (sourced, not run): their arguments (ROUNDS and KEEP_DIR), a server and client
# pair of jrxe commands, the fields of their outputs, and rows that check a figure against its target. The script
# sets server_ip, client_ip, tcp_port and its name in bench, sources this, then calls bench_start "$@".

base_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
jrxe="$base_dir/jrxe"

# bench_start ARGS...: reads [ROUNDS [KEEP_DIR]] into rounds (default 3) and keep, makes the output directory out
# (removed at exit) and builds the jar when it is stale.
bench_start() {
  rounds=${1:-3}
  keep=${2:-}
  case "$rounds" in ''|*[!0-9]*|0) bench_usage ;; esac
  [ $# -le 2 ] || bench_usage
  if [ -n "$keep" ] && ! mkdir -p "$keep" 2>/dev/null; then
    echo "$bench: cannot create the directory $keep" >&2
    exit 1
  fi
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
  "$jrxe" --version >/dev/null # builds the jar first when it is stale
}
bench_usage() { echo "usage: $bench [ROUNDS [KEEP_DIR]]  (ROUNDS: a number above 0, default 3)" >&2; exit 1; }

# pair NAME ARGS...: runs `jrxe ARGS` as a server and as its client (with $client_extra too); the client's
# output goes to $out/NAME.
client_extra=()
pair() {
  local name=$1; shift
  tcp_port=$((tcp_port + 1))
  "$jrxe" "$@" --addr "$server_ip" -p "$tcp_port" >"$out/$name.server" 2>&1 &
  local server=$!
  if ! "$jrxe" "$@" --addr "$client_ip" -p "$tcp_port" --timeout 30 ${client_extra[@]+"${client_extra[@]}"} "$server_ip" >"$out/$name" 2>&1; then
    echo "$bench: \`jrxe $*\` failed:" >&2
    cat "$out/$name" >&2
    kill "$server" 2>/dev/null || true
    exit 2
  fi
  wait "$server" || true
}

usec_per_iter() { awk '/usec\/iter/ {print $(NF-1)}' "$out/$1"; }
# perftest latency row: #bytes #iterations t_min t_max t_typical t_avg t_stdev p99 p99.9
lat_field() { awk -v f="$2" '$1 ~ /^[0-9]+$/ && NF >= 9 {v = $f} END {print v}' "$out/$1"; }
# perftest bandwidth row: #bytes #iterations BW_peak BW_average MsgRate
bw_field() { awk -v f="$2" '$1 ~ /^[0-9]+$/ && NF >= 5 {v = $f} END {print v}' "$out/$1"; }

misses=0
# check LABEL VALUE OP LIMIT: prints a row and counts a miss (three decimals: a ratio of 0.998 printed as 1.00
# would read as met)
check() {
  local label=$1 value=$2 op=$3 limit=$4 verdict
  if awk -v v="$value" -v l="$limit" -v op="$op" 'BEGIN {exit !((op == "<=") ? v <= l : v >= l)}'; then
    verdict=met
  else
    verdict=MISSED
    misses=$((misses + 1))
  fi
  printf '  %-58s %10.3f  %s %-6s %s\n' "$label" "$value" "$op" "$limit" "$verdict"
  printf '%s\t%s\t%s\t%s\t%s\n' "$label" "$op" "$limit" "$value" "$verdict" >>"$out/.checks"
}

# bench_end: per target, in how many rounds it was met, its median and every round's figure; then the total of
# misses. Exits 0 when every target was met in every round.
bench_end() {
  echo "over $rounds round(s):"
  awk -F '\t' '
    !($1 in n) {order[++labels] = $1; op[$1] = $2; limit[$1] = $3}
    {n[$1]++; v[$1, n[$1]] = $4; if ($5 == "met") met[$1]++; all[$1] = all[$1] (n[$1] > 1 ? ", " : "") $4}
    END {
      for (i = 1; i <= labels; i++) {
        l = order[i]; k = n[l]
        for (a = 1; a <= k; a++) s[a] = v[l, a] + 0
        for (a = 2; a <= k; a++) for (b = a; b > 1 && s[b - 1] > s[b]; b--) {t = s[b]; s[b] = s[b - 1]; s[b - 1] = t}
        median = k % 2 ? s[(k + 1) / 2] : (s[k / 2] + s[k / 2 + 1]) / 2
        printf "  %-58s median %7.3f  %s %-6s met in %d of %d (%s)\n", l, median, op[l], limit[l], met[l], k, all[l]
      }
    }' "$out/.checks"
  echo "$misses target(s) missed over $rounds round(s)"
  [ "$misses" -eq 0 ]
}
# info LABEL VALUE: prints a row that has no target (what a figure is, next to what it could be)
info() { printf '  %-58s %10.3f  (no target)\n' "$1" "$2"; }
# udp-baseline's 64-byte round trip p50 (us) and UDP GSO bandwidth (GB/s), from $out/udp
udp_rtt_p50() { awk '/round trip/ {for (i = 1; i <= NF; i++) if ($i == "p50") print $(i + 1)}' "$out/udp"; }
udp_gso() { awk '/UDP GSO/ {print $(NF-1)}' "$out/udp"; }
# floor_at BYTES PCT: the busy-polled exchange's percentile PCT (p50, p99, p99.9) for a message of BYTES
# (udp-baseline --exchange-floor)
floor_at() { awk -v m="$1-byte" -v p="$2" '/busy-polled RC exchange/ && $4 == m {for (i = 1; i <= NF; i++) if ($i == p) print $(i + 1)}' "$out/udp"; }
floor_p50() { floor_at "$1" p50; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
# pauses_over US: how many times a second udp-baseline --pauses saw a spinning thread stopped for more than US us
pauses_over() { awk -v t=">$1" '/^machine pauses/ {for (i = 1; i < NF - 1; i++) if ($i == t && $(i + 1) == "us") {v = $(i + 2); sub(",", "", v); print v}}' "$out/udp"; }
# pause_share_pct PAUSES_PER_THREAD_SECOND ROUND_TRIP_US: the percentage of round trips between two spinning threads
# that one of those pauses meets (either thread's)
pause_share_pct() { awk -v n="$1" -v t="$2" 'BEGIN {printf "%.3f", 100 * 2 * n * t * 1e-6}'; }

