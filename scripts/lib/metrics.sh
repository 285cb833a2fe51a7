# scripts/spice metrics-agent: the server's CPU read where it runs. On the server's machine, Debian's
# prometheus-node-exporter (the machine's CPU) and prometheus-process-exporter (the server's processes, one group)
# bound to one address, and with --cgroup, --unit, --server or --pid-file the server's cgroup (the harness's
# cgroup-exporter, read at each scrape: every process in it counted once, CGI programs included; --pid-file makes one
# and moves the running server into it, and back on stop); bench --server-metrics reads them
# at every window's edges and every slice's. Sourced by scripts/spice; the harness (built where it is missing)
# parses its command line (MetricsAgentCommand) and serves the cgroup.
# shellcheck shell=bash

METRICS_PACKAGES=(prometheus-node-exporter prometheus-process-exporter)

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
# scripts/spice shell is not it), the Java servers and the ASGI servers by their command lines (uvicorn's spawned
# workers, whose command lines name neither, are counted as its children).
metrics_process_config() {
    cat <<'YAML'
process_names:
  - name: spice-exporters
    comm: [prometheus-node, prometheus-proc]
  - name: spice
    comm: [apache2, httpd, nginx, fcgiwrap, spice-fcgi, spice-wasm, php-fpm, php-fpm8.2, uwsgi, uwsgi-core, node, nodejs]
  - name: spice
    exe: [spice]
  - name: spice
    cmdline: ['org\.apache\.catalina\.startup\.Bootstrap|jetty-home.*start\.jar|spice-server\.jar|org\.spice\.server\.EmbeddedTomcat']
  - name: spice
    cmdline: ['-m (uvicorn|granian) .*spice_asgi:application']
YAML
}

# The cgroup directory the agent serves: given (--cgroup), a systemd unit's (--unit), SPICE's own server's
# (--server NAME[:PORT]), or one made for a running server (--pid-file FILE, with RUN the agent's run directory);
# dies saying why where there is none.
metrics_cgroup() {
    local kind=$1 what=$2 run=$3 path
    case "$kind" in
        cgroup) path=$what ;;
        pid-file) path=$(metrics_adopt "$what" "$run") || exit 1 ;;
        unit)
            command -v systemctl >/dev/null 2>&1 || die "metrics-agent: --unit needs systemd (systemctl); give --cgroup PATH"
            local control mount
            control=$(systemctl show -p ControlGroup --value "$what" 2>/dev/null)
            [ -n "$control" ] || die "metrics-agent: systemd has no cgroup for unit $what (is it running?)"
            mount=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
            path="$mount$control" ;;
        server)
            local name=${what%%:*} port_option=()
            [ "${what#*:}" = "$what" ] || port_option=(--port "${what#*:}")
            path=$("$SPICE_ROOT/scripts/spice" server cgroup "$name" "${port_option[@]}") || exit 1
            [ -n "$path" ] || die "metrics-agent: $what runs in no cgroup here (scripts/spice server status $name)" ;;
    esac
    [ -r "$path/cpu.stat" ] || [ -r "$path/cpuacct.usage" ] \
        || die "metrics-agent: $path is not a cgroup whose CPU can be read (no cpu.stat, no cpuacct.usage)"
    echo "$path"
}

# The cgroup a process is in now, as a directory (cgroup v2's, else v1's cpuacct); the hierarchy's root if not found.
metrics_cgroup_of_pid() {
    local pid=$1 v2 v1 line
    v2=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
    if [ -n "$v2" ] && [ "$(dirname "$(cgroup_root)")" = "$v2" ]; then
        line=$(grep -m1 '^0::' "/proc/$pid/cgroup" 2>/dev/null)
        line=${line#0::}
        echo "$v2${line%/}"
        return
    fi
    v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpuacct(,|$)/ {print $2; exit}' /proc/mounts)
    line=$(grep -m1 -E '^[0-9]+:([^:]*,)?cpuacct(,[^:]*)?:' "/proc/$pid/cgroup" 2>/dev/null)
    line=${line##*:}
    echo "$v1${line%/}"
}

# --pid-file FILE: makes RUN's cgroup and moves FILE's process into it, then its descendants, each before its own
# children are listed, so that none forked meanwhile is missed; records where the server was (RUN/origin). Prints
# the cgroup's path.
metrics_adopt() {
    local pidfile=$1 run=$2 pid group origin queue child
    [ "$(id -u)" -eq 0 ] || die "metrics-agent: --pid-file moves the server into a cgroup the agent makes: run it as root"
    [ -r "$pidfile" ] || die "metrics-agent: --pid-file: cannot read $pidfile"
    pid=$(tr -dc '0-9' < "$pidfile")
    pid_alive "$pid" || die "metrics-agent: --pid-file $pidfile: no process ${pid:-(none named)} runs here"
    source "$SPICE_ROOT/scripts/lib/cgroup.sh"
    [ -n "$(cgroup_root)" ] || die "metrics-agent: --pid-file: no writable cgroup hierarchy here (cgroup2, or v1's cpuacct)"
    mkdir -p "$run"
    metrics_release "$run"   # an earlier agent's, left behind: its server goes back first, never killed
    origin=$(metrics_cgroup_of_pid "$pid")
    group=$(cgroup_make "$run")
    [ -n "$group" ] || die "metrics-agent: --pid-file: cannot make a cgroup under $(cgroup_root)"
    echo "$origin" > "$run/origin"
    queue=("$pid")
    while [ ${#queue[@]} -gt 0 ]; do
        pid=${queue[0]}
        queue=("${queue[@]:1}")
        echo "$pid" > "$group/cgroup.procs" 2>/dev/null || continue   # gone meanwhile
        for child in $(pgrep -P "$pid"); do
            queue+=("$child")
        done
    done
    echo "spice metrics-agent: $(wc -l < "$group/cgroup.procs") processes of $pidfile's server moved from $origin into" \
        "$group; every child they start is counted there (moved back on stop)" >&2
    echo "$group"
}

# Undoes --pid-file: the server's processes back into the cgroup they came from (its root if that is gone), and the
# agent's cgroup removed. Nothing where the agent made none.
metrics_release() {
    local run=$1 group origin pid
    [ -f "$run/origin" ] || return 0
    source "$SPICE_ROOT/scripts/lib/cgroup.sh"
    group=$(cgroup_of "$run")
    origin=$(cat "$run/origin")
    if [ -n "$group" ]; then
        [ -w "$origin/cgroup.procs" ] || origin=$(dirname "$(cgroup_root)")
        local tries
        for ((tries = 0; tries < 50; tries++)); do   # again while the server forks children into it meanwhile
            [ -n "$(cat "$group/cgroup.procs" 2>/dev/null)" ] || break   # a cgroup file's size is 0: read it
            while read -r pid; do
                echo "$pid" > "$origin/cgroup.procs" 2>/dev/null || true
            done < "$group/cgroup.procs"
        done
        if rmdir "$group" 2>/dev/null; then
            rmdir "$(dirname "$group")" 2>/dev/null || true
            echo "spice metrics-agent: the server's processes moved back into $origin; $group removed" >&2
        else
            echo "spice metrics-agent: could not empty $group (processes still in it: $(tr '\n' ' ' \
                < "$group/cgroup.procs")); move them out and rmdir it" >&2
        fi
    fi
    rm -f "$run/origin" "$run/cgroup"
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
        port_in_use "$p" "$host" && { metrics_release "$run"; die "metrics-agent: $host:$p is in use"; }
    done
    mkdir -p "$run/logs"
    metrics_process_config > "$run/process-exporter.yml"
    local as_user=() jar="" who
    who=$(id -un)
    [ -z "$cgroup" ] || jar=$(stable_harness_jar)
    if [ "$(id -u)" -eq 0 ] && id "$SPICE_SERVICE_USER" >/dev/null 2>&1; then
        as_user=(setpriv --reuid="$SPICE_SERVICE_USER" --regid="$SPICE_SERVICE_USER" --clear-groups --)
        who=$SPICE_SERVICE_USER
        chown -R "$SPICE_SERVICE_USER:" "$run"
        local file
        for file in "$run/process-exporter.yml" ${jar:+"$jar"}; do
            service_user_reads "$file" && continue
            metrics_release "$run"
            die "metrics-agent: $SPICE_SERVICE_USER, whom the exporters run as, cannot read $file:" \
                "$(service_user_blocked "$file") (SPICE_SERVICE_USER=USER names another user)"
        done
    fi
    # Only the CPU collector: nothing else is read, and every collector costs the server's machine CPU.
    "${as_user[@]}" setsid prometheus-node-exporter --web.listen-address="$host:$port" --collector.disable-defaults \
        --collector.cpu > "$run/logs/node-exporter.log" 2>&1 < /dev/null &
    echo $! > "$run/node.pid"
    "${as_user[@]}" setsid prometheus-process-exporter -web.listen-address "$host:$process_port" \
        -config.path "$run/process-exporter.yml" -threads=false -gather-smaps=false \
        > "$run/logs/process-exporter.log" 2>&1 < /dev/null &
    echo $! > "$run/process.pid"
    local urls="http://$host:$port/metrics,http://$host:$process_port/metrics" services=(node:"$port" process:"$process_port")
    if [ -n "$cgroup" ]; then
        # A cgroup's counters are readable by every user: it runs as the exporters do, bound to ADDR only; a small
        # heap and C1 alone, since it serves one counter.
        "${as_user[@]}" setsid java -XX:+UseSerialGC -Xmx32m -XX:TieredStopAtLevel=1 -jar "$jar" cgroup-exporter \
            --listen "$host:$cgroup_port" --cgroup "$cgroup" > "$run/logs/cgroup-exporter.log" 2>&1 < /dev/null &
        echo $! > "$run/cgroup.pid"
        urls="$urls,http://$host:$cgroup_port/metrics"
        services+=(cgroup:"$cgroup_port")
    fi
    metrics_await "$host" "$run" "${services[@]}"
    echo "metrics-agent: node_exporter on $host:$port, process-exporter on $host:$process_port (pids" \
        "$(cat "$run/node.pid"), $(cat "$run/process.pid"))${cgroup:+, the cgroup $cgroup on $host:$cgroup_port (pid $(cat "$run/cgroup.pid"))};" \
        "as $who, from $run" >&2
    echo "--server-metrics $urls"
}

# Waits until every exporter (KIND:PORT, its PID in RUN/KIND.pid, its log RUN/logs/KIND-exporter.log) listens on
# HOST, for at most wait_limit_s (60 s: the cgroup exporter is a JVM). One that exits first
# ends the wait at once. Either way the agent stops what it started and says why in one line: the exporter, and the
# last line of its own log.
metrics_await() {
    local host=$1 run=$2 limit waited service kind port up failed=""
    limit=$(wait_limit_s)
    shift 2
    for ((waited = 0; waited < limit * 10; waited++)); do
        up=1
        for service in "$@"; do
            kind=${service%%:*} port=${service#*:}
            port_in_use "$port" "$host" && continue
            up=
            pid_alive "$(cat "$run/$kind.pid" 2>/dev/null)" || { failed=$kind; break 2; }
        done
        [ -z "$up" ] || return 0
        sleep 0.1
    done
    local log why
    for log in "$run"/logs/*.log; do
        [ -s "$log" ] || continue
        echo "--- last lines of $log" >&2
        tail -n 5 "$log" >&2
    done
    stop_pids "$run"
    metrics_release "$run"
    if [ -n "$failed" ]; then
        log="$run/logs/$failed-exporter.log"
        why=$(grep -v '^[[:space:]]*$' "$log" 2>/dev/null | tail -n 1)
        die "metrics-agent: the $failed exporter exited before it listened: ${why:-it logged nothing} ($log); nothing left running"
    fi
    die "metrics-agent: the exporters did not all listen on $host:${*##*:} within $limit s (SPICE_WAIT_S): see the logs in" \
        "$run/logs above; nothing left running"
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

# scripts/spice metrics-agent: ACTION with HOST, PORT and the cgroup (CGROUP_KIND, CGROUP_WHAT), as the harness
# parsed the command line (MetricsAgentCommand).
# shellcheck disable=SC2154  # its variables are the parsed command line's (shell_args)
metrics_main() {
    local run="$SPICE_RUN/metrics-agent-$port"
    case "$action" in
        start)
            local cgroup=""
            if [ -n "$cgroup_kind" ]; then
                pid_alive "$(cat "$run/node.pid" 2>/dev/null)" \
                    && die "metrics-agent: already running on $host:$port (scripts/spice metrics-agent stop --port $port)"
                [ "$cgroup_kind" != pid-file ] || metrics_install
                cgroup=$(metrics_cgroup "$cgroup_kind" "$cgroup_what" "$run") || exit 1
            fi
            metrics_start "$host" "$port" "$run" "$cgroup" ;;
        stop) stop_pids "$run"; metrics_release "$run"; echo "metrics-agent on port $port stopped" >&2 ;;
        status) metrics_status "$host" "$port" "$run" ;;
        install) metrics_install ;;
    esac
}
