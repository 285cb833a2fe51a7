# Asking a local server over raw HTTP/1.0 whether it answers: what a start waits on. The harness's ResponseParser is
# SPICE's HTTP response reader; this reads only a status line, where starting a JVM per poll would be slower than
# the server. Sourced by server.sh.
# shellcheck shell=bash

# The status code a local server answers for PATH over HTTP/1.0 at HOST (127.0.0.1 by default), or nothing if it
# does not answer.
http_status() {
    local port=$1 path=$2 host=${3:-127.0.0.1} line
    { exec 3<>"/dev/tcp/$host/$port"; } 2>/dev/null || return 1
    printf 'GET %s HTTP/1.0\r\nHost: %s\r\n\r\n' "$path" "$host" >&3
    IFS= read -r -t 10 line <&3 || true
    exec 3>&- 3<&-
    line=${line%$'\r'}
    echo "${line#* }" | cut -d' ' -f1
}

# Waits up to wait_limit_s (60 s) until HOST:PORT (127.0.0.1 by default) answers PATH with 200; gives up early if the process in
# PIDFILE dies or if the optional CHECK command says the start failed (a server that lives on with a dead webapp).
wait_for_answer() {
    local port=$1 path=$2 pidfile=$3 check=${4:-} host=${5:-127.0.0.1} waited limit
    limit=$(wait_limit_s)
    for ((waited = 0; waited < limit * 10; waited++)); do
        [ "$(http_status "$port" "$path" "$host" || true)" = 200 ] && return 0
        if [ "$waited" -gt 10 ] && ! pid_alive "$(cat "$pidfile" 2>/dev/null)"; then
            return 1
        fi
        if [ -n "$check" ] && "$check" "$(dirname "$pidfile")"; then
            return 1
        fi
        sleep 0.1
    done
    return 1
}
