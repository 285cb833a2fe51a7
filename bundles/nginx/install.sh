#!/usr/bin/env bash
# Installs the SPICE probes into a stock nginx: the pages, the CGI and FastCGI programs, the C module and the njs
# files under PREFIX/opt/spice/nginx, a server block in conf.d/spice.conf on its own address, and the module's
# load_module line in modules-enabled/ (Debian's layout).
# shellcheck source=../install-lib.sh  # lib/ in the bundle, as bundle.sh lays it out
source "$(dirname "$0")/lib/install-lib.sh"

CONF_DIR="" LISTEN=127.0.0.1:8084 H2C_LISTEN=auto FCGI_PORT=9462 FCGIWRAP_SOCKET="" SERVICE_USER="" BUILD_MODULE=auto
NGINX_SRC=/usr/share/nginx/src NGINX=""

bundle_usage() {
    cat <<'USAGE'
  --prefix DIR        the root everything is installed under (default /): DIR/opt/spice/nginx, DIR/etc/nginx
  --conf-dir DIR      nginx's configuration directory (default PREFIX/etc/nginx)
  --listen ADDR:PORT  the probes' server block listens there (default 127.0.0.1:8084)
  --h2c-listen ADDR:PORT|no  the probes over HTTP/2 in clear (h2c, prior knowledge): a server block of their own, as
                      nginx before 1.25 cannot take h2c and HTTP/1 on one port (default: --listen's port + 720)
  --fastcgi-port N    the port of the resident FastCGI program on 127.0.0.1 (default 9462)
  --fcgiwrap-socket PATH  fcgiwrap's socket for the cgi probe (default /run/fcgiwrap.socket where Debian's
                      fcgiwrap service has it, else one spice-helpers starts under PREFIX/opt/spice/nginx/run)
  --user NAME         the user spice-helpers runs its programs as when started by root (default www-data, else nginx)
  --asgi-python PATH  the Python that runs the asgi probes' uvicorn and granian (default
                      /opt/spice/asgi/bin/python, which scripts/spice server install makes)
  --nginx PATH        the nginx binary, to check the prebuilt module's version (default: nginx on PATH)
  --build-module yes|no|auto   build the module against nginx's source (auto: when the prebuilt one does not fit)
  --nginx-src DIR     nginx's source of the running version, for building (default /usr/share/nginx/src, nginx-dev)
USAGE
}

bundle_option() {
    case "$1" in
        conf-dir) CONF_DIR=$2 ;;
        listen) LISTEN=$2 ;;
        h2c-listen) H2C_LISTEN=$2 ;;
        fastcgi-port) FCGI_PORT=$2 ;;
        fcgiwrap-socket) FCGIWRAP_SOCKET=$2 ;;
        user) SERVICE_USER=$2 ;;
        asgi-python) ASGI_PYTHON=$2 ;;
        nginx) NGINX=$2 ;;
        build-module) BUILD_MODULE=$2 ;;
        nginx-src) NGINX_SRC=$2 ;;
        *) return 1 ;;
    esac
}

bundle_defaults() {
    PREFIX=${PREFIX:-/}
    PREFIX=${PREFIX%/}
    SPICE_DIR="$PREFIX/opt/spice/nginx"
    MANIFEST="$SPICE_DIR/installed.manifest"
    CONF_DIR=${CONF_DIR:-$PREFIX/etc/nginx}
    [ "$UNINSTALL" = yes ] && return 0
    [ -f "$CONF_DIR/nginx.conf" ] || fail "no nginx.conf in $CONF_DIR: give --conf-dir (or --prefix)"
    [[ "$LISTEN" =~ ^[^:]+:[0-9]+$ ]] || fail "--listen takes ADDR:PORT, not \"$LISTEN\""
    [[ "$FCGI_PORT" =~ ^[0-9]+$ ]] || fail "--fastcgi-port takes a port number, not \"$FCGI_PORT\""
    [ "$H2C_LISTEN" != auto ] || H2C_LISTEN="${LISTEN%:*}:$((${LISTEN##*:} + 720))"
    [[ "$H2C_LISTEN" =~ ^([^:]+:[0-9]+|no)$ ]] || fail "--h2c-listen takes ADDR:PORT or no, not \"$H2C_LISTEN\""
    [ "$H2C_LISTEN" != "$LISTEN" ] || fail "--h2c-listen needs a port of its own, not --listen's $LISTEN"
    case "$BUILD_MODULE" in yes|no|auto) ;; *) fail "--build-module takes yes, no or auto, not \"$BUILD_MODULE\"" ;; esac
    if [ -z "$SERVICE_USER" ]; then
        if id www-data >/dev/null 2>&1; then SERVICE_USER=www-data; else SERVICE_USER=nginx; fi
    fi
    choose_fcgiwrap_socket
    NGINX=${NGINX:-$(command -v nginx 2>/dev/null || echo /usr/sbin/nginx)}
    # The prebuilt module where this nginx is the very version it was built for; else one built from nginx's source.
    local version system
    version=$("$NGINX" -v 2>&1 | sed -n 's|.*nginx/\([0-9.]*\).*|\1|p')
    if [ "$H2C_LISTEN" != no ] && ! "$NGINX" -V 2>&1 | grep -q -- --with-http_v2_module; then
        SKIPPED+=("h2c: this nginx was built without http_v2_module")
        H2C_LISTEN=no
    fi
    system="$(this_system) nginx $version"
    MODULE=$(prebuilt_or_build "$BUNDLE_DIR/module" "$system" ngx_http_spice_module.so "$BUILD_MODULE" \
        "$BUNDLE_DIR/module/build-module.sh" "$NGINX_SRC")
    NJS=""
    grep -qs ngx_http_js_module "$CONF_DIR/nginx.conf" "$CONF_DIR"/modules-enabled/* && NJS=yes || true
    find_runtimes
    RUNTIME_PROBES=()
    add_found_runtimes
    [ -z "$UWSGI" ] || RUNTIME_PROBES+=(wsgi)
    if grep -qs ngx_http_lua_module "$CONF_DIR/nginx.conf" "$CONF_DIR"/modules-enabled/*; then
        RUNTIME_PROBES+=(lua)
    else
        SKIPPED+=("lua: nginx does not load ngx_http_lua_module here (apt-get install libnginx-mod-http-lua, then install again)")
    fi
}

server_block() {
    cat <<HEAD
# The SPICE probes (spice-nginx bundle), written by its install.sh: ./install.sh --uninstall removes it.
# static /spice/static/spice.html, shtml /spice/shtml/spice.shtml, cgi /spice/cgi-bin/spice (fcgiwrap),
# fastcgi /spice/fcgi/spice (run $SPICE_DIR/bin/spice-helpers start first), module /spice/module$([ -z "$NJS" ] || echo ", njs /spice/njs").
HEAD
    probes_server "$LISTEN"
    if [ "$H2C_LISTEN" != no ]; then
        printf '\n# The same probes over HTTP/2 in clear (h2c, prior knowledge only).\n'
        probes_server "$H2C_LISTEN http2"
    fi
}

# One server block of the probes, listening as $1 says.
probes_server() {
    cat <<BLOCK
server {
    listen $1;
    server_name _;

    # Nothing is served here unless it is a probe.
    location / {
        return 404;
    }

    include "$SPICE_DIR/conf/spice-probes.conf";
BLOCK
    local probe
    for probe in php-fpm wsgi lua node asgi wasm; do
        ! has_runtime "$probe" || printf '    include "%s/conf/spice-%s.conf";\n' "$SPICE_DIR" "$probe"
    done
    if [ -n "$NJS" ]; then
        cat <<NJS

    js_path "$SPICE_DIR/njs";
    js_import spice from spice.js;
    location = /spice/njs {
        js_content spice.answer;
    }
NJS
    fi
    echo "}"
}

bundle_files() {
    put_file "$BUNDLE_DIR/files/www/static/spice.html" "$SPICE_DIR/www/static/spice.html" 644
    put_file "$BUNDLE_DIR/files/www/shtml/spice.shtml" "$SPICE_DIR/www/shtml/spice.shtml" 644
    put_file "$BUNDLE_DIR/files/cgi-bin/spice" "$SPICE_DIR/cgi-bin/spice" 755
    put_helpers "${OWN_FCGIWRAP:+$FCGIWRAP_SOCKET}"
    put_file "$MODULE" "$SPICE_DIR/lib/ngx_http_spice_module.so" 644
    put_file "$BUNDLE_DIR/files/conf/fastcgi.conf" "$SPICE_DIR/conf/fastcgi.conf" 644
    put_file "$BUNDLE_DIR/files/conf/uwsgi.conf" "$SPICE_DIR/conf/uwsgi.conf" 644
    put_runtimes
    local probe
    put_file "$BUNDLE_DIR/files/conf/proxy.conf" "$SPICE_DIR/conf/proxy.conf" 644
    local run="$SPICE_DIR/run"
    for probe in php-fpm wsgi lua node asgi wasm; do
        has_runtime "$probe" || continue
        put_text "$SPICE_DIR/conf/spice-$probe.conf" 644 \
            sed -e "s|@SPICE_PHP_FPM_SOCKET@|$run/php-fpm.sock|g" -e "s|@SPICE_UWSGI_SOCKET@|$run/uwsgi.sock|g" \
            -e "s|@SPICE_UWSGI_HTTP_SOCKET@|$run/uwsgi-http.sock|g" -e "s|@SPICE_NODE_SOCKET@|$run/node.sock|g" \
            -e "s|@SPICE_UVICORN_SOCKET@|$run/asgi-uvicorn.sock|g" -e "s|@SPICE_GRANIAN_SOCKET@|$run/asgi-granian.sock|g" \
            -e "s|@SPICE_WASM_SOCKET@|$run/wasm.sock|g" \
            -e "s|@SPICE_RUNTIMES@|$SPICE_DIR/runtimes|g" -e "s|@SPICE_CONF@|$SPICE_DIR/conf|g" "$BUNDLE_DIR/files/conf/spice-$probe.conf"
    done
    put_text "$SPICE_DIR/conf/spice-probes.conf" 644 \
        sed -e "s|@SPICE_WEBAPP@|$SPICE_DIR/www|g" -e "s|@SPICE_CGI_DIR@|$SPICE_DIR/cgi-bin|g" \
        -e "s|@SPICE_FCGIWRAP_SOCKET@|$FCGIWRAP_SOCKET|g" -e "s|@SPICE_FCGI_PORT@|$FCGI_PORT|g" \
        -e "s|@SPICE_CONF@|$SPICE_DIR/conf|g" "$BUNDLE_DIR/files/conf/spice-probes.conf"
    if [ -n "$NJS" ]; then
        put_file "$BUNDLE_DIR/files/njs/spice.js" "$SPICE_DIR/njs/spice.js" 644
        put_file "$BUNDLE_DIR/files/njs/spice_page.js" "$SPICE_DIR/njs/spice_page.js" 644
    fi
    put_text "$CONF_DIR/conf.d/spice.conf" 644 server_block
    if [ -d "$CONF_DIR/modules-enabled" ]; then
        put_text "$CONF_DIR/modules-enabled/50-mod-http-spice.conf" 644 \
            printf 'load_module "%s/lib/ngx_http_spice_module.so";\n' "$SPICE_DIR"
    fi
}

bundle_before_uninstall() {
    stop_helpers
}

bundle_after() {
    [ -d "$CONF_DIR/modules-enabled" ] || echo "Add to the top of nginx.conf: load_module \"$SPICE_DIR/lib/ngx_http_spice_module.so\";"
    [ -n "$NJS" ] || echo "njs: nginx does not load ngx_http_js_module here, so /spice/njs is left out (apt-get install libnginx-mod-http-js, then install again)"
    local skipped
    for skipped in "${SKIPPED[@]}"; do echo "left out: $skipped"; done
    cat <<NEXT

Next, on this machine:
  $SPICE_DIR/bin/spice-helpers start     # the resident FastCGI program$([ -z "$OWN_FCGIWRAP" ] || echo ", fcgiwrap on $FCGIWRAP_SOCKET")$([ -z "$PHP_FPM" ] || echo ", the PHP-FPM pool")$([ -z "$UWSGI" ] || echo ", uWSGI")$([ -z "$NODE" ] || echo ", Node.js")$([ -z "$ASGI_PYTHON" ] || echo ", uvicorn and granian"), the WebAssembly host
  nginx -t && nginx -s reload
From the client (the SPICE checkout), with this server's address:
  scripts/spice verify http://$LISTEN --probes static,shtml,cgi,fastcgi,module$([ -z "$NJS" ] || echo ",njs")$(runtime_probe_list)$([ "$H2C_LISTEN" = no ] || printf '\n  scripts/spice verify http://%s --http2 --probes static,shtml,cgi,fastcgi,module%s%s   # h2c' "$H2C_LISTEN" "$([ -z "$NJS" ] || echo ",njs")" "$(runtime_probe_list)")
NEXT
}

main "$@"
