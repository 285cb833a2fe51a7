#!/usr/bin/env bash
# The per-server part of a server's life cycle, run by the harness (org.spice.servers.Servers), which does the rest
# for every server: ports, run directories, PID files, the cgroup, stopping, status. Each server is a file in servers/
# that defines, for NAME:
#   NAME_installed        succeeds when everything the server needs is on the machine
#   NAME_install          installs what is missing (apt for httpd and nginx, Maven for the Tomcat and Jetty distributions)
#   NAME_launch RUN PORT  lays out its run directory RUN and starts the server in the background,
#                         writing the PIDs of what it started to RUN/*.pid
#   NAME_logs RUN         prints the log files worth reading when a start fails
#   NAME_start_failed RUN (optional) succeeds when the logs already show that the start failed
# companions.sh starts what runs beside a server (FastCGI probe, fcgiwrap, PHP-FPM, uWSGI, a Tomcat backend).
#
#   launch.sh run-dir                 prints run/ (the checkout's, or the folder it links to: common.sh)
#   launch.sh installed NAME          what a start of NAME would lack, as the commands that install it; status 1 if any
#   launch.sh install NAME            installs it
#   launch.sh launch NAME RUN PORT    starts NAME on PORT from RUN (made fresh by the harness), in the cgroup
#                                     SPICE_CGROUP names (if any), and waits until it answers; prints its log files
#                                     on stdout; status 3 where it is not installed, 1 where it did not start (its
#                                     logs' last lines said on stderr; the harness stops what it started)
# The harness passes the server table (SPICE_SERVER_TABLE) and the start's options (SPICE_LISTEN, SPICE_MPM,
# SPICE_THREADS, SPICE_ACCESS_LOG, SPICE_NGINX_WORKERS) in the environment: nothing here starts a JVM.
set -euo pipefail

# shellcheck source=common.sh
source "$(dirname "$(readlink -f "$0")")/common.sh"

if [ "${1:-}" = run-dir ]; then
    echo "$SPICE_RUN"
    exit 0
fi
# shellcheck source=server.sh
source "$SPICE_ROOT/scripts/lib/server.sh"

log_tail() {
    local file
    for file in $("$1_logs" "$2"); do
        [ -s "$file" ] || continue
        echo "--- last lines of $file" >&2
        tail -n 25 "$file" >&2
    done
}

# Starts NAME from RUN on PORT and waits for its answer (see above).
launch() {
    local name=$1 run=$2 port=$3
    "${name}_installed" || exit 3   # the harness says so
    # What the launchers read: the ports of what runs beside the server.
    local SPICE_BACKEND_PORT=${SPICE_BACKEND_PORT:-$(companion_port "$name" "$port" backend)}
    local SPICE_FCGI_PORT
    # shellcheck disable=SC2034  # read by the launchers (servers/*.sh)
    SPICE_FCGI_PORT=$(companion_port "$name" "$port" fastcgi)
    build_if_missing "$HARNESS_JAR" "$SPICE_WAR"
    ensure_tls_cert
    # In a subshell: what a launcher exports for its server (httpd reads its settings from the environment) stays
    # out of this shell; the subshell joins the server's cgroup first, so that everything the server starts is
    # counted there, and this shell's wait is not. What it says goes to stderr: stdout is the log files' list.
    (cgroup_enter "${SPICE_CGROUP:-}" && "${name}_launch" "$run" "$port") >&2 || { log_tail "$name" "$run"; exit 1; }
    local failed_check="" address
    declare -F "${name}_start_failed" >/dev/null && failed_check="${name}_start_failed"
    address=$([ "$SPICE_LISTEN" = 0.0.0.0 ] && echo 127.0.0.1 || echo "$SPICE_LISTEN")
    if ! wait_for_answer "$port" /spice/static/spice.html "$run/server.pid" "$failed_check" "$address"; then
        log_tail "$name" "$run"
        echo "spice: $name did not answer 200 on http://$address:$port/spice/static/spice.html within $(wait_limit_s) s" \
            "(or exited): see the log above" >&2
        exit 1
    fi
    "${name}_logs" "$run" || true   # ls: some of the files a server may write are not there
}

case "${1:-}" in
    installed)
        [ $# -eq 2 ] || die "launch.sh installed NAME"
        lacking=0
        "${2}_installed" || { echo "scripts/spice server install $2"; lacking=1; }
        if [ "$SPICE_THREADS" = virtual ] && ! java21_home >/dev/null; then
            echo "apt-get install openjdk-21-jdk-headless (or any JDK 21 or later under /usr/lib/jvm)"; lacking=1
        fi
        exit "$lacking" ;;
    install) [ $# -eq 2 ] || die "launch.sh install NAME"; "${2}_install" ;;
    launch) [ $# -eq 4 ] || die "launch.sh launch NAME RUN PORT"; launch "$2" "$3" "$4" ;;
    *) die "launch.sh: run-dir, installed NAME, install NAME or launch NAME RUN PORT (the harness runs it)" ;;
esac
