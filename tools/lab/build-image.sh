#!/usr/bin/env bash
# Builds the lab's guest from Debian packages only, into a cache directory keyed by the
# versions of everything that goes in:
#   - the kernel that linux-image-amd64 depends on (apt-get download, dpkg -x, depmod);
#   - a minimal bookworm made by debootstrap with rdma-core's tools and perftest;
#   - rdma_rxe, 9p, virtio_net and sch_netem with their dependencies, copied from that kernel;
# packed into one zstd initramfs. Its /init (guest-init.sh) is not in it: lab.sh appends it
# as a second archive at each boot, so changing it needs no rebuild.
#
# Usage: build-image.sh CACHE_ROOT   prints the image directory (vmlinuz, initrd.zst, info)
# on stdout; progress lines go to stderr. A second run with the same versions only prints.
set -euo pipefail

lab_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache_root=${1:?usage: build-image.sh CACHE_ROOT}
suite=bookworm
mirror=${JRXE_LAB_MIRROR:-http://deb.debian.org/debian}
guest_packages=(rdma-core ibverbs-utils ibverbs-providers perftest rdmacm-utils iproute2 tcpdump kmod procps)
# What the guest loads (rdma_rxe asks the crypto API for "crc32", which no modules.dep names); their dependencies are resolved with modprobe against the kernel's modules.dep.
guest_modules=(crc32_generic rdma_rxe ib_uverbs rdma_ucm virtio_net virtio_pci 9p 9pnet_virtio sch_netem af_packet)

say() { echo "jrxe lab: $*" >&2; }
die() { echo "jrxe lab: $*" >&2; exit 2; }

candidates() { # "package=version" for every package named, as apt would install it (one apt-cache run)
  apt-cache policy "$@" 2>/dev/null | awk '/^[^ ].*:$/ { p = substr($1, 1, length($1) - 1) } /Candidate:/ { print p "=" $2 }'
}

kernel_pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/ && !k { k = $2 } END { print k }')
[ -n "$kernel_pkg" ] || die "apt knows no linux-image-amd64 (run apt-get update)"
kernel_release=${kernel_pkg#linux-image-}

versions=$(candidates "$kernel_pkg" "${guest_packages[@]}")
for p in "$kernel_pkg" "${guest_packages[@]}"; do
  grep -q "^$p=[^(]" <<<"$versions" || die "apt knows no package $p (run apt-get update)"
done
key_text="suite=$suite mirror=$mirror $(echo $versions)"
key_text+=" modules=${guest_modules[*]}"
key_text+=" build=$(sha256sum "$lab_dir/build-image.sh" | cut -c1-16)"
key=$(printf '%s' "$key_text" | sha256sum | cut -c1-16)
image_dir="$cache_root/image-$key"

if [ -f "$image_dir/info" ] && [ -f "$image_dir/initrd.zst" ] && [ -f "$image_dir/vmlinuz" ]; then
  echo "$image_dir"
  exit 0
fi

for tool in debootstrap zstd cpio depmod modprobe; do
  command -v "$tool" >/dev/null || die "$tool is missing (Debian package $(case $tool in depmod|modprobe) echo kmod;; *) echo "$tool";; esac))"
done

mkdir -p "$cache_root"
work=$(mktemp -d "$cache_root/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$SECONDS

say "building the guest image $key (kernel $kernel_release, $suite) in $work"
say "[1/4] kernel: apt-get download $kernel_pkg"
(cd "$work" && apt-get download -q "$kernel_pkg" >/dev/null 2>"$work/apt.log") \
  || { cat "$work/apt.log" >&2; die "apt-get download $kernel_pkg failed (run apt-get update?)"; }
dpkg -x "$work"/linux-image-*.deb "$work/kernel"
depmod -b "$work/kernel" "$kernel_release"
say "      kernel unpacked ($((SECONDS - start)) s)"

say "[2/4] guest: debootstrap --variant=minbase $suite ($mirror, about a minute)"
include=$(IFS=,; echo "${guest_packages[*]}")
if ! debootstrap --variant=minbase --include="$include" "$suite" "$work/root" "$mirror" >"$work/debootstrap.log" 2>&1; then
  tail -20 "$work/debootstrap.log" >&2
  die "debootstrap failed (log above)"
fi
say "      debootstrap done: $(du -sm "$work/root" | cut -f1) MB ($((SECONDS - start)) s)"

say "[3/4] modules: ${guest_modules[*]} and their dependencies"
mod_root="$work/root/lib/modules/$kernel_release"
mkdir -p "$mod_root"
cp "$work/kernel/lib/modules/$kernel_release"/modules.{order,builtin,builtin.modinfo} "$mod_root/" 2>/dev/null || true
for m in "${guest_modules[@]}"; do
  modprobe -d "$work/kernel" -S "$kernel_release" --show-depends "$m" 2>/dev/null | awk '$1 == "insmod" { print $2 }'
done | sort -u | while read -r path; do
  rel=${path#"$work/kernel"}
  mkdir -p "$work/root$(dirname "$rel")"
  cp "$path" "$work/root$rel"
done
depmod -b "$work/root" "$kernel_release"
for m in "${guest_modules[@]}"; do
  modprobe -d "$work/root" -S "$kernel_release" --show-depends "$m" >/dev/null 2>&1 \
    || die "module $m is neither in the image nor built into $kernel_release"
done
say "      $(find "$mod_root" -name '*.ko*' | wc -l) modules"

say "[4/4] initramfs: slimming and packing with zstd"
rm -rf "$work/root"/usr/share/{doc,man,info,locale,lintian} "$work/root"/var/cache/apt/* "$work/root"/var/lib/apt/lists/*
echo jrxe-lab-guest >"$work/root/etc/hostname"
(cd "$work/root" && find . -xdev -print0 | cpio --null -o -H newc --quiet | zstd -q -T0 -9 -o "$work/initrd.zst")
cp "$work/kernel/boot/vmlinuz-$kernel_release" "$work/vmlinuz"

mkdir -p "$image_dir.tmp"
mv "$work/initrd.zst" "$work/vmlinuz" "$image_dir.tmp/"
{
  echo "key=$key"
  echo "kernel=$kernel_release"
  echo "built=$(date -u +%Y-%m-%dT%H:%M:%SZ) in $((SECONDS - start)) s"
  echo "initrd_mb=$(( $(stat -c %s "$image_dir.tmp/initrd.zst") / 1048576 ))"
  echo "versions=$key_text"
} >"$image_dir.tmp/info"
rm -rf "$image_dir"
mv "$image_dir.tmp" "$image_dir"
find "$cache_root" -mindepth 1 -maxdepth 1 -name 'image-*' ! -name "image-$key" -exec rm -rf {} +   # older versions
say "      image ready: $image_dir (initramfs $(( $(stat -c %s "$image_dir/initrd.zst") / 1048576 )) MB, $((SECONDS - start)) s in all)"
echo "$image_dir"
