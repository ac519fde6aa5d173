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
host4=10.77.0.1/24
host6=fd77::1/64
releases=(bookworm trixie sid)   # Debian 12 (kernel 6.1, rdma-core 44), 13 (6.12, 56) and unstable (7.2, 65 today)
default_release=bookworm

# Guest 1 is the lab's kernel rxe peer; with `up --guests 2`, guest 2 is a second one on the same
# bridge (to record traffic between two kernel rxe devices). Guest N has the tap jrxe-tap(N-1)
# and the addresses 10.77.0.(N+1) and fd77::(N+1); its files (share/, console.log, qemu.pid) are
# in guest_dir N: the run directory itself for guest 1, its guest2/ for guest 2.
guest_dir() { if [ "$1" = 1 ]; then echo "$run_dir"; else echo "$run_dir/guest$1"; fi; }
guest_addr4() { echo "10.77.0.$(($1 + 1))/24"; }
guest_addr6() { echo "fd77::$(($1 + 1))/64"; }

usage() {
  cat <<EOF
Usage: jrxe lab COMMAND

A Debian guest with the kernel's Soft-RoCE (rxe0 on eth0, $(guest_addr4 1) and $(guest_addr6 1)) on a
bridge in the network namespace $netns, whose addresses are ${host4%/*} and ${host6%/*}: run jrxe
there (ip netns exec $netns ./jrxe ... --addr ${host6%/*}) as the guest's peer. Needs root.

Commands:
  up [--release R] [--guests N] [--accel auto|tcg|kvm] [--boot-timeout S] [--lifetime DURATION]
                 build the guest image of Debian release R (${releases[*]}; $default_release by
                 default) if it is not cached ($cache_root), boot it, wait until rxe0 is
                 active (auto: KVM if a probe, once per image, boots the kernel under it, else
                 TCG; the guest stops after --lifetime, 4h). --guests 2 boots a second guest
                 on the bridge, $(guest_addr4 2) and $(guest_addr6 2)
  status         what is up: the release, its kernel, rxe0's state and GIDs, the addresses;
                 exit 1 if down
  run [--guest N] [--timeout S] CMD...
                 run CMD with bash in guest N (1 by default; timeout 60 s by default); prints
                 its output as it comes and exits with its exit status (124 when the timeout
                 killed it)
  down           stop the guests and remove the namespace
  build [--release R]
                 only build (or find) the guest image and print its directory
  check [--release R]
                 say what the lab needs and is missing (exit 2), or that nothing is
  console [--guest N]
                 print a guest's serial console
EOF
}

die() { echo "jrxe lab: $*" >&2; exit 2; }
bad_option() { echo "jrxe lab: $* (see jrxe lab --help)" >&2; exit 1; }
say() { echo "jrxe lab: $*" >&2; }

need_root() { [ "$(id -u)" -eq 0 ] || die "needs root (it creates a network namespace and a tap device): run it with sudo"; }
need_tool() { command -v "$1" >/dev/null || die "$1 is missing (Debian package $2)"; }

qemu_pid() { # guest N's running qemu pid (N is 1 unless given), or nothing
  local pid
  pid=$(cat "$(guest_dir "${1:-1}")/qemu.pid" 2>/dev/null) || return 0
  [ -n "$pid" ] && [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = qemu-system-x86 ] && echo "$pid"
  return 0
}

release_up() { cat "$run_dir/release" 2>/dev/null || echo "$default_release"; }

check_release() {
  local r
  for r in "${releases[@]}"; do [ "$r" = "$1" ] && return 0; done
  bad_option "--release is one of ${releases[*]}, not '$1'"
}

check_guest() {
  case "$1" in 1|2) ;; *) bad_option "--guest is 1 or 2, not '$1'" ;; esac
}

netns_exists() { ip netns list 2>/dev/null | awk '{ print $1 }' | grep -x "$netns" >/dev/null; }

make_netns() { # $1: how many guests get a tap
  netns_exists && ip netns del "$netns"
  ip netns add "$netns"
  local n=(ip netns exec "$netns") i
  "${n[@]}" ip link set lo up
  "${n[@]}" ip link add "$bridge" type bridge forward_delay 0 stp_state 0
  "${n[@]}" ip addr add "$host4" dev "$bridge"
  "${n[@]}" ip -6 addr add "$host6" dev "$bridge" nodad
  for ((i = 0; i < $1; i++)); do
    "${n[@]}" ip tuntap add dev "jrxe-tap$i" mode tap
    "${n[@]}" ip link set "jrxe-tap$i" master "$bridge" up
  done
  "${n[@]}" ip link set "$bridge" up
}

# Everything `up` of release $1 needs, or one line naming what is missing, and exit 2.
prerequisites() {
  need_root
  [ -c /dev/net/tun ] || die "/dev/net/tun is missing (modprobe tun; in a container, pass --device /dev/net/tun)"
  need_tool qemu-system-x86_64 qemu-system-x86
  need_tool ip iproute2
  need_tool zstd zstd
  need_tool cpio cpio
  if ! ls "$cache_root/$1"/image-*/info >/dev/null 2>&1; then   # only building needs these
    need_tool debootstrap debootstrap
    need_tool depmod kmod
    need_tool apt-get apt
    need_tool gpgv gpgv
    [ -e "/usr/share/debootstrap/scripts/$1" ] || die "this debootstrap cannot make Debian $1 (a newer debootstrap can)"
  fi
}

release_option() { # build's and check's options: [--release R]; prints R
  local release=$default_release
  case "${1:-}" in
    --release) [ $# -ge 2 ] || bad_option "--release needs a value"; release=$2; shift 2 ;;
  esac
  [ $# -eq 0 ] || bad_option "no option '$1' here"
  check_release "$release"
  echo "$release"
}

cmd_build() {
  local release
  release=$(release_option "$@")
  need_root
  "$lab_dir/build-image.sh" "$cache_root" "$release"
}

cmd_check() {
  local release
  release=$(release_option "$@")
  prerequisites "$release"
  echo "jrxe lab: everything the lab needs for $release is here"
}

# kvm if this kernel reaches /init under KVM within 30 s, else tcg. Debian's stock kernel can
# hang under KVM after "Probing EDD", and qemu's -cpu host can abort on an MSR in
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

# Starts guest $1's qemu from the image $2 in the background, with cmd_up's accel_args,
# java_shares and lifetime.
boot_guest() {
  local n=$1 image=$2 dir
  dir=$(guest_dir "$n")
  mkdir -p "$dir/share/state" "$dir/share/jobs"
  # qemu runs inside the namespace, so its tap is there and nothing reaches the host's network.
  setsid ip netns exec "$netns" timeout -k 10 "$lifetime" qemu-system-x86_64 \
    -name "jrxe-lab-$n" -nodefaults -no-user-config -no-reboot -display none -monitor none \
    "${accel_args[@]}" -smp 2 -m 2048 \
    -kernel "$image/vmlinuz" -initrd "$run_dir/initrd" \
    -append "console=ttyS0 panic=-1 loglevel=4 jrxe_addr4=$(guest_addr4 "$n") jrxe_addr6=$(guest_addr6 "$n")" \
    -serial "file:$dir/console.log" \
    -netdev "tap,id=net0,ifname=jrxe-tap$((n - 1)),script=no,downscript=no" \
    -device "virtio-net-pci,netdev=net0,mac=52:54:00:77:00:0$((n + 1)),romfile=" \
    -virtfs "local,path=$dir/share,mount_tag=lab,security_model=none,id=lab" "${java_shares[@]}" \
    -pidfile "$dir/qemu.pid" </dev/null >"$dir/qemu.log" 2>&1 9>&- &
  echo $! >"$dir/wrapper.pid"
}

# A guest whose kernel starts writes its console's first line (guest-init's, at loglevel 4) within about 40 s, even
# under TCG on a busy host. A TCG guest now and then hangs before that: waiting the whole boot timeout for it would
# only delay the next try.
silent_limit=120

# Waits until guests 1 to $1 are ready, or one failed, stopped, stayed silent or the boot timeout passed.
await_guests() {
  local guests=$1 deadline=$((SECONDS + boot_timeout)) silent_deadline=$((SECONDS + silent_limit)) n dir ready name
  while :; do
    ready=0
    for ((n = 1; n <= guests; n++)); do
      dir=$(guest_dir "$n")
      name="the guest"
      [ "$guests" -gt 1 ] && name="guest $n"
      if [ -f "$dir/share/state/ready" ]; then
        ready=$((ready + 1))
      elif [ -f "$dir/share/state/failed" ]; then
        tail -5 "$dir/console.log" >&2 2>/dev/null || true
        cmd_down >/dev/null 2>&1 || true
        die "$name failed: $(cat "$dir/share/state/failed") (its console above)"
      elif ! kill -0 "$(cat "$dir/wrapper.pid")" 2>/dev/null; then
        tail -5 "$dir/qemu.log" "$dir/console.log" >&2 2>/dev/null || true
        cmd_down >/dev/null 2>&1 || true
        die "qemu of $name stopped before it was ready (output above)"
      fi
    done
    [ "$ready" -eq "$guests" ] && return
    if [ $SECONDS -ge $silent_deadline ] && [ $silent_deadline -lt $deadline ]; then
      for ((n = 1; n <= guests; n++)); do
        dir=$(guest_dir "$n")
        if [ ! -f "$dir/share/state/ready" ] && [ ! -s "$dir/console.log" ]; then
          echo "jrxe lab: guest $n wrote nothing on its console in $silent_limit s: its kernel did not start" >&2
          cmd_down >/dev/null 2>&1 || true
          die "not ready after $silent_limit s (a silent console); booting again usually works"
        fi
      done
    fi
    if [ $SECONDS -ge $deadline ]; then
      for ((n = 1; n <= guests; n++)); do
        dir=$(guest_dir "$n")
        if [ -s "$dir/console.log" ]; then
          tail -5 "$dir/console.log" >&2
        else
          echo "jrxe lab: guest $n wrote nothing on its console in $boot_timeout s: its kernel did not start" >&2
        fi
      done
      cmd_down >/dev/null 2>&1 || true
      die "not ready after $boot_timeout s (console above); try --boot-timeout"
    fi
    sleep 0.2
  done
}

cmd_up() {
  local accel=${JRXE_LAB_ACCEL:-auto} boot_timeout=300 lifetime=4h release=$default_release guests=1
  while [ $# -gt 0 ]; do
    case "$1" in
      --accel|--boot-timeout|--lifetime|--release|--guests) [ $# -ge 2 ] || bad_option "$1 needs a value" ;;
      *) bad_option "up has no option '$1'" ;;
    esac
    case "$1" in
      --accel) accel=$2 ;;
      --boot-timeout) boot_timeout=$2 ;;
      --lifetime) lifetime=$2 ;;
      --release) release=$2 ;;
      --guests) guests=$2 ;;
    esac
    shift 2
  done
  check_release "$release"
  case "$guests" in 1|2) ;; *) bad_option "--guests is 1 or 2, not '$guests'" ;; esac
  case "$accel" in tcg|kvm|auto) ;; *) bad_option "--accel is tcg, kvm or auto, not '$accel'" ;; esac
  case "$boot_timeout" in ''|*[!0-9]*) bad_option "--boot-timeout takes whole seconds, not '$boot_timeout'" ;; esac
  prerequisites "$release"
  if [ "$accel" != tcg ] && [ ! -c /dev/kvm ]; then
    [ "$accel" = kvm ] && die "--accel kvm needs /dev/kvm"
    accel=tcg
  fi
  if [ -n "$(qemu_pid 1)" ]; then
    local up_guests=1
    [ -n "$(qemu_pid 2)" ] && up_guests=2
    if [ "$(release_up)" != "$release" ] || [ "$up_guests" -ne "$guests" ]; then
      die "a $(release_up) lab with $up_guests guest(s) is up in $netns: jrxe lab down first, or name another lab with JRXE_LAB_NETNS and JRXE_LAB_RUN"
    fi
    say "the guest is already up"
    cmd_status
    return
  fi

  local image
  image=$("$lab_dir/build-image.sh" "$cache_root" "$release")
  rm -rf "$run_dir"
  mkdir -p "$run_dir"
  echo "$release" >"$run_dir/release"
  # The kernel unpacks concatenated cpio archives in turn: the cached image, then /init from
  # here, as a second zstd frame (its zstd decoder reads every frame and refuses anything else).
  mkdir -p "$run_dir/init-archive"
  install -m 0755 "$lab_dir/guest-init.sh" "$run_dir/init-archive/init"
  cp "$image/initrd.zst" "$run_dir/initrd"
  (cd "$run_dir/init-archive" && echo init | cpio -o -H newc --quiet | zstd -q) >>"$run_dir/initrd"
  [ "$accel" = auto ] && accel=$(kvm_probe "$image")
  local accel_args
  case "$accel" in
    tcg) accel_args=(-accel tcg,thread=multi -cpu max) ;;
    kvm) accel_args=(-accel kvm -cpu host) ;;
  esac
  # Read-only shares for running jrxe's Java inside the guest (the native provider against
  # rxe0): this checkout at /opt/jrxe and, when there is one, the host's JDK 25 at /opt/jdk. A
  # JDK that runs on the host runs in either guest as long as its glibc is no newer than the
  # guest's: Debian 12's is 2.36, Debian 13's 2.41; a Temurin build needs 2.17.
  local java_shares=(-virtfs "local,path=$repo_dir,mount_tag=jrxe,security_model=none,readonly=on,id=jrxe")
  if (. "$repo_dir/.mvn/jdk25.sh" && jrxe_use_jdk25 2>/dev/null && echo "$JAVA_HOME" >"$run_dir/jdk"); then
    java_shares+=(-virtfs "local,path=$(cat "$run_dir/jdk"),mount_tag=jdk,security_model=none,readonly=on,id=jdk")
  fi
  make_netns "$guests"
  echo "$accel" >"$run_dir/accel"
  local start=$SECONDS n
  say "booting $release ($(basename "$image"), $guests guest(s)) with $accel (qemu in namespace $netns, up to $boot_timeout s)"
  for ((n = 1; n <= guests; n++)); do
    boot_guest "$n" "$image"
  done
  await_guests "$guests"
  say "ready in $((SECONDS - start)) s"
  cmd_status
}

# Runs CMD in a guest: writes jobs/ID.sh (through a rename), streams jobs/ID.out while
# waiting for jobs/ID.rc, exits with the status in it.
cmd_run() {
  local limit=60 guest=1
  while [ $# -gt 0 ]; do
    case "$1" in
      --timeout|--guest) [ $# -ge 2 ] || bad_option "$1 needs a value" ;;
    esac
    case "$1" in
      --timeout) limit=$2; shift 2 ;;
      --guest) guest=$2; shift 2 ;;
      --) shift; break ;;
      -h|--help) usage; exit 0 ;;
      *) break ;;
    esac
  done
  [ $# -gt 0 ] || bad_option "run needs a command"
  case "$limit" in ''|*[!0-9]*) bad_option "--timeout takes whole seconds, not '$limit'" ;; esac
  check_guest "$guest"
  [ -n "$(qemu_pid "$guest")" ] || die "guest $guest is not up (jrxe lab up)"
  local id job
  id="$(date +%s%N)-$$"
  job="$(guest_dir "$guest")/share/jobs/$id"
  { echo "#timeout $limit"; echo "$*"; } >"$job.tmp"
  mv "$job.tmp" "$job.sh"
  # The guest gives up after $limit s and writes 124; it has a margin to start and answer.
  local deadline=$((SECONDS + limit + 30)) shown=0 size
  while :; do
    if [ -f "$job.out" ]; then
      size=$(stat -c %s "$job.out")
      if [ "$size" -gt "$shown" ]; then
        # head stops at the size read, tail reads all head gives: no side closes its pipe early (the other way
        # round, tail could be writing bytes that arrived after the stat when head exits, and die of SIGPIPE)
        head -c "$size" "$job.out" | tail -c +$((shown + 1))
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
      die "guest $guest did not answer within $((limit + 30)) s (is it alive? jrxe lab status)"
    fi
    [ -n "$(qemu_pid "$guest")" ] || die "guest $guest stopped while running the command"
    sleep 0.05
  done
}

cmd_status() {
  local pid n prefix
  pid=$(qemu_pid 1)
  if [ -z "$pid" ]; then
    echo "guest: down"
    netns_exists && echo "namespace: $netns (left over; jrxe lab down removes it)"
    return 1
  fi
  local ready="$run_dir/share/state/ready"
  echo "guest: up (qemu pid $pid, $(cat "$run_dir/accel" 2>/dev/null), up $(ps -o etimes= -p "$pid" | xargs) s)"
  echo "release: $(release_up) ($(sed -n 's/^os=//p' "$ready")), kernel $(sed -n 's/^kernel=//p' "$ready"), rdma-core $(sed -n 's/^rdma_core=//p' "$ready"), perftest $(sed -n 's/^perftest=//p' "$ready")"
  echo "namespace: $netns, bridge $bridge $(ip netns exec "$netns" ip -br addr show dev "$bridge" 2>/dev/null | awk '{ $1 = $2 = ""; print }' | xargs)"
  for n in 1 2; do
    [ -n "$(qemu_pid "$n")" ] || continue
    prefix=""
    [ "$n" -gt 1 ] && prefix="guest $n "
    cmd_run --guest "$n" --timeout 60 '
      echo "guest '"${prefix#guest }"'eth0: $(ip -br addr show dev eth0 | awk "{ \$1 = \$2 = \"\"; print }" | xargs)"
      info=$(ibv_devinfo -v -d rxe0)
      echo "'"$prefix"'rxe0: $(awk "/[[:space:]]state:/ { print \$2 }" <<<"$info"), active MTU $(awk "/active_mtu:/ { print \$2 }" <<<"$info")"
      sed -n "s/^[[:space:]]*GID/'"$prefix"'rxe0 GID/p" <<<"$info" | tr -s "\t" " "' || die "guest $n is up but does not answer"
  done
}

cmd_down() {
  local pid n
  for n in 1 2; do
    pid=$(qemu_pid "$n")
    [ -n "$pid" ] || continue
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    echo "jrxe lab: guest $n stopped"
  done
  if netns_exists; then
    ip netns del "$netns"
    echo "jrxe lab: namespace $netns removed"
  fi
  rm -rf "$run_dir"
}

cmd_console() {
  local guest=1
  case "${1:-}" in
    --guest) [ $# -ge 2 ] || bad_option "--guest needs a value"; guest=$2 ;;
    '') ;;
    *) bad_option "console has no option '$1'" ;;
  esac
  check_guest "$guest"
  [ -f "$(guest_dir "$guest")/console.log" ] || die "no console log (guest $guest was not started)"
  cat "$(guest_dir "$guest")/console.log"
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
  build) shift; cmd_build "$@" ;;
  check) shift; cmd_check "$@" ;;
  console) shift; cmd_console "$@" ;;
  -h|--help|help) usage ;;
  '') usage >&2; exit 1 ;;
  *) bad_option "no command '$1'" ;;
esac
