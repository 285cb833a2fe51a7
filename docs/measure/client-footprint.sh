#!/usr/bin/env bash
# What each client's load costs the server at its closed-loop peak: the server's CPU per request (its whole process,
# /proc/PID/stat) and the client's, over 3 s in the middle of an 8 s run, with the requests counted by the kernel
# (TCP ActiveOpens over the same 3 s: one connection a request for every tool here). In turn, ROUNDS times: SPICE's
# engine as it runs (two event loops on two cores), the engine with one loop (a JVM told it has one processor), wrk -t2
# with Connection: close, and ab. The server must be running; nothing else should be.
#
#   PIDFILE=run/embedded-18080/server.pid URL=http://127.0.0.1:18080/spice/static/spice.html PROBE=static \
#       CLIENTS="8 32" ROUNDS=2 docs/measure/client-footprint.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
: "${PIDFILE:?give the server PID file}" "${URL:?give the probe URL}" "${PROBE:?give the probe name, for the engine}"
CLIENTS=${CLIENTS:-8} ROUNDS=${ROUNDS:-2}
server=$(cat "$PIDFILE")
for tool in wrk ab java; do
    command -v "$tool" >/dev/null || { echo "needs $tool (apt-get install wrk apache2-utils)" >&2; exit 1; }
done
[ -f harness/target/spice-harness.jar ] || { echo "needs the harness: scripts/spice build" >&2; exit 1; }

opens() { awk '/^Tcp:/ && ++k == 2 {print $6}' /proc/net/snmp; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

run() {   # run TOOL CLIENTS: one run, one line
    local tool=$1 clients=$2 pid settle out
    out=$(mktemp)
    case $tool in
        engine|engine-1)
            local cores=()
            [ "$tool" = engine ] || cores=(-XX:ActiveProcessorCount=1)
            java "${cores[@]}" -jar harness/target/spice-harness.jar bench --target "${URL%%/spice/*}" --probes "$PROBE" \
                --clients "$clients" --duration 6 --warm-up 2 --cpu-time 0 --no-verify >"$out" 2>&1 &
            settle=5.5 ;;
        wrk) wrk -t2 -c"$clients" -d8s -H 'Connection: close' "$URL" >"$out" 2>&1 & settle=2.5 ;;
        ab) ab -q -c "$clients" -t 8 -n 100000000 "$URL" >"$out" 2>&1 & settle=2.5 ;;
    esac
    pid=$!
    sleep "$settle"
    local n0 s0 c0 n1 s1 c1
    n0=$(opens); s0=$(ticks "$server"); c0=$(ticks "$(pgrep -P "$pid" java || echo "$pid")")
    sleep 3
    n1=$(opens); s1=$(ticks "$server"); c1=$(ticks "$(pgrep -P "$pid" java || echo "$pid")")
    wait "$pid" || true
    rm -f "$out"
    awk -v t="$tool" -v c="$clients" -v n=$((n1 - n0)) -v s=$((s1 - s0)) -v k=$((c1 - c0)) 'BEGIN {
        printf "%-8s %3d clients: %6.0f req/s, server %5.1f µs/req, client %5.1f µs/req\n", t, c, n / 3, 1e4 * s / n, 1e4 * k / n }'
}

for round in $(seq "$ROUNDS"); do
    for clients in $CLIENTS; do
        echo "round $round"
        for tool in engine engine-1 wrk ab; do
            run "$tool" "$clients"
        done
    done
done
