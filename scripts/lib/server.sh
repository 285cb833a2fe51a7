# scripts/spice server ACTION NAME|all [options] (its options: ServerCommand, in the harness).
#
# The life cycle of every server: ports and run directories, starting, waiting, stopping by PID file, status.
# Which servers there are comes from the harness's server table (server-table.sh); Maven's part is maven.sh,
# the raw HTTP a start waits on http.sh.
#
# Each server is a file in servers/ that defines, for NAME:
#   NAME_installed        succeeds when everything the server needs is on the machine
#   NAME_install          installs what is missing (apt for httpd, Maven for the Tomcat and Jetty distributions)
#   NAME_launch RUN PORT  lays out its run directory RUN and starts the server in the background,
#                         writing the PIDs of what it started to RUN/*.pid
#   NAME_logs RUN         prints the log files worth reading when a start fails
#   NAME_start_failed RUN (optional) succeeds when the logs already show that the start failed
# This file does the rest the same way for all of them: ports, run directories, waiting, stopping by PID;
# companions.sh starts what runs beside a server (FastCGI probe, fcgiwrap, a Tomcat backend).
# shellcheck shell=bash

# shellcheck disable=SC2034  # read by servers/*.sh (the Tomcat and Jetty distributions)
SPICE_CACHE="$SPICE_ROOT/.cache"
# Defaults for the options server_main parses (tests and bench start servers without them).
SPICE_ACCESS_LOG=${SPICE_ACCESS_LOG:-off}
SPICE_MPM=${SPICE_MPM:-event}
SPICE_THREADS=${SPICE_THREADS:-platform}
SPICE_NGINX_WORKERS=${SPICE_NGINX_WORKERS:-auto}
# The address the server listens on (its HTTP and HTTPS ports); what runs beside it (its Tomcat backend, the FastCGI
# program) stays on 127.0.0.1 whatever this is.
SPICE_LISTEN=${SPICE_LISTEN:-127.0.0.1}

# shellcheck source=server-table.sh
source "$SPICE_ROOT/scripts/lib/server-table.sh"
# shellcheck source=maven.sh
source "$SPICE_ROOT/scripts/lib/maven.sh"
# shellcheck source=http.sh
source "$SPICE_ROOT/scripts/lib/http.sh"
# shellcheck source=tls.sh
source "$SPICE_ROOT/scripts/lib/tls.sh"
# shellcheck source=companions.sh
source "$SPICE_ROOT/scripts/lib/companions.sh"
# shellcheck source=cgroup.sh
source "$SPICE_ROOT/scripts/lib/cgroup.sh"

for server_file in "$SPICE_ROOT"/scripts/lib/servers/*.sh; do
    # shellcheck source=/dev/null
    source "$server_file"
done

# The PIDs of SPICE's processes (their command line names this tree or its run/) listening on 127.0.0.1:PORT.
listeners_of() {
    local port=$1 pid
    for pid in $(ss -ltnpH "sport = :$port" 2>/dev/null | grep -o 'pid=[0-9]*' | cut -d= -f2 | sort -u); do
        tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -e "$SPICE_ROOT" -e "$SPICE_RUN" && echo "$pid"
    done
}

# Ends whatever of SPICE's still listens on an instance's ports after its PID files are gone (the
# workers of an httpd whose parent died keep serving).
stop_leftovers() {
    local name=$1 port=$2 each pid
    for each in $(instance_ports "$name" "$port"); do
        for pid in $(listeners_of "$each"); do
            echo "spice: $name: pid $pid still listened on port $each: ending it" >&2
            kill -TERM "$pid" 2>/dev/null || true
            sleep 0.5
            kill -KILL "$pid" 2>/dev/null || true
        done
    done
}

# The ports of every instance of NAME with a run directory (run/NAME-PORT), started or not.
instance_list() {
    local dir
    for dir in "$SPICE_RUN/$1"-*/; do
        [ -d "$dir" ] || continue
        dir=${dir%/}
        [[ "${dir##*-}" =~ ^[0-9]+$ ]] && echo "${dir##*-}"
    done
}

log_tail() {
    local file
    for file in $("$1_logs" "$2"); do
        [ -s "$file" ] || continue
        echo "--- last lines of $file" >&2
        tail -n 25 "$file" >&2
    done
}

# The address a client here reaches a server listening on ADDR at: ADDR itself, or 127.0.0.1 for every address.
local_address() {
    [ "$1" = 0.0.0.0 ] && echo 127.0.0.1 || echo "$1"
}

# The address an instance listens on: what its start recorded (run/NAME-PORT/listen), else 127.0.0.1.
instance_address() {
    local recorded
    recorded=$(cat "$SPICE_RUN/$1-$2/listen" 2>/dev/null || true)
    echo "${recorded:-127.0.0.1}"
}

server_start() {
    local name=$1 port=$2 run
    run="$SPICE_RUN/$name-$port"
    "${name}_installed" || die "$name is not installed: run scripts/spice server install $name"
    if [ -f "$run/server.pid" ] && pid_alive "$(cat "$run/server.pid")"; then
        die "$name is already running on port $port (pid $(cat "$run/server.pid")): scripts/spice server stop $name --port $port"
    fi
    local address
    address=$(local_address "$SPICE_LISTEN")
    port_in_use "$port" "$address" && die "port $port on $address is in use: stop what listens there or choose another with --port N"
    port_in_use "$(tls_port "$port")" "$address" && die "port $(tls_port "$port") (its HTTPS port) on $address is in use: choose another --port"
    local h2c
    h2c=$(companion_port "$(instance_row "$name")" "$port" h2c)
    [ "${h2c:-$port}" = "$port" ] || ! port_in_use "$h2c" "$address" \
        || die "port $h2c (its HTTP/2 port) on $address is in use: choose another --port"
    # What the launchers read: the ports of what runs beside the server.
    local SPICE_BACKEND_PORT=${SPICE_BACKEND_PORT:-$(companion_port "$name" "$port" backend)}
    # shellcheck disable=SC2034  # read by the launchers (servers/*.sh)
    local SPICE_FCGI_PORT
    SPICE_FCGI_PORT=$(companion_port "$name" "$port" fastcgi)
    build_if_missing "$HARNESS_JAR" "$SPICE_WAR"
    ensure_tls_cert
    stop_pids "$run"
    # What the servers serve but do not own: made here, as the caller, before they drop to their user.
    fresh_logs "$run"
    mkdir -p "$SPICE_FILESET"
    echo "$SPICE_LISTEN" > "$run/listen"
    # In a subshell: what a launcher exports for its server (httpd reads its settings from the environment)
    # stays out of this shell and out of the next server's start; the subshell joins the server's cgroup first,
    # so that everything the server starts is counted there.
    local group
    group=$(cgroup_make "$run")
    (cgroup_enter "$group" && "${name}_launch" "$run" "$port") \
        || { log_tail "$name" "$run"; stop_pids "$run"; cgroup_remove "$run"; die "$name did not start"; }

    local failed_check=""
    declare -F "${name}_start_failed" >/dev/null && failed_check="${name}_start_failed"
    if ! wait_for_answer "$port" /spice/static/spice.html "$run/server.pid" "$failed_check" "$address"; then
        log_tail "$name" "$run"
        stop_pids "$run"
        cgroup_remove "$run"
        die "$name did not answer 200 on http://$address:$port/spice/static/spice.html within $(wait_limit_s) s (or exited): see the log above"
    fi
    echo "$name on http://$address:$port (pid $(cat "$run/server.pid"), run directory $run)"
    if [ "$SPICE_LISTEN" != 127.0.0.1 ]; then
        echo "  listening on $SPICE_LISTEN:$port and :$(tls_port "$port"), not 127.0.0.1, as --listen asked: whatever reaches" \
            "that address can load this server (its Tomcat backend and FastCGI program stay on 127.0.0.1)"
    fi
    if [ -n "$group" ]; then
        echo "  cgroup: $group (its CPU is the server's: every process it starts, each once)"
    else
        echo "  cgroup: none could be made here (root and a writable cgroup hierarchy are needed): bench reads its processes instead"
    fi
    local row
    row=$(instance_row "$name")
    [ "$row" = "$name" ] || echo "  as $row ($(start_option "$name"))"
    # shellcheck disable=SC2046
    probe_urls "http://$address:$port" $(server_probes "$row")
    local names="certificate $SPICE_TLS_CERT"
    [ "$address" = 127.0.0.1 ] || names="$names, which names localhost and 127.0.0.1, not $address"
    echo "  https: https://$address:$(tls_port "$port")/spice/ ($names)"
    if [ -n "$h2c" ]; then
        echo "  http/2: h2 by ALPN on the https port, h2c with prior knowledge on http://$address:$h2c"
        echo "  check over HTTP/2: scripts/spice verify http://$address:$h2c --http2 --probes $(server_probes "$row" ,)"
    else
        echo "  http/2: none ($row: mod_http2 needs a threaded MPM)"
    fi
    echo "  logs: $("${name}_logs" "$run" | tr '\n' ' ')"
    echo "  check: scripts/spice verify http://$address:$port --probes $(server_probes "$row" ,)"
    echo "  stop:  scripts/spice server stop $name --port $port"
}

# The ports of an instance that something of SPICE's still listens on.
instance_listening() {
    local each
    for each in $(instance_ports "$1" "$2"); do
        [ -z "$(listeners_of "$each")" ] || echo "$each"
    done
}

# True when an instance has PID files or anything of SPICE's listening on its ports.
instance_active() {
    [ -n "$(compgen -G "$SPICE_RUN/$1-$2/*.pid"; compgen -G "$SPICE_RUN/$1-$2/*/*.pid")" ] \
        || [ -n "$(instance_listening "$1" "$2")" ]
}

stop_instance() {
    stop_pids "$SPICE_RUN/$1-$2"
    stop_leftovers "$1" "$2"
    cgroup_remove "$SPICE_RUN/$1-$2"
    echo "$1 on port $2 stopped"
}

server_stop() {
    if instance_active "$1" "$2"; then
        stop_instance "$1" "$2"
    else
        cgroup_remove "$SPICE_RUN/$1-$2"
        echo "$1 on port $2 is not running"
    fi
}

# Without --port: every instance of NAME that has a run directory.
server_stop_all() {
    local port stopped=no
    for port in $(instance_list "$1"); do
        if instance_active "$1" "$port"; then
            stop_instance "$1" "$port"
            stopped=yes
        fi
    done
    [ "$stopped" = yes ] || echo "$1: no instance is running"
}

# The PIDs of everything a running server is made of (httpd and its Tomcat backend; Jetty and
# fcgiwrap), comma-separated on one line: bench adds up the CPU of all their process trees.
server_pids() {
    local run="$SPICE_RUN/$1-$2" pidfile pids=()
    for pidfile in "$run"/*.pid "$run"/*/*.pid; do
        [ -f "$pidfile" ] && pid_alive "$(tr -dc '0-9' < "$pidfile")" && pids+=("$(tr -dc '0-9' < "$pidfile")")
    done
    [ ${#pids[@]} -gt 0 ] || die "$1 on port $2 is not running"
    # Each process once (nginx writes its master's PID twice: nginx.pid and server.pid).
    printf '%s\n' "${pids[@]}" | awk '!seen[$0]++' | paste -sd, -
}

# The cgroup a running server's CPU is read from (bench --server-cgroup), or nothing where it has none.
server_cgroup() {
    [ -f "$SPICE_RUN/$1-$2/server.pid" ] || die "$1 on port $2 is not running"
    cgroup_of "$SPICE_RUN/$1-$2"
}

# Prints an instance's state; returns 0 if it runs, 4 if only leftovers listen, 3 if nothing does.
server_status() {
    local run="$SPICE_RUN/$1-$2" listening
    listening=$(instance_listening "$1" "$2" | tr '\n' ' ')
    listening=${listening% }
    if [ -f "$run/server.pid" ] && pid_alive "$(cat "$run/server.pid")"; then
        echo "$1 on port $2: running (pid $(cat "$run/server.pid")), http://$(local_address "$(instance_address "$1" "$2")"):$2/spice/," \
            "listening on ${listening:-none}"
    elif [ -n "$listening" ]; then
        echo "$1 on port $2: its server process is gone, but ports $listening still answer (leftover workers):" \
            "scripts/spice server stop $1 --port $2 ends them"
        return 4
    else
        echo "$1 on port $2: not running"
        return 3
    fi
}

# Without --port: every instance of NAME that runs (or left something listening).
server_status_all() {
    local port line found=no
    for port in $(instance_list "$1"); do
        if line=$(server_status "$1" "$port") || [ $? -eq 4 ]; then
            echo "$line"
            found=yes
        fi
    done
    [ "$found" = yes ] || echo "$1: not running"
}

# scripts/spice server: ACTION on each of NAMES (on PORT), as the harness parsed the command line (ServerCommand).
# shellcheck disable=SC2154  # its variables are the parsed command line's (shell_args)
server_main() {
    local each lacking=0
    for each in "${names[@]}"; do
        case "$action" in
            install) "${each}_install" ;;
            installed)
                # What a start would lack, as the commands that install it, one a line; status 1 if anything.
                "${each}_installed" || { echo "scripts/spice server install $each"; lacking=1; }
                if [ "$SPICE_THREADS" = virtual ] && ! java21_home >/dev/null; then
                    echo "apt-get install openjdk-21-jdk-headless (or any JDK 21 or later under /usr/lib/jvm)"; lacking=1
                fi ;;
            start) server_start "$each" "${port:-$(server_default_port "$each")}" ;;
            stop) if [ -n "$port" ]; then server_stop "$each" "$port"; else server_stop_all "$each"; fi ;;
            status) if [ -n "$port" ]; then server_status "$each" "$port" || true; else server_status_all "$each"; fi ;;
            pids) server_pids "$each" "${port:-$(server_default_port "$each")}" ;;
            cgroup) server_cgroup "$each" "${port:-$(server_default_port "$each")}" ;;
        esac
    done
    return "$lacking"
}
