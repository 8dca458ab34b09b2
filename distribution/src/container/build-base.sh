#!/bin/sh
# Builds the container image's base from Debian 12 packages (no container registry needed): a minbase root file
# system with the user the platform runs as (uid 10001, which the embedded PostgreSQL's initdb must be able to look
# up) and its writable folders, packed as a `docker save`-format tar, the form Jib takes as a local base image.
# Needs root (debootstrap) and the Debian package mirror; run by the `container` Maven profile (.ci/run).
# Usage: build-base.sh <work dir> <output tar>
set -eu
work=$1
out=$2
# The Debian mirror this machine's apt already uses (deb822 .sources or a classic sources.list line), unless
# LNP_DEBIAN_MIRROR names one.
apt_mirror() {
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && sed -n 's/^URIs:[[:space:]]*\([^[:space:]]*\).*/\1/p' "$f" | head -n 1 && return 0
    done
    [ -f /etc/apt/sources.list ] && sed -n 's/^deb[[:space:]]\{1,\}\(\[[^]]*\][[:space:]]\{1,\}\)\{0,1\}\([^[:space:]]*\).*/\2/p' \
        /etc/apt/sources.list | head -n 1
}
mirror=${LNP_DEBIAN_MIRROR:-$(apt_mirror)}
if [ -z "$mirror" ]; then
    echo "error: no Debian mirror found in /etc/apt; set LNP_DEBIAN_MIRROR" >&2
    exit 1
fi
rootfs=$work/rootfs

if [ ! -x "$rootfs/bin/sh" ]; then
    rm -rf "$rootfs"
    debootstrap --variant=minbase bookworm "$rootfs" "$mirror"
fi
# Package caches and lists are not needed in the image.
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
grep -q '^lnp:' "$rootfs/etc/passwd" || {
    echo 'lnp:x:10001:10001:LNP platform:/opt/lnp:/usr/sbin/nologin' >> "$rootfs/etc/passwd"
    echo 'lnp:x:10001:' >> "$rootfs/etc/group"
}
mkdir -p "$rootfs/opt/lnp/data" "$rootfs/opt/lnp/cache"
chown 10001:10001 "$rootfs/opt/lnp/data" "$rootfs/opt/lnp/cache"

image=$work/base-image
rm -rf "$image" && mkdir -p "$image"
tar --numeric-owner -C "$rootfs" -cf "$image/layer.tar" .
diff_id=$(sha256sum "$image/layer.tar" | cut -d' ' -f1)
printf '{"architecture":"amd64","os":"linux","config":{"Env":["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}\n' \
    "$diff_id" > "$image/config.json"
printf '[{"Config":"config.json","RepoTags":["lnp-base:bookworm"],"Layers":["layer.tar"]}]\n' > "$image/manifest.json"
tar -C "$image" -cf "$out" manifest.json config.json layer.tar
