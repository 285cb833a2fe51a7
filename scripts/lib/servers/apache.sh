# Apache httpd 2.4 from Debian's packages, with conf/apache/httpd.conf and its own run directory.
# Its servlet and JSP probes are proxied to a Tomcat backend that it starts beside itself.
# shellcheck shell=bash

APACHE_MODULES_DIR=/usr/lib/apache2/modules

apache_binary() {
    command -v apache2 2>/dev/null || command -v httpd 2>/dev/null || { [ -x /usr/sbin/apache2 ] && echo /usr/sbin/apache2; }
}

apache_apxs() {
    command -v apxs 2>/dev/null || command -v apxs2 2>/dev/null
}

apache_installed() {
    [ -n "$(apache_binary)" ] && [ -f "$APACHE_MODULES_DIR/mod_mpm_event.so" ] && [ -n "$(apache_apxs)" ] \
        && [ -f /usr/include/fcgiapp.h ] && runtimes_installed apache && tomcat_installed
}

# Debian's mod_php (libphp8.2.so, or the version it has).
apache_mod_php() {
    find "$APACHE_MODULES_DIR" -maxdepth 1 -name 'libphp*.so' -print 2>/dev/null | sort | tail -1
}

apache_install() {
    if [ -n "$(apache_binary)" ] && [ -n "$(apache_apxs)" ]; then
        echo "apache: $(apache_binary) and $(apache_apxs) are installed"
    elif [ "$(id -u)" -ne 0 ]; then
        die "apache: installing needs root: sudo apt-get install apache2 apache2-dev"
    else
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq apache2 apache2-dev libfcgi-dev
        # Debian starts its own apache2 service on port 80 after installing it: SPICE runs its own httpd.
        if [ -f /var/run/apache2/apache2.pid ]; then
            service apache2 stop >/dev/null 2>&1 || true
        fi
        echo "apache: installed $(apache_binary) and $(apache_apxs)"
    fi
    install_libfcgi
    install_runtimes apache
    # Its servlet and JSP probes run on a Tomcat behind it.
    tomcat_install
}


apache_logs() {
    ls "$1/logs/start.out" "$1/logs/error.log" "$1"/logs/{php-fpm,php}.{log,out} "$1"/tomcat-backend/logs/catalina.*.log 2>/dev/null
}

# httpd's PID file is written (0), it gave up as its log says (2), or neither yet (1).
apache_ready() {
    [ ! -s "$1/server.pid" ] || return 0
    ! apache_start_failed "$1" || return 2
    return 1
}

# httpd's daemon, once detached, logs why it stops before it ever writes its PID file.
apache_start_failed() {
    grep -qE 'no listening sockets available|AH00015|Configuration Failed' "$1/logs/error.log" 2>/dev/null
}

apache_launch() {
    local run=$1 port=$2 defines=()
    local backend_port=$SPICE_BACKEND_PORT
    export SPICE_RUN="$run" SPICE_PORT="$port" SPICE_BACKEND_PORT="$backend_port" SPICE_FCGI_PORT SPICE_LISTEN
    SPICE_TLS_PORT=$(tls_port "$port")
    export SPICE_TLS_PORT SPICE_TLS_CERT SPICE_TLS_KEY
    export SPICE_APACHE_MODULES="$APACHE_MODULES_DIR"
    # httpd maps the module file into every child: a copy in the run directory, so that a rebuild
    # (mvn package rewrites target/mod_spice.so) cannot crash a running server.
    cp "$(c_module apache mod_spice.so)" "$run/mod_spice.so" || return 1
    # shellcheck disable=SC2153  # SPICE_ROOT is common.sh's
    export SPICE_MOD_SPICE="$run/mod_spice.so" SPICE_CONF_DIR="$SPICE_ROOT/conf/apache"
    # Its workers and the CGI program read these as the service user (as root): from copies where the checkout is out
    # of that user's reach (served).
    SPICE_WEBAPP=$(served "$SPICE_ROOT/webapp/target/spice") && SPICE_CGI_DIR=$(served "$SPICE_ROOT/cgi-c/target") || return 1
    export SPICE_WEBAPP SPICE_CGI_DIR
    mkdir -p "$SPICE_FILESET"
    export SPICE_FILESET
    # A fixed zone, so mod_include's DATE_LOCAL does not depend on the machine's settings.
    export TZ=${TZ:-UTC}
    if [ "$(id -u)" -eq 0 ]; then
        # httpd will not run its workers as root: they, and the CGI program, run as the service user
        # (www-data unless SPICE_SERVICE_USER says otherwise).
        export SPICE_USER="$SPICE_SERVICE_USER" SPICE_GROUP="$SPICE_SERVICE_USER"
    else
        SPICE_USER=$(id -un) SPICE_GROUP=$(id -gn)
        export SPICE_USER SPICE_GROUP
    fi
    [ "$SPICE_MPM" = prefork ] && defines+=(-D SPICE_PREFORK)
    # The language runtimes' probes: their scripts in the run directory, PHP-FPM's pool beside httpd, mod_php
    # (prefork) reading SPICE's php.ini alone.
    copy_runtimes "$run" || return 1
    chmod -R a+rX "$run/runtimes"
    SPICE_PHP_INI_DIR=$(served "$SPICE_ROOT/conf/php") || return 1
    export SPICE_RUNTIMES="$run/runtimes" SPICE_PHP_FPM_SOCKET="$run/php-fpm.sock" SPICE_PHP_INI_DIR
    SPICE_MOD_PHP=$(apache_mod_php)
    export SPICE_MOD_PHP PHP_INI_SCAN_DIR=
    defines+=(-D SPICE_PHP_FPM)
    [ "$SPICE_ACCESS_LOG" = on ] && defines+=(-D SPICE_ACCESS_LOG)

    start_fastcgi_probe "$run" "$SPICE_FCGI_PORT" || return 1
    start_php_fpm "$run" || return 1
    start_tomcat_backend "$run" "$backend_port" || return 1

    "$(apache_binary)" -t -f "$SPICE_ROOT/conf/apache/httpd.conf" "${defines[@]}" > "$run/logs/configtest.log" 2>&1 \
        || { cat "$run/logs/configtest.log" >&2; return 1; }
    "$(apache_binary)" -f "$SPICE_ROOT/conf/apache/httpd.conf" "${defines[@]}" -k start > "$run/logs/start.out" 2>&1 || return 1
    # httpd forks and writes its PID file when ready.
    await_ready httpd "" "$run/logs/error.log" apache_ready "$run"
}
