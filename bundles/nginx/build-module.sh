#!/usr/bin/env bash
# build-module.sh NGINX_SRC OUT: builds ngx_http_spice_module.so against the source of the running nginx's
# version (--with-compat, as distributions build nginx), into OUT.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
src=$1 out=$2
[ -f "$src/configure" ] \
    || { echo "building the module needs the running nginx version's source in --nginx-src (Debian: apt-get install nginx-dev)" >&2; exit 1; }
rm -rf "$out/build" && mkdir -p "$out/build"
cp -r "$src/." "$out/build/"
cd "$out/build"
./configure --with-compat --with-cc-opt="-O2 -fPIC -I$here/src" --with-ld-opt=-fPIC --add-dynamic-module="$here/src" > configure.log 2>&1 \
    || { tail -20 configure.log >&2; exit 1; }
make -f objs/Makefile modules > make.log 2>&1 || { tail -20 make.log >&2; exit 1; }
cp objs/ngx_http_spice_module.so "$out/"
echo "built $out/ngx_http_spice_module.so against $src"
