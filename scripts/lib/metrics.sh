# scripts/spice metrics-agent: the server's CPU read where it runs. On the server's machine, Debian's
# prometheus-node-exporter (the machine's CPU) and prometheus-process-exporter (the server's processes, one group)
# bound to one address, and with --cgroup, --unit or --server the server's cgroup (the harness's cgroup-exporter,
# read at each scrape: every process in it counted once, CGI programs included); bench --server-metrics reads them
# at every window's edges and every slice's. Sourced by scripts/spice. The two Debian exporters need neither Java
# nor a build; the cgroup's needs Java and builds the harness where it is missing.
# shellcheck shell=bash

METRICS_PACKAGES=(prometheus-node-exporter prometheus-process-exporter)

metrics_usage() {
    cat <<'HELP'
usage: scripts/spice metrics-agent start|stop|status|install [--host ADDR] [--port N]
         [--cgroup PATH | --unit NAME | --server NAME[:PORT]]
  on the server's machine: node_exporter on ADDR:N (default 127.0.0.1:9100) and process-exporter on ADDR:N+1,
  bound to ADDR only; start prints the --server-metrics value for bench on the client machine
  --cgroup PATH           also the server's cgroup on ADDR:N+2 (its CPU: every process in it, each once, CGI included)
  --unit NAME             the cgroup of the systemd unit NAME (apache2, tomcat10, ...)
  --server NAME[:PORT]    the cgroup of SPICE's own server NAME started here (scripts/spice server start)
HELP
}

metrics_missing() {
    local package
    for package in "${METRICS_PACKAGES[@]}"; do
        command -v "$package" >/dev/null 2>&1 || echo "$package"
    done
}

# Installs the exporters without letting Debian start its own services (they would listen on every address):
# a policy-rc.d that refuses, for the install only, unless the machine already has one of its own (then it rules).
metrics_install() {
    local missing
    mapfile -t missing < <(metrics_missing)
    [ ${#missing[@]} -gt 0 ] || return 0
    [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1 \
        || die "metrics-agent: ${missing[*]} missing; install them (as root): apt-get install ${missing[*]}"
    local policy=/usr/sbin/policy-rc.d ours=
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\n# scripts/spice metrics-agent: no service started while the exporters install\nexit 101\n' > "$policy"
        chmod 755 "$policy"
        ours=1
    fi
    echo "spice metrics-agent: installing ${missing[*]} (apt-get; Debian's own services not started)" >&2
    local status=0
    { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2; } || status=$?
    [ -z "$ours" ] || rm -f "$policy"
    [ "$status" -eq 0 ] || die "metrics-agent: apt-get install ${missing[*]} failed"
    if command -v systemctl >/dev/null 2>&1 && systemctl is-active --quiet prometheus-node-exporter 2>/dev/null; then
        echo "spice metrics-agent: note: Debian's prometheus-node-exporter service runs on :9100 of every address;" \
            "systemctl disable --now prometheus-node-exporter prometheus-process-exporter if you do not want it" >&2
    fi
}

# The process-exporter groups: the exporters themselves first (their CPU is taken off the machine's), then every
# process of a SPICE server, by name: httpd, nginx, fcgiwrap, the FastCGI probe, the PHP-FPM pool and uWSGI beside a
# server (the php-fpm and wsgi probes; mod_wsgi's daemons are httpd's), the CGI program (by its argv[0], so that the
# scripts/spice shell is not it) and the Java servers by their command lines.
metrics_process_config() {
    cat <<'YAML'
process_names:
  - name: spice-exporters
    comm: [prometheus-node, prometheus-proc]
  - name: spice
    comm: [apache2, httpd, nginx, fcgiwrap, spice-fcgi, php-fpm, php-fpm8.2, uwsgi, uwsgi-core]
  - name: spice
    exe: [spice]
  - name: spice
    cmdline: ['org\.apache\.catalina\.startup\.Bootstrap|jetty-home.*start\.jar|spice-server\.jar|org\.spice\.server\.EmbeddedTomcat']
YAML
}

# The cgroup directory the agent serves: given (--cgroup), a systemd unit's (--unit), or SPICE's own server's
# (--server NAME[:PORT]); dies saying why where there is none.
metrics_cgroup() {
    local kind=$1 what=$2 path
    case "$kind" in
        cgroup) path=$what ;;
        unit)
            command -v systemctl >/dev/null 2>&1 || die "metrics-agent: --unit needs systemd (systemctl); give --cgroup PATH"
            local control mount
            control=$(systemctl show -p ControlGroup --value "$what" 2>/dev/null)
            [ -n "$control" ] || die "metrics-agent: systemd has no cgroup for unit $what (is it running?)"
            mount=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
            path="$mount$control" ;;
        server)
            source "$SPICE_ROOT/scripts/lib/server.sh"
            local name=${what%%:*} server_port
            server_port=${what#*:}
            [ "$server_port" != "$what" ] || server_port=$(server_default_port "$name")
            path=$(cgroup_of "$SPICE_RUN/$name-$server_port")
            [ -n "$path" ] || die "metrics-agent: $name on port $server_port runs in no cgroup here (scripts/spice server status $name)" ;;
    esac
    [ -r "$path/cpu.stat" ] || [ -r "$path/cpuacct.usage" ] \
        || die "metrics-agent: $path is not a cgroup whose CPU can be read (no cpu.stat, no cpuacct.usage)"
    echo "$path"
}

metrics_start() {
    local host=$1 port=$2 run=$3 cgroup=${4:-}
    local process_port=$((port + 1)) cgroup_port=$((port + 2))
    if pid_alive "$(cat "$run/node.pid" 2>/dev/null)"; then
        die "metrics-agent: already running on $host:$port (scripts/spice metrics-agent stop --port $port)"
    fi
    metrics_install
    local p ports=("$port" "$process_port")
    [ -z "$cgroup" ] || ports+=("$cgroup_port")
    for p in "${ports[@]}"; do
        port_in_use "$p" "$host" && die "metrics-agent: $host:$p is in use"
    done
    mkdir -p "$run/logs"
    metrics_process_config > "$run/process-exporter.yml"
    local as_user=()
    if [ "$(id -u)" -eq 0 ] && id "$SPICE_SERVICE_USER" >/dev/null 2>&1; then
        as_user=(setpriv --reuid="$SPICE_SERVICE_USER" --regid="$SPICE_SERVICE_USER" --clear-groups --)
        chown -R "$SPICE_SERVICE_USER:" "$run"
    fi
    # Only the CPU collector: nothing else is read, and every collector costs the server's machine CPU.
    "${as_user[@]}" setsid prometheus-node-exporter --web.listen-address="$host:$port" --collector.disable-defaults \
        --collector.cpu > "$run/logs/node-exporter.log" 2>&1 < /dev/null &
    echo $! > "$run/node.pid"
    "${as_user[@]}" setsid prometheus-process-exporter -web.listen-address "$host:$process_port" \
        -config.path "$run/process-exporter.yml" -threads=false -gather-smaps=false \
        > "$run/logs/process-exporter.log" 2>&1 < /dev/null &
    echo $! > "$run/process.pid"
    local urls="http://$host:$port/metrics,http://$host:$process_port/metrics"
    if [ -n "$cgroup" ]; then
        # A cgroup's counters are readable by every user: it runs as the exporters do, bound to ADDR only; a small
        # heap and C1 alone, since it serves one counter.
        "${as_user[@]}" setsid java -XX:+UseSerialGC -Xmx32m -XX:TieredStopAtLevel=1 -jar "$HARNESS_JAR" cgroup-exporter \
            --listen "$host:$cgroup_port" --cgroup "$cgroup" > "$run/logs/cgroup-exporter.log" 2>&1 < /dev/null &
        echo $! > "$run/cgroup.pid"
        urls="$urls,http://$host:$cgroup_port/metrics"
    fi
    local waited
    for ((waited = 0; waited < 150; waited++)); do
        local up=1
        for p in "${ports[@]}"; do
            port_in_use "$p" "$host" || up=
        done
        if [ -n "$up" ]; then
            echo "metrics-agent: node_exporter on $host:$port, process-exporter on $host:$process_port (pids" \
                "$(cat "$run/node.pid"), $(cat "$run/process.pid"))${cgroup:+, the cgroup $cgroup on $host:$cgroup_port (pid $(cat "$run/cgroup.pid"))}" >&2
            echo "--server-metrics $urls"
            return 0
        fi
        sleep 0.1
    done
    tail -5 "$run"/logs/*.log >&2
    stop_pids "$run"
    die "metrics-agent: the exporters did not listen on $host:${ports[*]} within 15 s (logs above)"
}

metrics_status() {
    local host=$1 port=$2 run=$3
    if pid_alive "$(cat "$run/node.pid" 2>/dev/null)" && pid_alive "$(cat "$run/process.pid" 2>/dev/null)"; then
        local cgroup=""
        pid_alive "$(cat "$run/cgroup.pid" 2>/dev/null)" && cgroup=",http://$host:$((port + 2))/metrics"
        echo "metrics-agent: running: --server-metrics http://$host:$port/metrics,http://$host:$((port + 1))/metrics$cgroup"
    else
        echo "metrics-agent: not running on port $port"
        return 1
    fi
}

metrics_main() {
    local action=${1:-} host=127.0.0.1 port=9100 cgroup_kind="" cgroup_what=""
    [ $# -gt 0 ] && shift
    while [ $# -gt 0 ]; do
        case "$1" in
            --host) host=${2:?--host needs an address}; shift 2 ;;
            --port) port=${2:?--port needs a port}; shift 2 ;;
            --cgroup|--unit|--server)
                [ -z "$cgroup_kind" ] || usage_error "metrics-agent: one of --cgroup, --unit and --server, not two"
                cgroup_kind=${1#--}; cgroup_what=${2:?$1 needs a value}; shift 2 ;;
            -h|--help) metrics_usage; return 0 ;;
            *) usage_error "metrics-agent: unknown option $1 (scripts/spice metrics-agent --help)" ;;
        esac
    done
    [[ "$port" =~ ^[0-9]+$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65533 ] \
        || usage_error "metrics-agent: --port takes a port number from 1 to 65533, not \"$port\""
    [ -z "$cgroup_kind" ] || [ "$action" = start ] || usage_error "metrics-agent: --$cgroup_kind goes with start"
    [[ "$host" =~ ^[0-9A-Za-z.:-]+$ ]] || usage_error "metrics-agent: --host takes an address, not \"$host\""
    local run="$SPICE_RUN/metrics-agent-$port"
    case "$action" in
        start)
            local cgroup=""
            if [ -n "$cgroup_kind" ]; then
                cgroup=$(metrics_cgroup "$cgroup_kind" "$cgroup_what") || exit 1
                build_if_missing "$HARNESS_JAR"
                require_java
            fi
            metrics_start "$host" "$port" "$run" "$cgroup" ;;
        stop) stop_pids "$run"; echo "metrics-agent on port $port stopped" >&2 ;;
        status) metrics_status "$host" "$port" "$run" ;;
        install) metrics_install ;;
        -h|--help|"") metrics_usage; [ -n "$action" ] || exit 2 ;;
        *) usage_error "metrics-agent: start, stop, status or install, not \"$action\" (scripts/spice metrics-agent --help)" ;;
    esac
}
