#!/usr/bin/env bash
# SPICE against vegeta at one rate on Tomcat and Jetty side by side: RUNS runs of VegetaRounds (harness/src/test/.../
# engine/VegetaRounds.java: SPICE's open round and a vegeta round alternating, ROUNDS rounds each, every arm a 1 s
# slice at RATE in a shuffled order, each server's CPU from its cgroup at the slices' edges). MODE=shared leaves
# clients and servers on both cores; MODE=pinned puts every thread of both servers on core 1 and the clients (the
# JVM running VegetaRounds, and vegeta, which inherits its affinity) on core 0. As root (the servers' cgroups), from a
# checkout with the harness and its tests compiled (mvn -o test-compile -pl harness -am) and vegeta where
# scripts/spice test installs it (or SPICE_VEGETA=...). It starts Tomcat (18082) and Jetty (18083), warms them with
# wrk, and stops them. ARRIVALS=poisson has SPICE's rounds send at random (bench's --arrivals); vegeta paces evenly
# either way. docs/measurements.md, "SPICE against vegeta at one rate", has what it printed.
set -euo pipefail
RATE=${RATE:-1200} ROUNDS=${ROUNDS:-16} RUNS=${RUNS:-3} MODE=${MODE:-shared} ARRIVALS=${ARRIVALS:-even}
root=$(dirname "$(readlink -f "$0")")/../..
spice=$root/scripts/spice
declare -A port=([tomcat]=18082 [jetty]=18083)
declare -A path=([static]=/spice/static/spice.html [servlet]=/spice/servlet [module]=/spice/module)
case $MODE in shared) servers_on=0,1 clients_on=0,1 ;; pinned) servers_on=1 clients_on=0 ;;
    *) echo "MODE is shared or pinned, not $MODE" >&2; exit 2 ;; esac
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
[ -d "$root/harness/target/test-classes/org/spice/bench/engine" ] \
    || { echo "the harness's tests are not compiled: mvn -o test-compile -pl harness -am" >&2; exit 1; }

cleanup() {
    local s
    for s in "${!port[@]}"; do bash "$spice" server stop "$s" --port "${port[$s]}" >/dev/null 2>&1 || true; done
}
trap cleanup EXIT

arms=()
for s in tomcat jetty; do
    bash "$spice" server start "$s" --port "${port[$s]}" >/dev/null
    cgroup=$(bash "$spice" server cgroup "$s" --port "${port[$s]}")
    [ -n "$cgroup" ] || { echo "$s has no cgroup" >&2; exit 1; }
    while read -r pid; do taskset -a -p -c "$servers_on" "$pid" >/dev/null; done < "$cgroup/cgroup.procs"
    for p in static servlet module; do
        url=http://127.0.0.1:${port[$s]}${path[$p]}
        taskset -c "$clients_on" wrk -c8 -t2 -d6s -H 'Connection: close' "$url" >/dev/null   # the JIT, the pools
        arms+=("$s/$p=$url@$cgroup")
    done
done

echo "VegetaRounds on Tomcat and Jetty, $RATE req/s, $ROUNDS rounds, SPICE's arrivals $ARRIVALS, $MODE" \
    "(servers on CPUs $servers_on, clients on" \
    "$clients_on), $(nproc) cores, $(date -u '+%F %H:%M')"
for ((run = 1; run <= RUNS; run++)); do
    echo "== run $run"
    (cd "$root/harness" && taskset -c "$clients_on" java -cp "target/test-classes:target/classes:target/lib/*" \
        -Dspice.arrivals="$ARRIVALS" org.spice.bench.engine.VegetaRounds "$RATE" "$ROUNDS" "${arms[@]}")
done
