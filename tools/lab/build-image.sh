#!/usr/bin/env bash
# Builds the lab's guest for one Debian release from Debian packages only, into a cache directory
# keyed by the versions of everything that goes in:
#   - the kernel that the release's linux-image-amd64 depends on (apt-get download, dpkg -x, depmod);
#   - a minimal system of that release made by debootstrap, with rdma-core's tools and perftest;
#   - rdma_rxe, 9p, virtio_net, sch_netem, and veth, sch_htb and sch_red (for a rate-limited, ECN-marking
#     link between network namespaces in the guest) with their dependencies, copied from that kernel;
# packed into one zstd initramfs. Its /init (guest-init.sh) is not in it: lab.sh appends it
# as a second archive at each boot, so changing it needs no rebuild.
#
# The versions come from package lists of the release alone (its main suite and its security
# updates), kept with the cache (CACHE_ROOT/RELEASE/apt) apart from the host's apt: the host may
# run another release (Debian 12 builds a Debian 13 guest). The kernel is the newest, security
# updates included, as on an installed system; the other packages are main's, which is what
# debootstrap installs. The lists are fetched again when a day old; offline, older ones serve.
#
# Usage: build-image.sh CACHE_ROOT RELEASE   prints the image directory (vmlinuz, initrd.zst, info)
# on stdout; progress lines go to stderr. A second run with the same versions only prints.
set -euo pipefail

lab_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache_root=${1:?usage: build-image.sh CACHE_ROOT RELEASE}
suite=${2:?usage: build-image.sh CACHE_ROOT RELEASE}
mirror=${JRXE_LAB_MIRROR:-http://deb.debian.org/debian}
security_mirror=${JRXE_LAB_SECURITY_MIRROR:-http://deb.debian.org/debian-security}
guest_packages=(rdma-core ibverbs-utils ibverbs-providers perftest rdmacm-utils iproute2 tcpdump kmod procps)
# What the guest loads; their dependencies are resolved with modprobe against the kernel's modules.dep.
guest_modules=(crc32_generic rdma_rxe ib_uverbs rdma_ucm virtio_net virtio_pci 9p 9pnet_virtio sch_netem af_packet veth sch_htb sch_red)
# Loaded where the kernel has them: rdma_rxe up to 6.14 asks the crypto API for "crc32", which no modules.dep
# names; from 6.15 on it calls the crc32 library and crc32_generic is gone.
optional_modules=(crc32_generic)

say() { echo "jrxe lab: $*" >&2; }
die() { echo "jrxe lab: $*" >&2; exit 2; }

release_dir="$cache_root/$suite"
apt_dir="$release_dir/apt"
# apt with the release's lists only: its own sources, no preferences (the host's pins are for the host's
# release), an empty dpkg status (nothing is "installed"), downloads as root into its own directories.
apt_options=(-o "Dir::Etc::sourcelist=$apt_dir/sources.list" -o "Dir::Etc::sourceparts=$apt_dir/none"
  -o "Dir::Etc::preferences=$apt_dir/none" -o "Dir::Etc::preferencesparts=$apt_dir/none"
  -o "Dir::State=$apt_dir/state" -o "Dir::State::status=$apt_dir/status" -o "Dir::Cache=$apt_dir/cache"
  -o "APT::Sandbox::User=root" -o "Acquire::Languages=none")

refresh_lists() {
  command -v apt-get >/dev/null || die "apt-get is missing (Debian package apt)"
  mkdir -p "$apt_dir/state/lists/partial" "$apt_dir/cache/archives/partial" "$apt_dir/none"
  : >>"$apt_dir/status"
  local keyring=/usr/share/keyrings/debian-archive-keyring.gpg sources="$mirror $security_mirror $suite"
  printf 'deb [signed-by=%s] %s\n' "$keyring" "$mirror $suite main" >"$apt_dir/sources.list"
  if [ "$suite" != sid ]; then   # unstable has no security updates of its own
    printf 'deb [signed-by=%s] %s\n' "$keyring" "$security_mirror $suite-security main" >>"$apt_dir/sources.list"
  fi
  local stamp="$apt_dir/state/fetched"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sources" ] && [ -z "$(find "$stamp" -mmin +1440)" ]; then
    return
  fi
  say "fetching the package lists of $suite from $mirror and $security_mirror"
  if apt-get "${apt_options[@]}" -q update >"$apt_dir/update.log" 2>&1 && ! grep -q '^[WE]:' "$apt_dir/update.log"; then
    echo "$sources" >"$stamp"
  elif [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$sources" ]; then
    say "could not fetch them ($(grep -m1 '^[WE]:' "$apt_dir/update.log" | cut -c1-100)); using the ones of $(date -r "$stamp" +%F)"
  else
    cat "$apt_dir/update.log" >&2
    die "cannot fetch the package lists of $suite (apt's output above; JRXE_LAB_MIRROR and JRXE_LAB_SECURITY_MIRROR name other mirrors)"
  fi
}

candidates() { # "package=version" for every package named, as apt would install it (one apt-cache run)
  apt-cache "${apt_options[@]}" policy "$@" 2>/dev/null | awk '/^[^ ].*:$/ { p = substr($1, 1, length($1) - 1) } /Candidate:/ { print p "=" $2 }'
}

in_main() { # "package=version" for every package named, as the release's main suite has it
  apt-cache "${apt_options[@]}" madison "$@" 2>/dev/null \
    | awk -F ' [|] ' -v main=" $suite/main " 'index($3, main) { gsub(/ /, "", $1); gsub(/ /, "", $2); print $1 "=" $2 }'
}

refresh_lists
kernel_pkg=$(apt-cache "${apt_options[@]}" depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-/ && !k { k = $2 } END { print k }')
[ -n "$kernel_pkg" ] || die "the package lists of $suite name no linux-image-amd64 (is $suite a Debian release on $mirror?)"
kernel_release=${kernel_pkg#linux-image-}

versions=$(candidates "$kernel_pkg"; in_main "${guest_packages[@]}")
for p in "$kernel_pkg" "${guest_packages[@]}"; do
  grep -q "^$p=[^(]" <<<"$versions" || die "the package lists of $suite have no package $p"
done
key_text="suite=$suite mirror=$mirror $(echo $versions)"
key_text+=" modules=${guest_modules[*]}"
key_text+=" build=$(sha256sum "$lab_dir/build-image.sh" | cut -c1-16)"
key=$(printf '%s' "$key_text" | sha256sum | cut -c1-16)
image_dir="$release_dir/image-$key"

if [ -f "$image_dir/info" ] && [ -f "$image_dir/initrd.zst" ] && [ -f "$image_dir/vmlinuz" ]; then
  echo "$image_dir"
  exit 0
fi

for tool in debootstrap zstd cpio depmod modprobe; do
  command -v "$tool" >/dev/null || die "$tool is missing (Debian package $(case $tool in depmod|modprobe) echo kmod;; *) echo "$tool";; esac))"
done

mkdir -p "$release_dir"
work=$(mktemp -d "$release_dir/build.XXXXXX")
trap 'rm -rf "$work"' EXIT
start=$SECONDS

say "building the guest image $key (kernel $kernel_release, $suite) in $work"
# From 7.x on, linux-image-RELEASE is empty and depends on linux-binary-, linux-modules- and linux-base-RELEASE.
kernel_parts=$(apt-cache "${apt_options[@]}" depends "$kernel_pkg" 2>/dev/null \
  | awk -v r="$kernel_release" '$1 == "Depends:" && $2 ~ "^linux-(binary|modules|base)-" && substr($2, length($2) - length(r) + 1) == r { print $2 }' | sort -u)
say "[1/4] kernel: apt-get download $kernel_pkg" $kernel_parts
(cd "$work" && apt-get "${apt_options[@]}" download -q "$kernel_pkg" $kernel_parts >/dev/null 2>"$work/apt.log") \
  || { cat "$work/apt.log" >&2; die "apt-get download $kernel_pkg from $mirror failed (output above)"; }
for deb in "$work"/linux-*.deb; do
  dpkg -x "$deb" "$work/kernel"
done
# Debian 13's kernel keeps its modules in /usr/lib/modules; depmod and modprobe -d look in /lib/modules.
[ -d "$work/kernel/usr/lib/modules" ] && [ ! -e "$work/kernel/lib" ] && ln -s usr/lib "$work/kernel/lib"
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
  { modprobe -d "$work/kernel" -S "$kernel_release" --show-depends "$m" 2>/dev/null || true; } | awk '$1 == "insmod" { print $2 }'
done | sort -u | while read -r path; do
  rel=${path#"$work/kernel"}
  mkdir -p "$work/root$(dirname "$rel")"
  cp "$path" "$work/root$rel"
done
depmod -b "$work/root" "$kernel_release"
for m in "${guest_modules[@]}"; do
  modprobe -d "$work/root" -S "$kernel_release" --show-depends "$m" >/dev/null 2>&1 \
    || [[ " ${optional_modules[*]} " == *" $m "* ]] \
    || die "module $m is neither in the image nor built into $kernel_release"
done
say "      $(find "$mod_root" -name '*.ko*' | wc -l) modules"

say "[4/4] initramfs: slimming and packing with zstd"
rm -rf "$work/root"/usr/share/{doc,man,info,locale,lintian} "$work/root"/var/cache/apt/* "$work/root"/var/lib/apt/lists/*
echo jrxe-lab-guest >"$work/root/etc/hostname"
(cd "$work/root" && find . -xdev -print0 | cpio --null -o -H newc --quiet | zstd -q -T0 -9 -o "$work/initrd.zst")
if [ -f "$work/kernel/boot/vmlinuz-$kernel_release" ]; then
  cp "$work/kernel/boot/vmlinuz-$kernel_release" "$work/vmlinuz"
else   # 7.x keeps it with the modules
  cp "$work/kernel/lib/modules/$kernel_release/vmlinuz" "$work/vmlinuz"
fi

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
find "$release_dir" -mindepth 1 -maxdepth 1 -name 'image-*' ! -name "image-$key" -exec rm -rf {} +   # older versions of this release
say "      image ready: $image_dir (initramfs $(( $(stat -c %s "$image_dir/initrd.zst") / 1048576 )) MB, $((SECONDS - start)) s in all)"
echo "$image_dir"
