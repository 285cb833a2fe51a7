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
    local run=$1 fcgi_port=$2 program="$SPICE_ROOT/cgi-c/target/spice-fcgi"
    if [ ! -x "$program" ]; then
        [ -f /usr/include/fcgiapp.h ] || { echo "the FastCGI probe needs libfcgi-dev: apt-get install libfcgi-dev" >&2; return 1; }
        make --no-print-directory -C "$SPICE_ROOT/cgi-c" OUT="$SPICE_ROOT/cgi-c/target" fcgi >&2 || return 1
    fi
    port_in_use "$fcgi_port" && { echo "port $fcgi_port for the FastCGI probe is in use" >&2; return 1; }
    program=$(served "$program") || return 1
    service_user_prefix
    give_to_service_user "$run"
    "${SPICE_AS_USER[@]}" setsid "$program" "127.0.0.1:$fcgi_port" > "$run/logs/fcgi.log" 2>&1 < /dev/null &
    echo $! > "$run/fcgi.pid"
    await_ready "the FastCGI probe (127.0.0.1:$fcgi_port)" "$run/fcgi.pid" "$run/logs/fcgi.log" port_in_use "$fcgi_port"
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
    local run=$1
    rm -f "$run/fcgiwrap.sock"
    service_user_prefix
    give_to_service_user "$run"
    "${SPICE_AS_USER[@]}" setsid "$(fcgiwrap_binary)" -c 64 -s "unix:$run/fcgiwrap.sock" > "$run/logs/fcgiwrap.log" 2>&1 < /dev/null &
    echo $! > "$run/fcgiwrap.pid"
    await_ready "fcgiwrap ($run/fcgiwrap.sock)" "$run/fcgiwrap.pid" "$run/logs/fcgiwrap.log" test -S "$run/fcgiwrap.sock"
}

# The Tomcat that serves the servlet and JSP probes behind a front server (httpd, nginx), on
# 127.0.0.1:PORT from RUN/tomcat-backend; it stops with the front server (its PID file is under RUN).
start_tomcat_backend() {
    local run=$1 backend_port=$2
    port_in_use "$backend_port" && { echo "port $backend_port for the Tomcat backend is in use (set SPICE_BACKEND_PORT)" >&2; return 1; }
    # On platform threads whatever the front server was started with (--threads is Tomcat's and Jetty's own).
    SPICE_THREADS=platform SPICE_LISTEN=127.0.0.1 tomcat_launch "$run/tomcat-backend" "$backend_port" || return 1
    wait_for_answer "$backend_port" /spice/servlet "$run/tomcat-backend/server.pid" tomcat_start_failed \
        || { echo "the Tomcat backend did not answer on port $backend_port" >&2; return 1; }
}

# --- The language runtimes' probes (runtimes/): PHP, Python (WSGI) and Lua, from Debian's packages.

php_fpm_binary() {
    command -v php-fpm8.2 2>/dev/null || find /usr/sbin -maxdepth 1 -name 'php-fpm*' -print 2>/dev/null | sort | tail -1
}

uwsgi_binary() {
    command -v uwsgi-core 2>/dev/null || command -v uwsgi 2>/dev/null
}

# The packages a server's runtime probes need (SERVER: apache or nginx), installed with apt where missing. Debian
# starts the services some of them bring (php8.2-fpm; apache2, which mod_php switches to prefork): SPICE runs its
# own, so they are stopped again.
install_runtimes() {
    local server=$1 packages=(php8.2-fpm php8.2-opcache) missing=() package
    case "$server" in
        apache) packages+=(libapache2-mod-php8.2 libapache2-mod-wsgi-py3) ;;
        nginx) packages+=(uwsgi-core uwsgi-plugin-python3 libnginx-mod-http-lua) ;;
    esac
    for package in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
    done
    if [ ${#missing[@]} -eq 0 ]; then
        echo "$server: the runtime probes' packages are installed (${packages[*]})"
        return 0
    fi
    [ "$(id -u)" -eq 0 ] || die "$server: the php-fpm, wsgi and lua probes need ${missing[*]}, and installing needs root: sudo apt-get install ${missing[*]}"
    # Debian's mod_php switches the distribution's httpd to prefork when it is installed: the MPM it had is put back
    # (SPICE's own httpd chooses its MPM per start, and a stock httpd is the administrator's).
    local mpm_before=
    if [ -d /etc/apache2/mods-enabled ]; then
        mpm_before=$(find /etc/apache2/mods-enabled -name 'mpm_*.load' -printf '%f\n' | sed 's/\.load$//' | head -1)
    fi
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
    if [ -n "$mpm_before" ] && [ ! -e "/etc/apache2/mods-enabled/$mpm_before.load" ] && command -v a2enmod >/dev/null 2>&1; then
        a2dismod -q -f php8.2 mpm_prefork >/dev/null 2>&1 || true
        a2enmod -q "$mpm_before" >/dev/null 2>&1 && echo "$server: Debian's httpd put back on $mpm_before (mod_php had switched it to prefork)"
    fi
    local service
    for service in php8.2-fpm apache2 nginx uwsgi; do
        service "$service" stop >/dev/null 2>&1 || true
        command -v systemctl >/dev/null 2>&1 && systemctl disable --now "$service" >/dev/null 2>&1 || true
    done
    echo "$server: installed ${missing[*]} (the distribution's services stopped: SPICE starts its own)"
}

# Whether the runtime probes' packages of SERVER are on the machine.
runtimes_installed() {
    [ -n "$(php_fpm_binary)" ] && [ -f "$(php_extension_dir)/opcache.so" ] || return 1
    case "$1" in
        apache) [ -n "$(apache_mod_php)" ] && [ -f "$APACHE_MODULES_DIR/mod_wsgi.so" ] \
            && [ -f "$APACHE_MODULES_DIR/mod_lua.so" ] ;;
        nginx) [ -n "$(uwsgi_binary)" ] && [ -f /usr/lib/uwsgi/plugins/python3_plugin.so ] \
            && [ -f "$NGINX_MODULES_DIR/ngx_http_lua_module.so" ] ;;
    esac
}

php_extension_dir() {
    find /usr/lib/php -maxdepth 1 -type d -name '20*' 2>/dev/null | sort | tail -1
}

# The scripts of the runtime probes, generated from the page at build time, copied into RUN/runtimes (which the
# service user can read whatever the checkout's permissions).
copy_runtimes() {
    local run=$1 kind
    rm -rf "$run/runtimes"
    mkdir -p "$run/runtimes"
    for kind in php wsgi lua; do
        [ -d "$SPICE_ROOT/runtimes/target/$kind" ] || { echo "runtimes/target/$kind is missing: build with mvn package" >&2; return 1; }
        cp -r "$SPICE_ROOT/runtimes/target/$kind" "$run/runtimes/"
    done
}

# Runs PROGRAM ARGS... in the background as the service user, in its own session (stopping it ends its workers),
# with only the environment given before "--", its PID in RUN/NAME.pid, and its output in RUN/logs/NAME.out; waits
# up to 10 s for SOCKET to appear.
start_resident() {
    local run=$1 name=$2 socket=$3 environment=()
    shift 3
    while [ "$1" != -- ]; do environment+=("$1"); shift; done
    shift
    rm -f "$socket"
    service_user_prefix
    give_to_service_user "$run"
    "${SPICE_AS_USER[@]}" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "${environment[@]}" setsid "$@" \
        > "$run/logs/$name.out" 2>&1 < /dev/null &
    echo $! > "$run/$name.pid"
    await_ready "$name ($socket)" "$run/$name.pid" "$run/logs/$name.out" test -S "$socket"
}

# The php-fpm probe's pool (conf/php/php-fpm.conf) on RUN/php-fpm.sock, its socket the server's user's. Where the
# servers fall back to root (the service user cannot read this tree), the pool runs as root too, as they do
# (php-fpm -R: it refuses root workers otherwise), its socket still the service user's, whom httpd's and
# nginx's workers run as.
start_php_fpm() {
    local run=$1 owner root_too=() conf
    owner=$(php_fpm_socket_owner) || return 1
    conf=$(served "$SPICE_ROOT/conf/php") || return 1
    service_user_prefix 2>/dev/null
    [ "$(id -u)" -ne 0 ] || [ "${#SPICE_AS_USER[@]}" -gt 0 ] || root_too=(-R)
    start_resident "$run" php-fpm "$run/php-fpm.sock" SPICE_RUN="$run" SPICE_SOCKET_OWNER="$owner" \
        SPICE_SOCKET_GROUP="$(id -gn "$owner")" PHP_INI_SCAN_DIR= TZ=UTC -- "$(php_fpm_binary)" -F "${root_too[@]}" -y "$conf/php-fpm.conf" \
        -c "$conf/php.ini"
}

# Whom the pool's socket belongs to: the service user as root (the server's workers are that user), else the caller.
php_fpm_socket_owner() {
    [ "$(id -u)" -eq 0 ] || { id -un; return 0; }
    id "$SPICE_SERVICE_USER" >/dev/null 2>&1 || {
        echo "php-fpm: the servers' workers and the pool's socket belong to $SPICE_SERVICE_USER, and there is no such user" \
            "here: create it (useradd --system --no-create-home $SPICE_SERVICE_USER) or name another (SPICE_SERVICE_USER=USER)" >&2
        return 1
    }
    echo "$SPICE_SERVICE_USER"
}

# uWSGI for the wsgi probe behind nginx (conf/uwsgi/spice.ini) on RUN/uwsgi.sock.
start_uwsgi() {
    local run=$1 conf
    conf=$(served "$SPICE_ROOT/conf/uwsgi") || return 1
    start_resident "$run" uwsgi "$run/uwsgi.sock" SPICE_RUN="$run" SPICE_RUNTIMES="$run/runtimes" TZ=UTC -- \
        "$(uwsgi_binary)" --ini "$conf/spice.ini"
}
