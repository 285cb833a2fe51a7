#!/usr/bin/env bash
# Whose CPU the connection is: the server's and the client's cgroup CPU per request (user and system), a connection
# per request and kept, at one offered rate (vegeta), on loopback and across a veth pair into a network namespace
# (two hosts on one machine; the server started with nsenter, which keeps the cgroup hierarchy that ip netns exec's
# fresh /sys hides). As root, from a checkout, with vegeta on PATH (or VEGETA=...); it starts the embedded
# server twice (127.0.0.1:18080 and 10.231.0.2:18090 in the namespace spice-lb), and removes all it made.
# docs/method.md, "Whose CPU the connection is", has what it printed.
set -euo pipefail
RATE=${RATE:-2000} EACH_S=${EACH_S:-10} ROUNDS=${ROUNDS:-3} VEGETA=${VEGETA:-vegeta}
spice=$(dirname "$(readlink -f "$0")")/../../scripts/spice
client=/sys/fs/cgroup/unified/spice-loopback-client

cleanup() {
    bash "$spice" server stop embedded --port 18080 >/dev/null 2>&1 || true
    nsenter --net=/run/netns/spice-lb bash "$spice" server stop embedded --port 18090 >/dev/null 2>&1 || true
    ip netns del spice-lb 2>/dev/null || true
    ip link del veth-lb0 2>/dev/null || true
    rmdir "$client" 2>/dev/null || true
}
trap cleanup EXIT

ip netns add spice-lb
ip link add veth-lb0 type veth peer name veth-lb1
ip link set veth-lb1 netns spice-lb
ip addr add 10.231.0.1/24 dev veth-lb0 && ip link set veth-lb0 up
ip netns exec spice-lb sh -c 'ip addr add 10.231.0.2/24 dev veth-lb1 && ip link set veth-lb1 up && ip link set lo up'
bash "$spice" server start embedded --port 18080 >/dev/null
nsenter --net=/run/netns/spice-lb bash "$spice" server start embedded --port 18090 --listen 10.231.0.2 >/dev/null
loop_cg=$(bash "$spice" server cgroup embedded --port 18080)
ns_cg=$(nsenter --net=/run/netns/spice-lb bash "$spice" server cgroup embedded --port 18090)
mkdir -p "$client"
[ -n "$loop_cg" ] && [ -n "$ns_cg" ] || { echo "a server has no cgroup: $loop_cg / $ns_cg" >&2; exit 1; }

usec() { awk '$1 == "user_usec" {u = $2} $1 == "system_usec" {s = $2} END {print u, s}' "$1/cpu.stat"; }

# LABEL URL KEEPALIVE SERVER_CGROUP: one run of EACH_S seconds; its requests and four figures, µs a request
measure() {
    local label=$1 url=$2 keep=$3 server=$4 su0 ss0 cu0 cs0 su1 ss1 cu1 cs1 n
    read -r su0 ss0 <<< "$(usec "$server")"
    read -r cu0 cs0 <<< "$(usec "$client")"
    # shellcheck disable=SC2016  # expanded by the inner shell, which joins the client's cgroup first
    n=$(bash -c 'echo $$ > "$1/cgroup.procs"; echo "GET $2" | exec "$3" attack -rate="$4" -duration="$5s" -keepalive="$6" -timeout=5s' \
        _ "$client" "$url" "$VEGETA" "$RATE" "$EACH_S" "$keep" \
        | "$VEGETA" report | awk '/^Requests/ {gsub(",", "", $5); t = $5} /^Success/ {s = $3 + 0} END {printf "%d", t * s / 100}')
    read -r su1 ss1 <<< "$(usec "$server")"
    read -r cu1 cs1 <<< "$(usec "$client")"
    awk -v l="$label" -v n="$n" -v su=$((su1 - su0)) -v ss=$((ss1 - ss0)) -v cu=$((cu1 - cu0)) -v cs=$((cs1 - cs0)) \
        'BEGIN {printf "%-24s %6d ok  server user %6.1f sys %6.1f  client user %6.1f sys %6.1f  (µs a request)\n",
            l, n, su / n, ss / n, cu / n, cs / n}'
}

for keep in false true; do   # warm: the JITs, the pools; not printed
    measure warm "http://127.0.0.1:18080/spice/static/spice.html" "$keep" "$loop_cg" >/dev/null
    measure warm "http://10.231.0.2:18090/spice/static/spice.html" "$keep" "$ns_cg" >/dev/null
done
for ((round = 1; round <= ROUNDS; round++)); do
    for keep in false true; do
        measure "loopback keepalive=$keep" "http://127.0.0.1:18080/spice/static/spice.html" "$keep" "$loop_cg"
        measure "veth keepalive=$keep" "http://10.231.0.2:18090/spice/static/spice.html" "$keep" "$ns_cg"
    done
done
