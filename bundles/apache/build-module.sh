#!/usr/bin/env bash
# build-module.sh APXS OUT: builds mod_spice.so for this machine's httpd with its own apxs, into OUT.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
apxs=$1 out=$2
[ -n "$apxs" ] && command -v "$apxs" >/dev/null \
    || { echo "building mod_spice needs apxs: apt-get install apache2-dev (RHEL: dnf install httpd-devel)" >&2; exit 1; }
mkdir -p "$out/build"
cp "$here/mod_spice.c" "$here/spice_page.h" "$out/build/"
(cd "$out/build" && "$apxs" -c -Wc,-Wall -I. mod_spice.c)
cp "$out/build/.libs/mod_spice.so" "$out/mod_spice.so"
echo "built $out/mod_spice.so with $apxs"
