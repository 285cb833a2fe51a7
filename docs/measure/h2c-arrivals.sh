#!/usr/bin/env bash
# How the requests' arrival moves a server's CPU per request over h2c at one offered rate: nginx's static file (or
# SERVER, PROBE) at RATE over 30 connections, SPICE's open loop round by round with each of ARRIVALS in turn (bench's
# --arrivals: even, a request every 1 / RATE s, and poisson, at random), h2load as 30 independent processes of one
# client after each round (docs/measure/h2load-processes.py).
# The server's CPU from /proc, its process tree; PIN=1 puts the server on CPU 0 and both clients on CPU 1. From a
# checkout with the harness built (scripts/spice build) and the server installed; it starts the server on its
# default port and stops it. docs/measurements.md, "SPICE against h2load", has what it printed.
set -euo pipefail
SERVER=${SERVER:-nginx} PROBE=${PROBE:-static} RATE=${RATE:-3000} SECONDS_EACH=${SECONDS_EACH:-5}
ROUNDS=${ROUNDS:-4} ARRIVALS=${ARRIVALS:-even,poisson} PIN=${PIN:-}
here=$(dirname "$(readlink -f "$0")")
root=$here/../..
spice=$root/scripts/spice
jar=$root/harness/target/spice-harness.jar
[ -f "$jar" ] || { echo "h2c-arrivals: build first: scripts/spice build" >&2; exit 1; }
command -v h2load >/dev/null || { echo "h2c-arrivals: h2load is missing: apt-get install nghttp2-client" >&2; exit 1; }
work=$(mktemp -d)
stop_all() { bash "$spice" server stop "$SERVER" >/dev/null 2>&1 || true; rm -rf "$work"; }
trap stop_all EXIT

classpath="$jar:$(find "$root/harness/target/lib" -name '*.jar' | sort | tr '\n' ':')"
mkdir -p "$work/driver"
javac -nowarn -d "$work/driver" -cp "$classpath" "$here/OpenRoundsBeside.java"

started=$(bash "$spice" server start "$SERVER")
port=$(sed -n 's|.*h2c with prior knowledge on http://127.0.0.1:\([0-9]*\).*|\1|p' <<< "$started" | head -1)
[ -n "$port" ] || port=$(sed -n 's|.* on http://127.0.0.1:\([0-9]*\) (pid.*|\1|p' <<< "$started" | head -1)
pid=$(sed -n 's|.* (pid \([0-9]*\).*|\1|p' <<< "$started" | head -1)
url=http://127.0.0.1:$port
path=/spice/$PROBE
[ "$PROBE" != static ] || path=/spice/static/spice.html
client=()
if [ -n "$PIN" ]; then
    for task in "$pid" $(pgrep -P "$pid"); do taskset -a -p 1 "$task" > /dev/null; done
    client=(taskset -c 1)
fi
echo "# $SERVER $PROBE over h2c at $RATE req/s, 30 connections, $SECONDS_EACH s rounds, $(date -u +%FT%TZ)${PIN:+, pinned apart}"
export OTHER="${client[*]} python3 $here/h2load-processes.py {url}$path {pid} $SECONDS_EACH"
"${client[@]}" java -cp "$work/driver:$classpath" OpenRoundsBeside h2c "$RATE" "$SECONDS_EACH" "$ROUNDS" "$PROBE" \
    "$ARRIVALS" "$SERVER,$url,$pid" 2>&1 | grep -v SLF4J
