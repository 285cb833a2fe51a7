# nginx from Debian's packages, with conf/nginx/nginx.conf and its own run directory. Its CGI probe goes
# through Debian's fcgiwrap (nginx has no CGI); its servlet and JSP probes are proxied to a Tomcat it
# starts beside itself; its module probe is ngx_http_spice_module, built against Debian's nginx-dev.
# shellcheck shell=bash

NGINX_MODULES_DIR=/usr/lib/nginx/modules

nginx_binary() {
    command -v nginx 2>/dev/null || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; }
}

# Debian's nginx, its njs module and nginx-dev (the sources the C module is built against).
nginx_packages_installed() {
    [ -n "$(nginx_binary)" ] && [ -f "$NGINX_MODULES_DIR/ngx_http_js_module.so" ] && [ -f /usr/share/nginx/src/configure ]
}

nginx_installed() {
    nginx_packages_installed && [ -n "$(fcgiwrap_binary)" ] && [ -f /usr/include/fcgiapp.h ] && runtimes_installed nginx \
        && tomcat_installed
}

nginx_install() {
    if nginx_packages_installed; then
        echo "nginx: $(nginx_binary), its njs module and nginx-dev are installed"
    elif [ "$(id -u)" -ne 0 ]; then
        die "nginx: installing needs root: sudo apt-get install nginx nginx-dev libnginx-mod-http-js"
    else
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx nginx-dev libnginx-mod-http-js
        # Debian may start its own nginx service on port 80 after installing it: SPICE runs its own nginx.
        if [ -f /run/nginx.pid ]; then
            service nginx stop >/dev/null 2>&1 || true
        fi
        echo "nginx: installed $(nginx_binary), its njs module and nginx-dev"
    fi
    install_fcgiwrap nginx
    install_libfcgi
    install_runtimes nginx
    # Its servlet and JSP probes run on a Tomcat behind it.
    tomcat_install
}


nginx_logs() {
    ls "$1/logs/error.log" "$1/logs/fcgiwrap.log" "$1"/logs/{php-fpm,php,uwsgi}.{log,out} "$1"/tomcat-backend/logs/catalina.*.log 2>/dev/null
}

# RUN holds everything nginx reads (its configuration, the module, the njs files, the pages and the CGI
# program), so that it runs as www-data whatever the checkout's permissions.
nginx_launch() {
    local run=$1 port=$2 module
    local backend_port=$SPICE_BACKEND_PORT fcgi_port=$SPICE_FCGI_PORT
    module=$(c_module nginx ngx_http_spice_module.so) || return 1
    rm -rf "$run"/{conf,njs,webapp,cgi,temp}
    mkdir -p "$run"/{conf,njs,webapp,cgi,temp}
    cp "$module" "$run/ngx_http_spice_module.so"
    cp "$SPICE_ROOT/nsapi-like-module/nginx/njs/spice.js" "$SPICE_ROOT/nsapi-like-module/nginx/target/generated/spice_page.js" "$run/njs/"
    cp -r "$SPICE_ROOT/webapp/target/spice/static" "$SPICE_ROOT/webapp/target/spice/shtml" "$run/webapp/"
    cp "$SPICE_ROOT/cgi-c/target/spice" "$run/cgi/spice"
    cp "$SPICE_ROOT"/conf/nginx/{fastcgi,proxy,uwsgi}.conf "$run/conf/"
    copy_runtimes "$run" || return 1
    local access_log=off
    [ "$SPICE_ACCESS_LOG" = on ] && access_log="$run/logs/access.log"
    local file
    for file in nginx.conf spice-probes.conf spice-php-fpm.conf spice-wsgi.conf spice-lua.conf; do
        sed -e "s|@SPICE_RUN@|$run|g" -e "s|@SPICE_CONF@|$run/conf|g" -e "s|@SPICE_PORT@|$port|g" -e "s|@SPICE_LISTEN@|$SPICE_LISTEN|g" \
            -e "s|@SPICE_FCGIWRAP_SOCKET@|$run/fcgiwrap.sock|g" -e "s|@SPICE_TLS_PORT@|$(tls_port "$port")|g" -e "s|@SPICE_TLS_CERT@|$SPICE_TLS_CERT|g" \
            -e "s|@SPICE_H2C_PORT@|$(companion_port nginx "$port" h2c)|g" \
            -e "s|@SPICE_TLS_KEY@|$SPICE_TLS_KEY|g" -e "s|@SPICE_BACKEND_PORT@|$backend_port|g" \
            -e "s|@SPICE_FCGI_PORT@|$fcgi_port|g" -e "s|@SPICE_WEBAPP@|$run/webapp|g" -e "s|@SPICE_CGI_DIR@|$run/cgi|g" \
            -e "s|@SPICE_FILESET@|$SPICE_FILESET|g" -e "s|@SPICE_WORKERS@|$SPICE_NGINX_WORKERS|g" \
            -e "s|@SPICE_ACCESS_LOG@|$access_log|g" -e "s|@SPICE_NJS_MODULE@|$NGINX_MODULES_DIR/ngx_http_js_module.so|g" \
            -e "s|@SPICE_NGINX_MODULES@|$NGINX_MODULES_DIR|g" -e "s|@SPICE_RUNTIMES@|$run/runtimes|g" \
            -e "s|@SPICE_PHP_FPM_SOCKET@|$run/php-fpm.sock|g" -e "s|@SPICE_UWSGI_SOCKET@|$run/uwsgi.sock|g" \
            "$SPICE_ROOT/conf/nginx/$file" > "$run/conf/$file"
    done
    grep -q '@SPICE_' "$run"/conf/*.conf && { echo "nginx: conf/nginx/ has an unknown @SPICE_...@ word" >&2; return 1; }

    start_fcgiwrap "$run" || return 1
    start_fastcgi_probe "$run" "$fcgi_port" || return 1
    start_php_fpm "$run" || return 1
    start_uwsgi "$run" || return 1
    start_tomcat_backend "$run" "$backend_port" || return 1

    service_user_prefix
    give_to_service_user "$run"
    # A fixed zone, so the SSI module's DATE_LOCAL does not depend on the machine's settings (nginx keeps TZ).
    "${SPICE_AS_USER[@]}" env TZ="${TZ:-UTC}" "$(nginx_binary)" -t -p "$run" -c "$run/conf/nginx.conf" -e "$run/logs/error.log" \
        > "$run/logs/configtest.log" 2>&1 || { cat "$run/logs/configtest.log" >&2; return 1; }
    "${SPICE_AS_USER[@]}" env TZ="${TZ:-UTC}" setsid "$(nginx_binary)" -p "$run" -c "$run/conf/nginx.conf" -e "$run/logs/error.log" \
        > "$run/logs/nginx.out" 2>&1 < /dev/null &
    echo $! > "$run/server.pid"
}
