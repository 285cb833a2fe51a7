#!/usr/bin/env bash
# The engine's closed-loop rate beside wrk's on one URL, a connection per request, in turn ROUNDS times at each client
# count: wrk -t2 (Connection: close), SPICE's engine as it runs (two event loops on two cores), the engine with one loop
# (a JVM told it has one processor), the engine on another JDK if JDK2 names its java, and Netty's native epoll
# transport under the barest closed loop (netty-epoll/, one loop and two). Rates from each tool's own count; a line a
# round and client count, with each rate over wrk's. The server must be running; nothing else should be.
#
#   URL=http://127.0.0.1:18080/spice/static/spice.html PROBE=static CLIENTS="8 32" ROUNDS=3 \
#       JDK2=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java docs/measure/engine-beside-wrk.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${URL:?give the probe URL}" "${PROBE:?give the probe name, for the engine}"
CLIENTS=${CLIENTS:-8 32} ROUNDS=${ROUNDS:-3} JDK2=${JDK2:-} SECONDS_EACH=5 WARM_UP=3
for tool in wrk java mvn curl; do
    command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install wrk maven curl)" >&2; exit 1; }
done
[ -f harness/target/spice-harness.jar ] || { echo "needs the harness: scripts/spice build" >&2; exit 1; }
netty=docs/measure/netty-epoll
if [ ! -f "$netty/target/netty-epoll-client-1.jar" ]; then
    (cd "$netty" && mvn -B -q package) || { echo "cannot build $netty (its first build needs the network)" >&2; exit 1; }
fi
classpath=$(find "$netty/target" -maxdepth 2 -name '*.jar' | paste -sd:)
port=${URL#*://*:}; port=${port%%/*}
path=/${URL#*://*/}
bytes=$(curl -sf -0 -o /dev/null -w '%{size_header} + %{size_download}' "$URL") ||
    { echo "no answer from $URL: is the server running?" >&2; exit 1; }
bytes=$((bytes))
out=$(mktemp)
trap 'rm -f "$out"' EXIT

rate() {   # rate TOOL PATTERN FIELD: the rate in what TOOL printed to $out, or what it printed and an exit
    local found
    found=$(grep -o "$2" "$out" | awk -v f="$3" '{print $f}' | head -1)
    [ -n "$found" ] || { echo "$1 gave no rate; it printed:" >&2; tail -5 "$out" >&2; exit 1; }
    echo "$found"
}

engine() {   # engine CLIENTS JAVA [JVM options]: the engine's rate
    local clients=$1 java=$2
    shift 2
    "$java" "$@" -jar harness/target/spice-harness.jar bench --target "${URL%%/spice/*}" --probes "$PROBE" \
        --clients "$clients" --duration "$SECONDS_EACH" --warm-up "$WARM_UP" --cpu-time 0 --no-verify > "$out" 2>&1 || true
    rate "the engine ($java${*:+ $*})" 'repeat 1: [0-9.]* req/s' 3
}

over() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }

echo "# $(date -u +%FT%TZ) $URL, $bytes bytes a response, ${SECONDS_EACH} s after ${WARM_UP} s, $(nproc) cores"
for round in $(seq "$ROUNDS"); do
    for clients in $CLIENTS; do
        wrk -t2 -c"$clients" -d"${SECONDS_EACH}s" -H 'Connection: close' "$URL" > "$out" 2>&1 || true
        w=$(rate wrk 'Requests/sec: *[0-9.]*' 2)
        e2=$(engine "$clients" java)
        e1=$(engine "$clients" java -XX:ActiveProcessorCount=1)
        line="round $round, $clients clients: wrk $w; engine $e2 ($(over "$e2" "$w")), one loop $e1 ($(over "$e1" "$w"))"
        if [ -n "$JDK2" ]; then
            ej=$(engine "$clients" "$JDK2")
            line="$line, on $("$JDK2" -version 2>&1 | head -1 | awk '{print $3}' | tr -d '"') $ej ($(over "$ej" "$w"))"
        fi
        for loops in 1 2; do
            java -cp "$classpath" spice.measure.NettyEpollClient "$port" "$path" "$clients" "$SECONDS_EACH" "$WARM_UP" \
                "$loops" "$bytes" > "$out" 2>&1 || true
            n=$(rate "Netty's client" ': [0-9]* req/s' 2)
            line="$line; netty epoll, $loops loop(s) $n ($(over "$n" "$w"))"
        done
        echo "$line"
    done
done
