# What runs beside a server, started and stopped with it (its PID files are in the server's run
# directory): the resident FastCGI probe, fcgiwrap for servers without CGI, the Tomcat behind a front
# server, and the C module probes built against the server's development files.
# shellcheck shell=bash

# libfcgi-dev: the FastCGI probe's library and header (httpd, Jetty and nginx serve that probe).
install_libfcgi() {
    if [ -f /usr/include/fcgiapp.h ]; then
        return 0
    fi
    [ "$(id -u)" -eq 0 ] || die "the FastCGI probe needs libfcgi-dev, and installing it needs root: sudo apt-get install libfcgi-dev"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libfcgi-dev
}

# The resident FastCGI probe (cgi-c/spice-fcgi) for a server that has a FastCGI client (httpd, Jetty, nginx):
# started beside the server on 127.0.0.1:FCGI_PORT, its PID in RUN/fcgi.pid so it stops with the server
# and its CPU counts as the server's.
start_fastcgi_probe() {
    local run=$1 fcgi_port=$2 program="$SPICE_ROOT/cgi-c/target/spice-fcgi" waited
    if [ ! -x "$program" ]; then
        [ -f /usr/include/fcgiapp.h ] || { echo "the FastCGI probe needs libfcgi-dev: apt-get install libfcgi-dev" >&2; return 1; }
        make --no-print-directory -C "$SPICE_ROOT/cgi-c" OUT="$SPICE_ROOT/cgi-c/target" fcgi >&2 || return 1
    fi
    port_in_use "$fcgi_port" && { echo "port $fcgi_port for the FastCGI probe is in use" >&2; return 1; }
    service_user_prefix
    give_to_service_user "$run"
    "${SPICE_AS_USER[@]}" setsid "$program" "127.0.0.1:$fcgi_port" > "$run/logs/fcgi.log" 2>&1 < /dev/null &
    echo $! > "$run/fcgi.pid"
    for ((waited = 0; waited < 50; waited++)); do
        port_in_use "$fcgi_port" && return 0
        sleep 0.1
    done
    echo "the FastCGI probe did not listen on 127.0.0.1:$fcgi_port: see $run/logs/fcgi.log" >&2
    return 1
}

# A server's C module probe, nsapi-like-module/SERVER/target/FILE: Maven builds it when the server's
# development files are installed; if they came later, it is built now.
c_module() {
    local server=$1 file=$2 dir="$SPICE_ROOT/nsapi-like-module/$1"
    if [ ! -f "$dir/target/$file" ]; then
        make --no-print-directory -C "$dir" OUT="$dir/target" >&2 || die "$server: building $file failed"
    fi
    [ -f "$dir/target/$file" ] || die "$server: $file was not built (are the server's development files installed?)"
    echo "$dir/target/$file"
}

fcgiwrap_binary() {
    command -v fcgiwrap 2>/dev/null || { [ -x /usr/sbin/fcgiwrap ] && echo /usr/sbin/fcgiwrap; }
}

# Debian's fcgiwrap: the CGI probe's FastCGI bridge on servers without CGI of their own (Jetty, nginx).
install_fcgiwrap() {
    local name=$1
    if [ -n "$(fcgiwrap_binary)" ]; then
        echo "$name: $(fcgiwrap_binary) is installed (the CGI probe's FastCGI bridge)"
    elif [ "$(id -u)" -ne 0 ]; then
        die "$name: the CGI probe needs fcgiwrap, and installing it needs root: sudo apt-get install fcgiwrap"
    else
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fcgiwrap
        echo "$name: installed $(fcgiwrap_binary)"
    fi
}

# fcgiwrap on RUN/fcgiwrap.sock, in its own process group so that stopping it also ends its workers
# (the CGI programs it forks, which it reaps itself: their CPU counts in the server's process tree).
start_fcgiwrap() {
    local run=$1 waited
    rm -f "$run/fcgiwrap.sock"
    service_user_prefix
    give_to_service_user "$run"
    "${SPICE_AS_USER[@]}" setsid "$(fcgiwrap_binary)" -c 64 -s "unix:$run/fcgiwrap.sock" > "$run/logs/fcgiwrap.log" 2>&1 < /dev/null &
    echo $! > "$run/fcgiwrap.pid"
    for ((waited = 0; waited < 50; waited++)); do
        [ -S "$run/fcgiwrap.sock" ] && return 0
        sleep 0.1
    done
    echo "fcgiwrap did not open $run/fcgiwrap.sock: see $run/logs/fcgiwrap.log" >&2
    return 1
}

# The Tomcat that serves the servlet and JSP probes behind a front server (httpd, nginx), on
# 127.0.0.1:PORT from RUN/tomcat-backend; it stops with the front server (its PID file is under RUN).
start_tomcat_backend() {
    local run=$1 backend_port=$2
    port_in_use "$backend_port" && { echo "port $backend_port for the Tomcat backend is in use (set SPICE_BACKEND_PORT)" >&2; return 1; }
    tomcat_launch "$run/tomcat-backend" "$backend_port" || return 1
    wait_for_answer "$backend_port" /spice/servlet "$run/tomcat-backend/server.pid" \
        || { echo "the Tomcat backend did not answer on port $backend_port" >&2; return 1; }
}
