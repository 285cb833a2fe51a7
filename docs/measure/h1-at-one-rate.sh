#!/usr/bin/env bash
# SPICE against h2load over HTTP/1.1 kept connections at one rate (issue 62's second rate): SERVERS started side by
# side (jetty on 18083; tomcat on 18082 beside it where h2load can read it, which h2load --h1 cannot: it counts Tomcat
# 11's responses as failed, their status line having no reason phrase), then for each of PROBES, ROUNDS rounds in
# which each server in turn takes SPICE's open loop (bench's keepalive protocol, each of ARRIVALS in turn) and then
# h2load as 30 processes of one client at --rps 100 (--h1, one kept connection each; h2load-processes.py), all at
# RATE; each run SECONDS one-second slices after a 0.5 s lead-in, the server's CPU per request from /proc. From a
# checkout with the harness built (scripts/spice build) and the servers installed; it starts and stops them.
# docs/measurements.md, "SPICE against vegeta at one rate", has what it printed.
set -euo pipefail
RATE=${RATE:-3000} SECONDS_EACH=${SECONDS_EACH:-3} ROUNDS=${ROUNDS:-6} PROBES=${PROBES:-static servlet module}
ARRIVALS=${ARRIVALS:-poisson} SERVERS=${SERVERS:-jetty}
here=$(dirname "$(readlink -f "$0")")
root=$here/../..
spice=$root/scripts/spice
jar=$root/harness/target/spice-harness.jar
[ -f "$jar" ] || { echo "h1-at-one-rate: build first: scripts/spice build" >&2; exit 1; }
command -v h2load >/dev/null || { echo "h1-at-one-rate: h2load is missing: apt-get install nghttp2-client" >&2; exit 1; }
[ $((RATE % 100)) -eq 0 ] || { echo "h1-at-one-rate: RATE is a multiple of 100 (h2load's clients at 100 req/s)" >&2; exit 2; }
declare -A port=([tomcat]=18082 [jetty]=18083)
declare -A path=([static]=/spice/static/spice.html [servlet]=/spice/servlet [module]=/spice/module)
work=$(mktemp -d)
cleanup() {
    local s
    for s in "${!port[@]}"; do bash "$spice" server stop "$s" --port "${port[$s]}" >/dev/null 2>&1 || true; done
    rm -rf "$work"
}
trap cleanup EXIT

classpath="$jar:$(find "$root/harness/target/lib" -name '*.jar' | sort | tr '\n' ':')"
javac -nowarn -d "$work" -cp "$classpath" "$here/OpenRoundsBeside.java"
servers=()
for s in $SERVERS; do
    [ -n "${port[$s]:-}" ] || { echo "h1-at-one-rate: SERVERS are tomcat and jetty, not $s" >&2; exit 2; }
    started=$(bash "$spice" server start "$s" --port "${port[$s]}")
    pid=$(sed -n 's|.* (pid \([0-9]*\).*|\1|p' <<< "$started" | head -1)
    [ -n "$pid" ] || { echo "h1-at-one-rate: no pid in what $s's start printed: $started" >&2; exit 1; }
    servers+=("$s,http://127.0.0.1:${port[$s]},$pid")
done
echo "# $SERVERS over HTTP/1.1 kept connections at $RATE req/s, $SECONDS_EACH s runs, $(date -u +%FT%TZ)"
for probe in $PROBES; do
    export OTHER="H1=1 python3 $here/h2load-processes.py {url}${path[$probe]} {pid} $SECONDS_EACH $((RATE / 100))"
    java -cp "$work:$classpath" OpenRoundsBeside keepalive "$RATE" "$SECONDS_EACH" "$ROUNDS" "$probe" "$ARRIVALS" \
        "${servers[@]}" 2>&1 | grep -v SLF4J | sed "s|^|$probe |"
done
