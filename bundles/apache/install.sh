#!/usr/bin/env bash
# Installs the SPICE probes into a stock Apache httpd 2.4: the pages, the CGI and FastCGI programs, mod_spice and the
# language runtimes' scripts under PREFIX/opt/spice/apache, and one configuration file that serves them at the SPICE
# URL layout (Debian/Ubuntu: conf-available/spice.conf, enabled as a2enconf does; RHEL: conf.d/spice.conf). The
# runtime probes are those the machine has: php-fpm (a pool spice-helpers runs), wsgi (mod_wsgi), lua (mod_lua),
# mod-php (where httpd loads mod_php itself).
# shellcheck source=../install-lib.sh  # lib/ in the bundle, as bundle.sh lays it out
source "$(dirname "$0")/lib/install-lib.sh"

CONF_DIR="" MODULES_DIR="" FCGI_PORT=9461 SERVICE_USER="" BUILD_MODULE=auto

bundle_usage() {
    cat <<'USAGE'
  --prefix DIR        the root everything is installed under (default /): DIR/opt/spice/apache, DIR/etc/apache2
  --conf-dir DIR      httpd's configuration directory (default PREFIX/etc/apache2, else PREFIX/etc/httpd)
  --modules-dir DIR   where httpd's own modules are (default: apxs -q LIBEXECDIR, or Debian's and RHEL's places)
  --fastcgi-port N    the port of the resident FastCGI program on 127.0.0.1 (default 9461)
  --user NAME         the user spice-helpers runs the FastCGI program as when started by root (default www-data, else apache)
  --asgi-python PATH  the Python that runs the asgi probes' uvicorn and granian (default
                      /opt/spice/asgi/bin/python, which scripts/spice server install makes)
  --build-module yes|no|auto   build mod_spice from source with apxs (auto: only when the prebuilt one is for another system)
USAGE
}

bundle_option() {
    case "$1" in
        conf-dir) CONF_DIR=$2 ;;
        modules-dir) MODULES_DIR=$2 ;;
        fastcgi-port) FCGI_PORT=$2 ;;
        user) SERVICE_USER=$2 ;;
        asgi-python) ASGI_PYTHON=$2 ;;
        build-module) BUILD_MODULE=$2 ;;
        *) return 1 ;;
    esac
}

bundle_defaults() {
    PREFIX=${PREFIX:-/}
    PREFIX=${PREFIX%/}
    SPICE_DIR="$PREFIX/opt/spice/apache"
    MANIFEST="$SPICE_DIR/installed.manifest"
    if [ -z "$CONF_DIR" ]; then
        if [ -d "$PREFIX/etc/apache2" ]; then CONF_DIR="$PREFIX/etc/apache2"; else CONF_DIR="$PREFIX/etc/httpd"; fi
    fi
    [ "$UNINSTALL" = yes ] && return 0
    [ -d "$CONF_DIR" ] || fail "no httpd configuration in $CONF_DIR: give --conf-dir (or --prefix)"
    [[ "$FCGI_PORT" =~ ^[0-9]+$ ]] && [ "$FCGI_PORT" -ge 1 ] && [ "$FCGI_PORT" -le 65535 ] \
        || fail "--fastcgi-port takes a port number, not \"$FCGI_PORT\""
    case "$BUILD_MODULE" in yes|no|auto) ;; *) fail "--build-module takes yes, no or auto, not \"$BUILD_MODULE\"" ;; esac
    if [ -z "$SERVICE_USER" ]; then
        if id www-data >/dev/null 2>&1; then SERVICE_USER=www-data; else SERVICE_USER=apache; fi
    fi
    local apxs
    apxs=$(command -v apxs 2>/dev/null || command -v apxs2 2>/dev/null || true)
    if [ -z "$MODULES_DIR" ]; then
        if [ -n "$apxs" ]; then MODULES_DIR=$("$apxs" -q LIBEXECDIR); fi
        for dir in /usr/lib/apache2/modules /usr/lib64/httpd/modules /usr/lib/httpd/modules; do
            [ -n "$MODULES_DIR" ] || { [ -f "$dir/mod_alias.so" ] && MODULES_DIR=$dir; } || true
        done
    fi
    [ -f "$MODULES_DIR/mod_alias.so" ] || fail "httpd's modules are not in \"$MODULES_DIR\": give --modules-dir"
    # The prebuilt mod_spice.so where this system is the one it was built on, else one built here with apxs.
    MODULE=$(prebuilt_or_build "$BUNDLE_DIR/module" "$(this_system)" mod_spice.so "$BUILD_MODULE" \
        "$BUNDLE_DIR/module/build-module.sh" "$apxs")
    find_runtimes
    UWSGI=""   # httpd runs WSGI in mod_wsgi, not uWSGI
    RUNTIME_PROBES=()
    add_found_runtimes
    if [ -f "$MODULES_DIR/mod_wsgi.so" ]; then RUNTIME_PROBES+=(wsgi); else SKIPPED+=("wsgi: no mod_wsgi in $MODULES_DIR (apt-get install libapache2-mod-wsgi-py3)"); fi
    if [ -f "$MODULES_DIR/mod_lua.so" ]; then RUNTIME_PROBES+=(lua); else SKIPPED+=("lua: no mod_lua in $MODULES_DIR"); fi
    SKIPPED+=("mod-php: served where httpd loads mod_php itself (it needs the prefork MPM: a2enmod php8.2 switches to it)")
}

# One LoadModule, unless httpd has that module already.
load_module() {
    printf '<IfModule !%s_module>\n    LoadModule %s_module "%s/mod_%s.so"\n</IfModule>\n' "$1" "$1" "$MODULES_DIR" "$1"
}

spice_conf() {
    cat <<HEAD
# The SPICE probes (spice-apache bundle), written by its install.sh: ./install.sh --uninstall removes it.
# static /spice/static/spice.html, shtml /spice/shtml/spice.shtml, cgi /spice/cgi-bin/spice,
# module /spice/module, fastcgi /spice/fcgi/spice (run $SPICE_DIR/bin/spice-helpers start first).
Define SPICE_WEBAPP "$SPICE_DIR/www"
Define SPICE_CGI_DIR "$SPICE_DIR/cgi-bin"
Define SPICE_FCGI_PORT $FCGI_PORT
# The language runtimes' probes: their scripts, and PHP-FPM's pool where spice-helpers runs one.
Define SPICE_RUNTIMES "$SPICE_DIR/runtimes"
HEAD
    if [ -n "$PHP_FPM" ]; then
        printf 'Define SPICE_PHP_FPM\nDefine SPICE_PHP_FPM_SOCKET "%s"\n' "$SPICE_DIR/run/php-fpm.sock"
    fi
    # The programs on sockets spice-helpers runs beside httpd: the WebAssembly host, Node.js, the ASGI servers.
    printf 'Define SPICE_WASM\nDefine SPICE_WASM_SOCKET "%s"\n' "$SPICE_DIR/run/wasm.sock"
    ! has_runtime node || printf 'Define SPICE_NODE\nDefine SPICE_NODE_SOCKET "%s"\n' "$SPICE_DIR/run/node.sock"
    ! has_runtime asgi || printf 'Define SPICE_ASGI\nDefine SPICE_UVICORN_SOCKET "%s"\nDefine SPICE_GRANIAN_SOCKET "%s"\n' \
        "$SPICE_DIR/run/asgi-uvicorn.sock" "$SPICE_DIR/run/asgi-granian.sock"
    echo
    local module
    for module in authz_core alias mime include env proxy proxy_fcgi proxy_http allowmethods; do
        load_module "$module"
    done
    # CGI as the MPM wants it: mod_cgi under prefork, mod_cgid under a threaded MPM.
    echo '<IfModule !cgi_module>'
    echo '<IfModule !cgid_module>'
    echo '<IfModule mpm_prefork_module>'
    load_module cgi
    echo '</IfModule>'
    echo '<IfModule !mpm_prefork_module>'
    load_module cgid
    echo '</IfModule>'
    echo '</IfModule>'
    echo '</IfModule>'
    # Where the server runs mod_http2, mod_buffer too: the SSI probe's HEAD over HTTP/2 needs it (spice-probes.conf).
    echo '<IfModule http2_module>'
    load_module buffer
    echo '</IfModule>'
    printf 'LoadModule spice_module "%s/lib/mod_spice.so"\n' "$SPICE_DIR"
    ! has_runtime wsgi || load_module wsgi
    ! has_runtime lua || load_module lua
    echo
    cat "$BUNDLE_DIR/files/conf/spice-probes.conf"
}

bundle_files() {
    put_file "$BUNDLE_DIR/files/www/static/spice.html" "$SPICE_DIR/www/static/spice.html" 644
    put_file "$BUNDLE_DIR/files/www/shtml/spice.shtml" "$SPICE_DIR/www/shtml/spice.shtml" 644
    put_file "$BUNDLE_DIR/files/cgi-bin/spice" "$SPICE_DIR/cgi-bin/spice" 755
    put_helpers ""
    put_file "$MODULE" "$SPICE_DIR/lib/mod_spice.so" 644
    put_runtimes
    if [ -d "$CONF_DIR/conf-available" ]; then
        put_text "$CONF_DIR/conf-available/spice.conf" 644 spice_conf
        put_link ../conf-available/spice.conf "$CONF_DIR/conf-enabled/spice.conf"
    else
        put_text "$CONF_DIR/conf.d/spice.conf" 644 spice_conf
    fi
}

bundle_before_uninstall() {
    stop_helpers
}

bundle_after() {
    local skipped
    for skipped in "${SKIPPED[@]}"; do echo "left out: $skipped"; done
    cat <<NEXT

Next, on this machine:
  $SPICE_DIR/bin/spice-helpers start     # the resident FastCGI program, for /spice/fcgi/spice$([ -z "$PHP_FPM" ] || echo ", the PHP-FPM pool")$([ -z "$NODE" ] || echo ", Node.js")$([ -z "$ASGI_PYTHON" ] || echo ", uvicorn and granian"), the WebAssembly host
  apachectl configtest && apachectl graceful   # (Debian: systemctl reload apache2)
From the client (the SPICE checkout), with this server's address and port:
  scripts/spice verify http://SERVER:PORT --probes static,shtml,cgi,module,fastcgi$(runtime_probe_list)
HTTP/2: where httpd runs mod_http2 (a2enmod http2, on the event or worker MPM), Debian's http2.conf offers h2c on
every port (and h2 by ALPN on a TLS one); this configuration needs nothing more for it:
  scripts/spice verify http://SERVER:PORT --http2 --probes static,shtml,cgi,module,fastcgi$(runtime_probe_list)
NEXT
}

main "$@"
