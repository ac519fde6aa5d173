#!/usr/bin/env bash
# jrxe lab: a real kernel Soft-RoCE peer (rdma_rxe in a Debian guest under qemu) next to jrxe,
# inside a network namespace of its own. `./jrxe lab ...` runs this script.
set -euo pipefail

lab_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_dir=$(cd "$lab_dir/../.." && pwd)
netns=${JRXE_LAB_NETNS:-jrxe-lab}
run_dir=${JRXE_LAB_RUN:-/run/jrxe-lab}
cache_root=${JRXE_LAB_CACHE:-${XDG_CACHE_HOME:+$XDG_CACHE_HOME/jrxe-lab}}
cache_root=${cache_root:-/var/cache/jrxe-lab}
bridge=jrxe-br0
tap=jrxe-tap0
host4=10.77.0.1/24
host6=fd77::1/64
guest4=10.77.0.2/24
guest6=fd77::2/64
share="$run_dir/share"

usage() {
  cat <<EOF
Usage: jrxe lab COMMAND

A Debian guest with the kernel's Soft-RoCE (rxe0 on eth0, $guest4 and $guest6) on a bridge
in the network namespace $netns, whose addresses are ${host4%/*} and ${host6%/*}: run jrxe there
(ip netns exec $netns ./jrxe ... --addr ${host6%/*}) as the guest's peer. Needs root.

Commands:
  up [--accel auto|tcg|kvm] [--boot-timeout S] [--lifetime DURATION]
                 build the guest image if it is not cached ($cache_root), boot it, wait
                 until rxe0 is active (auto: KVM if a probe, once per image, boots the
                 kernel under it, else TCG; the guest stops after --lifetime, 4h)
  status         what is up: the guest, rxe0's state and GIDs, the addresses; exit 1 if down
  run [--timeout S] CMD...
                 run CMD with bash in the guest (default timeout 60 s); prints its output as
                 it comes and exits with its exit status (124 when the timeout killed it)
  down           stop the guest and remove the namespace
  build          only build (or find) the guest image and print its directory
  check          say what the lab needs and is missing (exit 2), or that nothing is
  console        print the guest's serial console
EOF
}

die() { echo "jrxe lab: $*" >&2; exit 2; }
say() { echo "jrxe lab: $*" >&2; }

need_root() { [ "$(id -u)" -eq 0 ] || die "needs root (it creates a network namespace and a tap device): run it with sudo"; }
need_tool() { command -v "$1" >/dev/null || die "$1 is missing (Debian package $2)"; }

qemu_pid() { # the running guest's qemu pid, or nothing
  local pid
  pid=$(cat "$run_dir/qemu.pid" 2>/dev/null) || return 0
  [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = qemu-system-x86 ] && echo "$pid"
  return 0
}

netns_exists() { ip netns list 2>/dev/null | awk '{ print $1 }' | grep -x "$netns" >/dev/null; }

make_netns() {
  netns_exists && ip netns del "$netns"
  ip netns add "$netns"
  local n=(ip netns exec "$netns")
  "${n[@]}" ip link set lo up
  "${n[@]}" ip link add "$bridge" type bridge forward_delay 0 stp_state 0
  "${n[@]}" ip addr add "$host4" dev "$bridge"
  "${n[@]}" ip -6 addr add "$host6" dev "$bridge" nodad
  "${n[@]}" ip tuntap add dev "$tap" mode tap
  "${n[@]}" ip link set "$tap" master "$bridge" up
  "${n[@]}" ip link set "$bridge" up
}

# Everything `up` needs, or one line naming what is missing, and exit 2.
prerequisites() {
  need_root
  [ -c /dev/net/tun ] || die "/dev/net/tun is missing (modprobe tun; in a container, pass --device /dev/net/tun)"
  need_tool qemu-system-x86_64 qemu-system-x86
  need_tool ip iproute2
  need_tool zstd zstd
  need_tool cpio cpio
  if ! ls "$cache_root"/image-*/info >/dev/null 2>&1; then   # only building needs these
    need_tool debootstrap debootstrap
    need_tool depmod kmod
    need_tool apt-get apt
    apt-cache policy linux-image-amd64 2>/dev/null | grep 'Candidate: [0-9]' >/dev/null \
      || die "apt has no candidate for linux-image-amd64 (run apt-get update)"
  fi
}

cmd_build() {
  need_root
  "$lab_dir/build-image.sh" "$cache_root"
}

# kvm if this kernel reaches /init under KVM within 30 s, else tcg. Debian's stock kernel has
# been seen to hang under KVM after "Probing EDD", and qemu's -cpu host to abort on an MSR in
# nested setups; the answer is kept with the image (and the qemu version), so only the first
# `up --accel auto` of an image pays for the probe.
kvm_probe() {
  local image=$1 qemu_version verdict
  qemu_version=$(qemu-system-x86_64 --version | head -1)
  if [ -f "$image/kvm-probe" ] && [ "$(head -1 "$image/kvm-probe")" = "$qemu_version" ]; then
    tail -1 "$image/kvm-probe"
    return
  fi
  say "probing KVM (up to 30 s, once per image)"
  timeout -k 5 30 qemu-system-x86_64 -nodefaults -no-user-config -no-reboot -display none -monitor none \
    -accel kvm -cpu host -smp 2 -m 1024 -kernel "$image/vmlinuz" -initrd "$run_dir/initrd" \
    -append "console=ttyS0 panic=-1 jrxe_probe=1" -serial "file:$run_dir/kvm-probe.log" \
    </dev/null >"$run_dir/kvm-probe.qemu" 2>&1 || true
  verdict=tcg
  grep -q "jrxe-lab-guest: init started" "$run_dir/kvm-probe.log" 2>/dev/null && verdict=kvm
  say "KVM probe: $([ $verdict = kvm ] && echo "the guest boots under KVM" || echo "no boot under KVM ($(tail -1 "$run_dir/kvm-probe.qemu" 2>/dev/null | cut -c1-80)), using TCG")"
  printf '%s\n%s\n' "$qemu_version" "$verdict" >"$image/kvm-probe"
  echo "$verdict"
}

cmd_up() {
  local accel=${JRXE_LAB_ACCEL:-auto} boot_timeout=300 lifetime=4h
  while [ $# -gt 0 ]; do
    case "$1" in
      --accel) accel=${2:?}; shift 2 ;;
      --boot-timeout) boot_timeout=${2:?}; shift 2 ;;
      --lifetime) lifetime=${2:?}; shift 2 ;;
      *) usage >&2; exit 1 ;;
    esac
  done
  prerequisites
  case "$accel" in tcg|kvm|auto) ;; *) die "--accel is tcg, kvm or auto, not $accel" ;; esac
  if [ "$accel" != tcg ] && [ ! -c /dev/kvm ]; then
    [ "$accel" = kvm ] && die "--accel kvm needs /dev/kvm"
    accel=tcg
  fi
  if [ -n "$(qemu_pid)" ]; then
    say "the guest is already up"
    cmd_status
    return
  fi

  local image
  image=$("$lab_dir/build-image.sh" "$cache_root")
  rm -rf "$run_dir"
  mkdir -p "$share/state" "$share/jobs"
  # The kernel unpacks concatenated cpio archives in turn: the cached image, then /init from
  # here, as a second zstd frame (its zstd decoder reads every frame and refuses anything else).
  mkdir -p "$run_dir/init-archive"
  install -m 0755 "$lab_dir/guest-init.sh" "$run_dir/init-archive/init"
  cp "$image/initrd.zst" "$run_dir/initrd"
  (cd "$run_dir/init-archive" && echo init | cpio -o -H newc --quiet | zstd -q) >>"$run_dir/initrd"
  [ "$accel" = auto ] && accel=$(kvm_probe "$image")
  case "$accel" in
    tcg) accel_args=(-accel tcg,thread=multi -cpu max) ;;
    kvm) accel_args=(-accel kvm -cpu host) ;;
  esac
  # Read-only shares for running jrxe's Java inside the guest (the native provider against
  # rxe0): this checkout at /opt/jrxe and, when there is one, the host's JDK 25 at /opt/jdk
  # (the guest is the same Debian release, so its glibc runs the host's JDK).
  local java_shares=(-virtfs "local,path=$repo_dir,mount_tag=jrxe,security_model=none,readonly=on,id=jrxe")
  if (. "$repo_dir/.mvn/jdk25.sh" && jrxe_use_jdk25 2>/dev/null && echo "$JAVA_HOME" >"$run_dir/jdk"); then
    java_shares+=(-virtfs "local,path=$(cat "$run_dir/jdk"),mount_tag=jdk,security_model=none,readonly=on,id=jdk")
  fi
  make_netns
  echo "$accel" >"$run_dir/accel"
  local start=$SECONDS
  say "booting $(basename "$image") with $accel (qemu in namespace $netns, up to $boot_timeout s)"
  # qemu runs inside the namespace, so its tap is there and nothing reaches the host's network.
  setsid ip netns exec "$netns" timeout -k 10 "$lifetime" qemu-system-x86_64 \
    -name jrxe-lab -nodefaults -no-user-config -no-reboot -display none -monitor none \
    "${accel_args[@]}" -smp 2 -m 2048 \
    -kernel "$image/vmlinuz" -initrd "$run_dir/initrd" \
    -append "console=ttyS0 panic=-1 loglevel=4 jrxe_addr4=$guest4 jrxe_addr6=$guest6" \
    -serial "file:$run_dir/console.log" \
    -netdev "tap,id=net0,ifname=$tap,script=no,downscript=no" \
    -device "virtio-net-pci,netdev=net0,mac=52:54:00:77:00:02,romfile=" \
    -virtfs "local,path=$share,mount_tag=lab,security_model=none,id=lab" "${java_shares[@]}" \
    -pidfile "$run_dir/qemu.pid" </dev/null >"$run_dir/qemu.log" 2>&1 9>&- &
  echo $! >"$run_dir/wrapper.pid"
  local deadline=$((SECONDS + boot_timeout)) wrapper=$!
  while [ ! -f "$share/state/ready" ]; do
    if [ -f "$share/state/failed" ]; then
      local reason
      reason=$(cat "$share/state/failed")
      tail -5 "$run_dir/console.log" >&2 2>/dev/null || true
      cmd_down >/dev/null 2>&1 || true
      die "the guest failed: $reason (its console above)"
    fi
    if ! kill -0 "$wrapper" 2>/dev/null; then
      tail -5 "$run_dir/qemu.log" "$run_dir/console.log" >&2 2>/dev/null || true
      ip netns del "$netns" 2>/dev/null || true
      die "qemu stopped before the guest was ready (output above)"
    fi
    if [ $SECONDS -ge $deadline ]; then
      tail -5 "$run_dir/console.log" >&2 2>/dev/null || true
      cmd_down >/dev/null 2>&1 || true
      die "the guest was not ready after $boot_timeout s (console above); try --boot-timeout"
    fi
    sleep 0.2
  done
  say "guest ready in $((SECONDS - start)) s"
  cmd_status
}

# Runs CMD in the guest: writes jobs/ID.sh (through a rename), streams jobs/ID.out while
# waiting for jobs/ID.rc, exits with the status in it.
cmd_run() {
  local limit=60
  while [ $# -gt 0 ]; do
    case "$1" in
      --timeout) limit=${2:?}; shift 2 ;;
      --) shift; break ;;
      -h|--help) usage; exit 0 ;;
      *) break ;;
    esac
  done
  [ $# -gt 0 ] || { usage >&2; exit 1; }
  case "$limit" in ''|*[!0-9]*) die "--timeout takes whole seconds, not $limit" ;; esac
  [ -n "$(qemu_pid)" ] || die "the guest is not up (jrxe lab up)"
  local id job
  id="$(date +%s%N)-$$"
  job="$share/jobs/$id"
  { echo "#timeout $limit"; echo "$*"; } >"$job.tmp"
  mv "$job.tmp" "$job.sh"
  # The guest gives up after $limit s and writes 124; it has a margin to start and answer.
  local deadline=$((SECONDS + limit + 30)) shown=0 size
  while :; do
    if [ -f "$job.out" ]; then
      size=$(stat -c %s "$job.out")
      if [ "$size" -gt "$shown" ]; then
        tail -c +$((shown + 1)) "$job.out" | head -c $((size - shown))
        shown=$size
      fi
    fi
    if [ -f "$job.rc" ]; then
      [ -f "$job.out" ] && tail -c +$((shown + 1)) "$job.out"
      local rc
      rc=$(cat "$job.rc")
      rm -f "$job".*
      return "$rc"
    fi
    if [ $SECONDS -ge $deadline ]; then
      rm -f "$job.sh"
      die "the guest did not answer within $((limit + 30)) s (is it alive? jrxe lab status)"
    fi
    [ -n "$(qemu_pid)" ] || die "the guest stopped while running the command"
    sleep 0.05
  done
}

cmd_status() {
  local pid
  pid=$(qemu_pid)
  if [ -z "$pid" ]; then
    echo "guest: down"
    netns_exists && echo "namespace: $netns (left over; jrxe lab down removes it)"
    return 1
  fi
  local up
  up=$(ps -o etimes= -p "$pid" | xargs)
  echo "guest: up (qemu pid $pid, $(cat "$run_dir/accel" 2>/dev/null), up ${up} s, $(grep '^kernel=' "$share/state/ready" 2>/dev/null | cut -d= -f2))"
  echo "namespace: $netns, bridge $bridge $(ip netns exec "$netns" ip -br addr show dev "$bridge" 2>/dev/null | awk '{ $1 = $2 = ""; print }' | xargs)"
  cmd_run --timeout 20 '
    echo "guest eth0: $(ip -br addr show dev eth0 | awk "{ \$1 = \$2 = \"\"; print }" | xargs)"
    info=$(ibv_devinfo -v -d rxe0)
    echo "rxe0: $(awk "/[[:space:]]state:/ { print \$2 }" <<<"$info"), active MTU $(awk "/active_mtu:/ { print \$2 }" <<<"$info")"
    sed -n "s/^[[:space:]]*GID/rxe0 GID/p" <<<"$info" | tr -s "\t" " "' || die "the guest is up but does not answer"
}

cmd_down() {
  local pid
  pid=$(qemu_pid)
  if [ -n "$pid" ]; then
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    echo "jrxe lab: guest stopped"
  fi
  if netns_exists; then
    ip netns del "$netns"
    echo "jrxe lab: namespace $netns removed"
  fi
  rm -rf "$run_dir"
}

cmd_console() {
  [ -f "$run_dir/console.log" ] || die "no console log (the guest was not started)"
  cat "$run_dir/console.log"
}

# up and down change shared state (the namespace, the run directory): one at a time.
lock() {
  exec 9>"${run_dir%/}.lock"
  flock -w 900 9 || die "another jrxe lab up or down holds ${run_dir%/}.lock"
}

case "${1:-}" in
  up) shift; need_root; lock; cmd_up "$@" ;;
  status) shift; need_root; cmd_status ;;
  run) shift; need_root; cmd_run "$@" ;;
  down) shift; need_root; lock; cmd_down ;;
  build) shift; cmd_build ;;
  check) shift; prerequisites; echo "jrxe lab: everything the lab needs is here" ;;
  console) shift; cmd_console ;;
  -h|--help|help) usage ;;
  *) usage >&2; exit 1 ;;
esac
