# The deploy path on two hosts, as docs/deploy.md tells it: the apache and tomcat bundles installed by their own
# install.sh into a stock httpd and a stock Tomcat on the server's host, each served on that host's address with a
# metrics agent of its own (--pid-file: neither runs in a cgroup of its own); from the client's host, a network
# namespace made here and removed, verify of every probe of each bundle and one bench of both deployments side by
# side; then the agents stop (the servers back in their cgroups), the bundles uninstall (the stock layouts as they
# were) and the namespace goes. It stands for the httpd-2.4 and tomcat-11 cells where it runs (root, ip netns).
# Sourced by stock.sh (scripts/spice test-bundles two-hosts).
# shellcheck shell=bash

TWO_HOSTS_SERVER=10.213.98.2
TWO_HOSTS_CLIENT=10.213.98.1
TWO_HOSTS_HTTPD_PORT=18611
TWO_HOSTS_TOMCAT_PORT=18613
TWO_HOSTS_AGENTS=(19711 19721)

# Another host: a namespace NS linked to this one by a veth pair LINK, this end's address HERE, the namespace's THERE
# (by default this host the server, the namespace the client).
two_hosts_link() {
    local ns=$1 link=$2 here=${3:-$TWO_HOSTS_SERVER} there=${4:-$TWO_HOSTS_CLIENT}
    ip netns add "$ns" || return 1
    ip link add "$link" type veth peer name "${link}c" \
        && ip link set "${link}c" netns "$ns" \
        && ip addr add "$here/30" dev "$link" && ip link set "$link" up \
        && ip netns exec "$ns" ip addr add "$there/30" dev "${link}c" \
        && ip netns exec "$ns" ip link set "${link}c" up && ip netns exec "$ns" ip link set lo up
}

two_hosts_unlink() {
    local ns=$1 link=$2 left
    left=$(ip netns pids "$ns" 2>/dev/null | alive_only)
    [ -z "$left" ] || { echo "two hosts: processes left on the client's host: $left" >&2; echo "$left" | xargs -r kill -KILL 2>/dev/null; }
    ip link del "$link" 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
}

# The cgroup v2 path of the process in PIDFILE.
two_hosts_cgroup() {
    sed -n 's/^0:://p' "/proc/$(tr -dc '0-9' < "$1")/cgroup"
}

# A metrics agent on the server's host for the server whose PID file is PIDFILE; prints its --server-metrics value.
two_hosts_agent() {
    local port=$1 pidfile=$2
    bash "$SPICE_ROOT/scripts/spice" metrics-agent start --host "$TWO_HOSTS_SERVER" --port "$port" --pid-file "$pidfile" \
        | sed -n 's/^--server-metrics //p'
}

# The side-by-side results against what docs/deploy.md promises: every name's CPU from its cgroup (CGI's too), every
# probe's ratio to the static file with an interval, and each cross ratio with one (the harness's check-results).
two_hosts_check() {
    harness check-results "$1" --label "two hosts"
}

# Whether the two hosts can be made here: root, and ip netns.
two_hosts_possible() {
    [ "$(id -u)" -eq 0 ] && command -v ip >/dev/null 2>&1 && ip netns list >/dev/null 2>&1
}

# The apache and tomcat bundles' archives, Tomcat's VERSION, the probes verify asks each for, and the probes bench
# measures side by side: empty for every probe each serves (by hand: some 4 min), else a list (the suite's).
stock_two_hosts() {
    local apache=$1 tomcat=$2 version=$3 httpd_probes=$4 tomcat_probes=$5 measured=$6 root ns="spice-client-$$"
    local link="spv$(($$ % 100000))" result=0
    root=$(mktemp -d "${TMPDIR:-/tmp}/spice-two-hosts.XXXXXX")
    chmod 755 "$root"
    mkdir -p "$root/httpd/bundle" "$root/tomcat/bundle"
    tar -xzf "$apache" -C "$root/httpd/bundle" --strip-components=1
    tar -xzf "$tomcat" -C "$root/tomcat/bundle" --strip-components=1
    two_hosts_run "$root" "$ns" "$link" "$version" "$httpd_probes" "$tomcat_probes" "$measured" || result=1
    for port in "${TWO_HOSTS_AGENTS[@]}"; do
        bash "$SPICE_ROOT/scripts/spice" metrics-agent stop --port "$port" > /dev/null 2>&1 || true
    done
    TMP="$root/httpd" stock_apache2 -k stop > /dev/null 2>&1 || true
    stop_pids "$root/httpd"
    stop_pids "$root/tomcat"
    [ ! -x "$root/httpd/opt/spice/apache/bin/spice-helpers" ] || "$root/httpd/opt/spice/apache/bin/spice-helpers" stop >/dev/null 2>&1 || true
    two_hosts_unlink "$ns" "$link"
    rm -rf "$root"
    return "$result"
}

# The path itself, in ROOT (the bundles unpacked in ROOT/httpd/bundle and ROOT/tomcat/bundle).
two_hosts_run() {
    local root=$1 ns=$2 link=$3 version=$4 httpd_probes=$5 tomcat_probes=$6 measured=$7 server=$TWO_HOSTS_SERVER
    local out httpd tomcat metrics_httpd metrics_tomcat before_httpd before_tomcat origin_httpd origin_tomcat
    two_hosts_link "$ns" "$link" || { echo "two hosts: cannot make the client's host" >&2; return 1; }
    TMP="$root/httpd" stock_httpd_up "$TWO_HOSTS_HTTPD_PORT" "$server" || return 1
    before_httpd=$STOCK_BEFORE
    TMP="$root/tomcat" stock_tomcat_up "$TWO_HOSTS_TOMCAT_PORT" "$version" "$server" || return 1
    before_tomcat=$STOCK_BEFORE
    httpd="http://$server:$TWO_HOSTS_HTTPD_PORT"
    tomcat="http://$server:$TWO_HOSTS_TOMCAT_PORT"
    wait_port "$TWO_HOSTS_HTTPD_PORT" /spice/static/spice.html "" "$server" \
        && wait_port "$TWO_HOSTS_TOMCAT_PORT" /spice/static/spice.html "$root/tomcat/tomcat.pid" "$server" || return 1
    origin_httpd=$(two_hosts_cgroup "$root/httpd/run/apache2.pid")
    origin_tomcat=$(two_hosts_cgroup "$root/tomcat/tomcat.pid")
    metrics_httpd=$(two_hosts_agent "${TWO_HOSTS_AGENTS[0]}" "$root/httpd/run/apache2.pid") && [ -n "$metrics_httpd" ] || return 1
    metrics_tomcat=$(two_hosts_agent "${TWO_HOSTS_AGENTS[1]}" "$root/tomcat/tomcat.pid") && [ -n "$metrics_tomcat" ] || return 1
    local client=(ip netns exec "$ns" java -jar "$HARNESS_JAR")
    "${client[@]}" verify "$httpd" --probes "$httpd_probes" >&2 \
        && "${client[@]}" verify "$tomcat" --probes "$tomcat_probes" >&2 || return 1
    out="$root/side"
    # each server's CPU through its agent, at the side-by-side default (the probes near the static file at one offered
    # rate, each far one at its own with the static file beside it); every probe each serves (bench asks), or those
    # named; rounds enough for six, an interval's fewest (static and cgi: some 7 s a round, the bound --cpu-time × the
    # two servers; every probe: some 25 s a round)
    local probes=() rounds_s=90
    [ -z "$measured" ] || { probes=(--probes "$measured"); rounds_s=32; }
    rounds_s=${SPICE_TWO_HOSTS_CPU_TIME:-$rounds_s}   # by hand, for rounds that reach their precision
    "${client[@]}" bench --target "httpd=$httpd,tomcat=$tomcat" --server-metrics "httpd=$metrics_httpd" \
        --server-metrics "tomcat=$metrics_tomcat" "${probes[@]}" --clients 8 --ramp-up 0.5 --duration 1 \
        --ramp-down 0.2 --warm-up 3 --cpu-time "$rounds_s" --out "$out" >&2 || return 1
    two_hosts_check "$out" || return 1
    local port
    for port in "${TWO_HOSTS_AGENTS[@]}"; do
        bash "$SPICE_ROOT/scripts/spice" metrics-agent stop --port "$port" >&2 || return 1
    done
    [ "$(ip netns pids "$ns" | alive_only)" = "" ] || { echo "two hosts: processes left on the client's host" >&2; return 1; }
    [ "$(two_hosts_cgroup "$root/httpd/run/apache2.pid")" = "$origin_httpd" ] \
        && [ "$(two_hosts_cgroup "$root/tomcat/tomcat.pid")" = "$origin_tomcat" ] \
        || { echo "two hosts: a server is not back in its cgroup after the agent stopped" >&2; return 1; }
    STOCK_BEFORE=$before_httpd TMP="$root/httpd" stock_httpd_down "$TWO_HOSTS_HTTPD_PORT" || return 1
    STOCK_BEFORE=$before_tomcat TMP="$root/tomcat" stock_tomcat_down || return 1
}
