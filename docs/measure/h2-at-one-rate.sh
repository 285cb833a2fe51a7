#!/usr/bin/env bash
# What multiplexing saves, measured with h2load before SPICE's engine speaks HTTP/2: each server's cgroup CPU per
# request for each probe at one offered rate, over HTTP/1.1 keeping its connections (h2load --h1) and over h2c (prior
# knowledge, STREAMS concurrent streams a connection), in alternating runs of EACH_S seconds, CLIENTS connections
# either way; after each start START_WARM_S of the static file over each protocol, then WARM_S of each probe over
# each, unmeasured (the JIT of a fresh start still halved the figures over the first 20 s). h2load's --rps is a rate
# per client: the offered rate is CLIENTS x that. A run counts the requests h2load says were done (h2load 1.52 counts Tomcat's HTTP/1.1 answers as
# failed: their status line has no reason phrase) and the CPU the server's cgroup spent between h2load's start and end,
# connections' setup and teardown included alike. As root, from a checkout with the harness built and the servers
# installed; it starts each server on its default port and stops it. Prints a line per run and per pair:
# h2c / keepalive for the pair. docs/measurements.md, "HTTP/2 against HTTP/1.1 at one rate", has what it printed.
set -euo pipefail
RATE=${RATE:-2000} CLIENTS=${CLIENTS:-4} STREAMS=${STREAMS:-8} EACH_S=${EACH_S:-5} PAIRS=${PAIRS:-3}
WARM_S=${WARM_S:-5} START_WARM_S=${START_WARM_S:-20}
SERVERS=${SERVERS:-tomcat nginx} PROBES=${PROBES:-static servlet module}
root=$(dirname "$(readlink -f "$0")")/../..
spice=$root/scripts/spice

stop_all() { bash "$spice" server stop all >/dev/null 2>&1 || true; }
trap stop_all EXIT

usage_usec() { awk '$1 == "usage_usec" {print $2}' "$1/cpu.stat"; }

# run CGROUP URL PROTOCOL SECONDS: prints "requests cpu_usec"
run() {
    local group=$1 url=$2 protocol=$3 seconds=$4 before after out
    local args=(-c "$CLIENTS" --rps "$((RATE / CLIENTS))" -D "$seconds")
    if [ "$protocol" = keepalive ]; then args+=(--h1 -m 1); else args+=(-m "$STREAMS"); fi
    before=$(usage_usec "$group")
    out=$(h2load "${args[@]}" "$url" 2>&1)
    after=$(usage_usec "$group")
    echo "$(sed -n 's/^requests: [0-9]* total, [0-9]* started, \([0-9]*\) done.*/\1/p' <<< "$out") $((after - before))"
}

for server in $SERVERS; do
    stop_all
    started=$(bash "$spice" server start "$server")
    port=$(sed -n 's|.* on http://127.0.0.1:\([0-9]*\) (pid.*|\1|p' <<< "$started" | head -1)
    h2c=$(sed -n 's|.*h2c with prior knowledge on http://127.0.0.1:\([0-9]*\).*|\1|p' <<< "$started")
    group=$(bash "$spice" server cgroup "$server")
    declare -A path=([static]=/spice/static/spice.html [servlet]=/spice/servlet [module]=/spice/module)
    run "$group" "http://127.0.0.1:$port${path[static]}" keepalive "$START_WARM_S" >/dev/null
    run "$group" "http://127.0.0.1:$h2c${path[static]}" h2c "$START_WARM_S" >/dev/null
    for probe in $PROBES; do
        for protocol in keepalive h2c; do   # warm: the JIT, the pools, the connections' code paths
            p=$port; [ "$protocol" = keepalive ] || p=$h2c
            run "$group" "http://127.0.0.1:$p${path[$probe]}" "$protocol" "$WARM_S" >/dev/null
        done
        for pair in $(seq 1 "$PAIRS"); do
            order=(keepalive h2c); [ $((pair % 2)) = 1 ] || order=(h2c keepalive)
            declare -A us=()
            for protocol in "${order[@]}"; do
                p=$port; [ "$protocol" = keepalive ] || p=$h2c
                read -r requests cpu <<< "$(run "$group" "http://127.0.0.1:$p${path[$probe]}" "$protocol" "$EACH_S")"
                us[$protocol]=$(awk -v c="$cpu" -v n="$requests" 'BEGIN {printf "%.1f", c / n}')
                echo "$server $probe $protocol pair $pair: $requests requests, $(awk -v r="$requests" -v s="$EACH_S" \
                    'BEGIN {printf "%.0f", r / s}') req/s, ${us[$protocol]} us/request (server cgroup)"
            done
            echo "$server $probe pair $pair: h2c / keepalive $(awk -v a="${us[h2c]}" -v b="${us[keepalive]}" \
                'BEGIN {printf "%.3f", a / b}')"
        done
    done
done
