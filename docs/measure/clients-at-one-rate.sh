#!/usr/bin/env bash
# The client's footprint on the server: Tomcat's cgroup CPU per request (user and system) for each probe at one
# offered rate, driven by SPICE's open loop (HTTP/1.0, a connection each) and by vegeta (HTTP/1.1 with Connection:
# close, a connection each), in alternating runs; both on the two cores the server shares, then with the server
# pinned to core 1 and the client to core 0. Each run also gives the client's own CPU per request (its cgroup;
# SPICE's includes its JVM's start), which side held the TIME_WAITs, and how the server's threads were scheduled
# (context switches, migrations between cores, time runnable but waiting for a core, all per request). As root, from
# a checkout with the harness built, vegeta on PATH (or VEGETA=...); it starts Tomcat on 127.0.0.1:18082 and stops
# it, and removes the client's cgroup. Last, each tool alone for 5 s of the servlet, after the TIME_WAITs of the
# minute before have expired: which side holds them. docs/method.md, "Two clients at one rate", has what it printed.
# TOOLS picks the clients (default "spice vegeta"; "spiceburn" is SPICE's with a stand-in for vegeta's own CPU
# beside it: a process in the client's cgroup spinning 0.6 ms of every 1.7, about a third of a core, as vegeta
# spends at this rate), PROBES the probes, TIME_WAITS=0 skips the last part.
set -euo pipefail
RATE=${RATE:-600} EACH_S=${EACH_S:-10} ROUNDS=${ROUNDS:-3} VEGETA=${VEGETA:-vegeta} PORT=18082
MODES=${MODES:-shared pinned}   # shared: client and server on both cores; pinned: the server on core 1, the client on 0
# VEGETA_PROCS=N runs vegeta with GOMAXPROCS=N (Go's default: a thread running Go code per core)
[ -z "${VEGETA_PROCS:-}" ] || export GOMAXPROCS=$VEGETA_PROCS
root=$(dirname "$(readlink -f "$0")")/../..
spice=$root/scripts/spice
jar=$root/harness/target/spice-harness.jar
client=/sys/fs/cgroup/unified/spice-clients-at-one-rate
out=$(mktemp -d)

cleanup() {
    bash "$spice" server stop tomcat --port "$PORT" >/dev/null 2>&1 || true
    rmdir "$client" 2>/dev/null || true
    rm -rf "$out"
}
trap cleanup EXIT

bash "$spice" server start tomcat --port "$PORT" >/dev/null
server=$(bash "$spice" server cgroup tomcat --port "$PORT")
[ -n "$server" ] || { echo "tomcat has no cgroup" >&2; exit 1; }
mkdir -p "$client"
base=http://127.0.0.1:$PORT
declare -A url=([static]=$base/spice/static/spice.html [servlet]=$base/spice/servlet [module]=$base/spice/module)

usec() { awk '$1 == "user_usec" {u = $2} $1 == "system_usec" {s = $2} END {print u, s}' "$1/cpu.stat"; }

# The server's scheduling, summed over every thread of its processes: voluntary and involuntary context switches,
# migrations between cores; and the cgroup's CPU pressure (µs in which some of its threads were runnable and waiting).
sched() {
    local pid
    while read -r pid; do cat /proc/"$pid"/task/*/sched 2>/dev/null; done < "$server/cgroup.procs" \
        | awk '$1 == "nr_voluntary_switches" {v += $3} $1 == "nr_involuntary_switches" {i += $3}
               $1 == "se.nr_migrations" {m += $3} END {printf "%d %d %d ", v, i, m}'
    awk '$1 == "some" {sub("total=", "", $5); print $5}' "$server/cpu.pressure"
}

# Every thread of the server's processes on CPUS (a list for taskset).
pin_server() {
    local pid
    while read -r pid; do taskset -a -p -c "$1" "$pid" >/dev/null 2>&1 || true; done < "$server/cgroup.procs"
}

# CLIENT PROBE CPUS: EACH_S seconds of load at RATE; prints the requests answered.
load() {
    local tool=$1 probe=$2 cpus=$3
    if [ "$tool" = vegeta ]; then
        # shellcheck disable=SC2016  # expanded by the inner shell, which joins the client's cgroup first
        bash -c 'echo $$ > "$1/cgroup.procs"; echo "GET $2" | exec taskset -c "$3" "$4" attack -rate="$5" -duration="$6s" \
            -keepalive=false -timeout=5s' _ "$client" "${url[$probe]}" "$cpus" "$VEGETA" "$RATE" "$EACH_S" \
            | "$VEGETA" report | awk '/^Requests/ {gsub(",", "", $5); t = $5} /^Success/ {s = $3 + 0} END {printf "%d", t * s / 100}'
    else
        if [ "$tool" = spiceburn ]; then
            # shellcheck disable=SC2016
            bash -c 'echo $$ > "$1/cgroup.procs"; exec taskset -c "$2" python3 -c "$3" "$4"' _ "$client" "$cpus" '
import sys, time
end = time.time() + float(sys.argv[1])
while time.time() < end:
    t = time.perf_counter()
    while time.perf_counter() - t < 0.0006:
        pass
    time.sleep(0.001)' $((EACH_S + 2)) &
        fi
        rm -rf "$out/spice"
        # shellcheck disable=SC2016
        bash -c 'echo $$ > "$1/cgroup.procs"; exec taskset -c "$2" java -jar "$3" bench --target "$4" --probes "$5" \
            --rate "$6" --duration "$7" --ramp-up 0 --ramp-down 0 --warm-up 0 --cpu-time 0 --no-verify --out "$8"' \
            _ "$client" "$cpus" "$jar" "$base" "$probe" "$RATE" "$EACH_S" "$out/spice" >/dev/null 2>&1
        python3 -c 'import json, glob, sys
d = json.load(open(glob.glob(sys.argv[1] + "/*/results.json")[0]))
print(sum(o["succeeded"] for o in d.get("open_loop", [])), end="")' "$out/spice"
        wait   # the stand-in, if any
    fi
}

# LABEL TOOL PROBE CLIENT_CPUS: one run; its requests, the server's and the client's CPU a request, the TIME_WAITs
measure() {
    local label=$1 su0 ss0 cu0 cs0 su1 ss1 cu1 cs1 n tw v0 i0 m0 p0 v1 i1 m1 p1
    read -r su0 ss0 <<< "$(usec "$server")"
    read -r cu0 cs0 <<< "$(usec "$client")"
    read -r v0 i0 m0 p0 <<< "$(sched)"
    n=$(load "$2" "$3" "$4")
    read -r v1 i1 m1 p1 <<< "$(sched)"
    read -r su1 ss1 <<< "$(usec "$server")"
    read -r cu1 cs1 <<< "$(usec "$client")"
    tw=$(ss -Htan state time-wait | awk -v p=":$PORT" '$3 ~ p"$" {s++} $4 ~ p"$" {c++} END {printf "%d/%d", s, c}')
    awk -v l="$label" -v n="$n" -v su=$((su1 - su0)) -v ss=$((ss1 - ss0)) -v cu=$((cu1 - cu0)) -v cs=$((cs1 - cs0)) \
        -v tw="$tw" -v v=$((v1 - v0)) -v i=$((i1 - i0)) -v m=$((m1 - m0)) -v p=$((p1 - p0)) \
        'BEGIN {if (n == 0) {printf "%-28s no request answered\n", l; exit}
            printf "%-28s %6d ok  server %6.1f (user %6.1f sys %6.1f)  client %6.1f  TIME_WAIT server/client %s", l, n,
            (su + ss) / n, su / n, ss / n, (cu + cs) / n, tw
            printf "  a request: switches %.2f vol %.2f invol, %.2f migrations, waited %.1f µs\n", v / n, i / n, m / n,
            p / n}'
}

echo "Tomcat at $RATE req/s offered, $EACH_S s a run, CPU in µs a request ($(nproc) cores, $(date -u +%F))${GOMAXPROCS:+,}\
${GOMAXPROCS:+ vegeta with GOMAXPROCS=$GOMAXPROCS}"
for probe in ${PROBES:-static servlet module}; do   # warm: the JITs, the pools; not printed
    measure warm spice "$probe" 0,1 >/dev/null
    measure warm vegeta "$probe" 0,1 >/dev/null
done
for ((round = 1; round <= ROUNDS; round++)); do
    for mode in $MODES; do
        if [ "$mode" = pinned ]; then pin_server 1; cpus=0; else pin_server 0,1; cpus=0,1; fi
        for probe in ${PROBES:-static servlet module}; do
            for tool in ${TOOLS:-spice vegeta}; do
                measure "$round $mode $probe $tool" "$tool" "$probe" "$cpus"
            done
        done
    done
done

[ "${TIME_WAITS:-1}" != 0 ] || exit 0
# Which side holds the TIME_WAITs: each tool alone, 5 s of the servlet, after the last minute's have expired.
time_waits() {
    ss -Htan state time-wait | awk -v p=":$PORT" '$3 ~ p"$" {s++} $4 ~ p"$" {c++} END {printf "server %d, client %d", s, c}'
}
pin_server 0,1
for tool in vegeta spice; do
    sleep 61
    before=$(time_waits)
    EACH_S=5 load "$tool" servlet 0,1 >/dev/null
    echo "TIME_WAIT before $tool: $before; after 5 s of the servlet: $(time_waits)"
done
