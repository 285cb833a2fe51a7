# scripts/spice metrics-agent: the server's CPU read where it runs. On the server's machine, Debian's
# prometheus-node-exporter (the machine's CPU) and prometheus-process-exporter (the server's processes, one group)
# bound to one address; bench --server-metrics reads them at every window's edges. Sourced by scripts/spice.
# Needs neither Java nor a build: it is meant for a server machine that has only this checkout.
# shellcheck shell=bash

METRICS_PACKAGES=(prometheus-node-exporter prometheus-process-exporter)

metrics_usage() {
    cat <<'HELP'
usage: scripts/spice metrics-agent start|stop|status|install [--host ADDR] [--port N]
  on the server's machine: node_exporter on ADDR:N (default 127.0.0.1:9100) and process-exporter on ADDR:N+1,
  bound to ADDR only; start prints the --server-metrics value for bench on the client machine
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

metrics_start() {
    local host=$1 port=$2 run=$3
    local process_port=$((port + 1))
    if pid_alive "$(cat "$run/node.pid" 2>/dev/null)"; then
        die "metrics-agent: already running on $host:$port (scripts/spice metrics-agent stop --port $port)"
    fi
    metrics_install
    local p
    for p in "$port" "$process_port"; do
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
    local waited
    for ((waited = 0; waited < 100; waited++)); do
        if port_in_use "$port" "$host" && port_in_use "$process_port" "$host"; then
            echo "metrics-agent: node_exporter on $host:$port, process-exporter on $host:$process_port (pids" \
                "$(cat "$run/node.pid"), $(cat "$run/process.pid"))" >&2
            echo "--server-metrics http://$host:$port/metrics,http://$host:$process_port/metrics"
            return 0
        fi
        sleep 0.1
    done
    tail -5 "$run"/logs/*.log >&2
    stop_pids "$run"
    die "metrics-agent: the exporters did not listen on $host:$port and $host:$process_port (logs above)"
}

metrics_status() {
    local host=$1 port=$2 run=$3
    if pid_alive "$(cat "$run/node.pid" 2>/dev/null)" && pid_alive "$(cat "$run/process.pid" 2>/dev/null)"; then
        echo "metrics-agent: running: --server-metrics http://$host:$port/metrics,http://$host:$((port + 1))/metrics"
    else
        echo "metrics-agent: not running on port $port"
        return 1
    fi
}

metrics_main() {
    local action=${1:-} host=127.0.0.1 port=9100
    [ $# -gt 0 ] && shift
    while [ $# -gt 0 ]; do
        case "$1" in
            --host) host=${2:?--host needs an address}; shift 2 ;;
            --port) port=${2:?--port needs a port}; shift 2 ;;
            -h|--help) metrics_usage; return 0 ;;
            *) usage_error "metrics-agent: unknown option $1 (scripts/spice metrics-agent --help)" ;;
        esac
    done
    [[ "$port" =~ ^[0-9]+$ ]] && [ "$port" -ge 1 ] && [ "$port" -le 65534 ] \
        || usage_error "metrics-agent: --port takes a port number from 1 to 65534, not \"$port\""
    [[ "$host" =~ ^[0-9A-Za-z.:-]+$ ]] || usage_error "metrics-agent: --host takes an address, not \"$host\""
    local run="$SPICE_RUN/metrics-agent-$port"
    case "$action" in
        start) metrics_start "$host" "$port" "$run" ;;
        stop) stop_pids "$run"; echo "metrics-agent on port $port stopped" >&2 ;;
        status) metrics_status "$host" "$port" "$run" ;;
        install) metrics_install ;;
        -h|--help|"") metrics_usage; [ -n "$action" ] || exit 2 ;;
        *) usage_error "metrics-agent: start, stop, status or install, not \"$action\" (scripts/spice metrics-agent --help)" ;;
    esac
}
