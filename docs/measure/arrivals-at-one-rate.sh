#!/usr/bin/env bash
# How the two clients of docs/measure/clients-at-one-rate.sh space their connections at one offered rate: SPICE's open
# loop and vegeta in turn, each 6 s of Tomcat's servlet at RATE (600 by default), ROUNDS times, with
# docs/measure/syn-arrivals.py stamping every SYN as it reaches the server. As root, from a checkout with the harness
# built, vegeta on PATH (or VEGETA=...); it starts Tomcat on 127.0.0.1:18082 and stops it. MODE=pinned puts the
# server on core 1 and the client on core 0 (default shared: both on both). docs/method.md, "Two clients at one rate",
# has what it printed.
set -euo pipefail
RATE=${RATE:-600} ROUNDS=${ROUNDS:-2} VEGETA=${VEGETA:-vegeta} PORT=18082 MODE=${MODE:-shared}
here=$(dirname "$(readlink -f "$0")")
root=$here/../..
url=http://127.0.0.1:$PORT/spice/servlet
out=$(mktemp -d)
cleanup() {
    bash "$root/scripts/spice" server stop tomcat --port "$PORT" >/dev/null 2>&1 || true
    rm -rf "$out"
}
trap cleanup EXIT
bash "$root/scripts/spice" server start tomcat --port "$PORT" >/dev/null
cpus=0,1
if [ "$MODE" = pinned ]; then
    cpus=0
    while read -r pid; do
        taskset -a -p -c 1 "$pid" >/dev/null
    done < "$(bash "$root/scripts/spice" server cgroup tomcat --port "$PORT")/cgroup.procs"
fi
echo "Tomcat's servlet at $RATE req/s offered, 6 s a client, SYNs as they reached the server, $MODE cores ($(nproc)" \
    "cores, $(date -u +%F))"
for ((round = 1; round <= ROUNDS; round++)); do
    python3 "$here/syn-arrivals.py" "$PORT" 8 > "$out/vegeta" &
    sleep 0.5
    echo "GET $url" | taskset -c "$cpus" "$VEGETA" attack -rate="$RATE" -duration=6s -keepalive=false > /dev/null
    wait
    echo "$round vegeta: $(cat "$out/vegeta")"
    python3 "$here/syn-arrivals.py" "$PORT" 10 > "$out/spice" &
    sleep 0.5
    taskset -c "$cpus" java -jar "$root/harness/target/spice-harness.jar" bench --target "http://127.0.0.1:$PORT" --probes servlet \
        --rate "$RATE" --duration 6 --ramp-up 0 --ramp-down 0 --warm-up 0 --cpu-time 0 --no-verify \
        --out "$out/results" > /dev/null 2>&1
    wait
    echo "$round spice:  $(cat "$out/spice")"
done
