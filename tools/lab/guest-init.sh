#!/bin/bash
# /init of the lab's guest (PID 1 in the initramfs). Mounts the usual file systems and the
# host's 9p share on /lab, loads rdma_rxe, configures eth0 from the kernel command line
# (jrxe_addr4=, jrxe_addr6=), adds rxe0 on eth0, writes /lab/state/ready, then runs the
# agent: every /lab/jobs/ID.sh the host drops is claimed (renamed ID.run), run in the
# background under `timeout` with its output in ID.out, and its exit status written to
# ID.rc last (through a rename, so the host never reads half of it).
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root LANG=C

echo "jrxe-lab-guest: init started" >/dev/console
[ -n "${jrxe_probe:-}" ] && exit 0   # lab.sh's KVM probe only asks whether the kernel gets here
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mkdir -p /dev/pts /dev/shm
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs tmpfs /tmp
mount -t tmpfs tmpfs /run
hostname jrxe-lab-guest
ulimit -l unlimited   # ibv_reg_mr pins memory

log() { echo "jrxe-lab-guest: $*" >/dev/console; [ -d /lab/state ] && echo "$*" >>/lab/state/boot.log; }
# PID 1 exiting panics the kernel; panic=-1 and qemu's -no-reboot turn that into qemu exiting.
fail() { log "FAILED: $*"; [ -d /lab/state ] && echo "$*" >/lab/state/failed; exit 1; }

for m in virtio_pci virtio_net 9pnet_virtio 9p; do
  modprobe "$m" 2>/dev/null || true   # some are built in
done
mkdir -p /lab
mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,cache=none lab /lab || fail "cannot mount the 9p share"
mkdir -p /lab/state /lab/jobs
# The host's checkout and JDK, read-only, when lab.sh shares them (for jrxe's Java in the guest). The JDK
# does not change while a guest lives, so the guest caches its pages (cache=loose): uncached, every JVM
# reads libjvm and the class archive over 9p again, seconds of an emulated CPU per start. The checkout
# stays uncached, as the host may rebuild it under a running guest.
for tag in jrxe jdk; do
  cache=none
  [ "$tag" = jdk ] && cache=loose
  mkdir -p "/opt/$tag"
  mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144,ro,cache=$cache "$tag" "/opt/$tag" 2>/dev/null || rmdir "/opt/$tag"
done
log "booted $(uname -r)"

for m in crc32_generic rdma_rxe ib_uverbs rdma_ucm sch_netem af_packet; do
  modprobe "$m" || log "modprobe $m failed"
done
log "modules loaded"

addr4=${jrxe_addr4:-10.77.0.2/24}
addr6=${jrxe_addr6:-fd77::2/64}
ip link set lo up
# Waits are bounded in time (SECONDS), not only in count: under TCG on a busy host each probe is slow.
until [ -e /sys/class/net/eth0 ] || [ $SECONDS -gt 60 ]; do sleep 0.1; done
[ -e /sys/class/net/eth0 ] || fail "no eth0"
ip addr add "$addr4" dev eth0 || fail "ip addr add $addr4"
ip -6 addr add "$addr6" dev eth0 nodad || fail "ip addr add $addr6"
ip link set eth0 up || fail "eth0 up"
log "eth0 up ($addr4, $addr6)"
rdma link add rxe0 type rxe netdev eth0 || fail "rdma link add rxe0 type rxe netdev eth0"
log "rxe0 added"

port=/sys/class/infiniband/rxe0/ports/1
deadline=$((SECONDS + 60))
until grep -q ACTIVE "$port/state" 2>/dev/null || [ $SECONDS -gt $deadline ]; do sleep 0.1; done
grep -q ACTIVE "$port/state" || fail "rxe0 port 1 is $(cat "$port/state" 2>/dev/null)"
# The GIDs of the addresses appear a little later (ib_core adds them from a work queue).
# sysfs shows a GID as 8 groups of 4 hex digits: compare in that form.
expand6() { # fd77::2 -> fd77:0000:0000:0000:0000:0000:0000:0002
  local head=$1 tail= h=() t=() g=() i
  if [[ $1 == *::* ]]; then head=${1%%::*}; tail=${1##*::}; fi
  IFS=: read -ra h <<<"$head"
  IFS=: read -ra t <<<"$tail"
  g=("${h[@]}")
  for ((i = ${#h[@]} + ${#t[@]}; i < 8; i++)); do g+=(0); done
  g+=("${t[@]}")
  printf '%04x:%04x:%04x:%04x:%04x:%04x:%04x:%04x' $(for x in "${g[@]}"; do echo $((16#$x)); done)
}
gid4=$(IFS=. read -r a b c d <<<"${addr4%/*}"; printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x' "$a" "$b" "$c" "$d")
gid6=$(expand6 "${addr6%/*}")
has_gid() { cat "$port"/gids/* 2>/dev/null | grep -x "$1" >/dev/null; }
deadline=$((SECONDS + 90))
until { has_gid "$gid4" && has_gid "$gid6"; } || [ $SECONDS -gt $deadline ]; do sleep 0.2; done
has_gid "$gid4" || fail "rxe0 has no GID $gid4 (${addr4%/*})"
has_gid "$gid6" || fail "rxe0 has no GID $gid6 (${addr6%/*})"
log "rxe0 GIDs for ${addr4%/*} and ${addr6%/*} are there"

{
  echo "kernel=$(uname -r)"
  echo "os=$(. /etc/os-release && echo "$PRETTY_NAME")"
  echo "rdma_core=$(dpkg-query -W -f='${Version}' rdma-core)"
  echo "perftest=$(dpkg-query -W -f='${Version}' perftest)"
  echo "rxe0=$(cat "$port/state")"
  echo "addr4=$addr4"
  echo "addr6=$addr6"
} >/lab/state/ready.tmp
mv /lab/state/ready.tmp /lab/state/ready
log "ready: rxe0 on eth0 ($addr4, $addr6)"

cd /root || cd /
while :; do
  for job in /lab/jobs/*.sh; do
    [ -e "$job" ] || continue
    id=${job%.sh}
    mv "$job" "$id.run" 2>/dev/null || continue
    read -r _ limit <"$id.run"
    case "$limit" in ''|*[!0-9]*) limit=60 ;; esac
    (
      timeout -k 5 "$limit" stdbuf -oL -eL bash "$id.run" >"$id.out" 2>&1 </dev/null
      echo $? >"$id.rc.tmp"
      mv "$id.rc.tmp" "$id.rc"
    ) &
  done
  sleep 0.1
done
