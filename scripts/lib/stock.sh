# scripts/spice test-bundles [CELL...]: each deploy bundle installed by its own install.sh into a stock server
# laid out in a temporary directory, the server started, verify run on the bundle's probes, then uninstalled.
# The cells are the compatibility matrix the README states. Sourced by scripts/spice (and by tests.sh).
# shellcheck shell=bash

# CELL BUNDLE PORT PROBES: the matrix, one line per cell. The versions come from pom.xml.
stock_cells() {
    cat <<CELLS
httpd-2.4 apache 18601 static,shtml,cgi,module,fastcgi,php-fpm,wsgi,lua
nginx-1.22 nginx 18602 static,shtml,cgi,fastcgi,module,njs,php-fpm,wsgi,lua
tomcat-$(pom_property tomcat.version) tomcat 18603 static,servlet,jsp,cgi,cgi-stock,shtml,module
tomcat-$(pom_property tomcat10.version) tomcat 18604 static,servlet,jsp,cgi,cgi-stock,shtml,module
tomcat-$(pom_property tomcat9.version) tomcat9 18605 static,servlet,jsp,cgi,cgi-stock,shtml,module
jetty-$(pom_property jetty.version) jetty 18606 static,servlet,jsp,cgi,shtml,module,fastcgi
jetty-$(pom_property jetty12.0.version) jetty 18607 static,servlet,jsp,cgi,shtml,module,fastcgi
CELLS
}

# Every file and link under DIR with its content's hash: what "the stock layout is as it was" compares.
tree_state() {
    (cd "$1" && find . \( -type f -o -type l \) -printf '%p %l\n' | sort | while read -r path link; do
        if [ -n "$link" ]; then echo "$path -> $link"; else echo "$path $(sha256sum < "$path" | cut -c1-16)"; fi
    done)
}

# The checks every cell makes around its own start and stop. Runs in the cell's temporary directory TMP, where
# the bundle is unpacked in TMP/bundle; INSTALL_ARGS are the install.sh options for that server's layout.
# STOCK is the directory of the stock layout that must be as it was after --uninstall.
stock_install() {
    local installer=$1 stock=$2
    shift 2
    local before after
    before=$(tree_state "$stock")
    "$installer" "$@" --dry-run > "$TMP/dry-run.out" || { cat "$TMP/dry-run.out" >&2; echo "install.sh --dry-run failed" >&2; return 1; }
    after=$(tree_state "$stock")
    [ "$before" = "$after" ] || { echo "install.sh --dry-run changed $stock" >&2; return 1; }
    grep -q 'would write' "$TMP/dry-run.out" || { echo "install.sh --dry-run listed nothing" >&2; return 1; }
    "$installer" "$@" > "$TMP/install.out" || { cat "$TMP/install.out" >&2; echo "install.sh failed" >&2; return 1; }
    # Idempotent: the second run writes nothing new.
    "$installer" "$@" > "$TMP/again.out" || { cat "$TMP/again.out" >&2; return 1; }
    if grep -E ': (wrote|updated|linked) ' "$TMP/again.out" >&2; then
        echo "install.sh run twice wrote again" >&2
        return 1
    fi
    STOCK_BEFORE=$before
}

# Uninstalls and checks that the stock layout is exactly as it was and nothing of SPICE's is left.
stock_uninstall() {
    local installer=$1 stock=$2
    shift 2
    "$installer" "$@" --uninstall > "$TMP/uninstall.out" || { cat "$TMP/uninstall.out" >&2; return 1; }
    [ "$(tree_state "$stock")" = "$STOCK_BEFORE" ] || {
        diff <(echo "$STOCK_BEFORE") <(tree_state "$stock") >&2
        echo "after --uninstall, $stock is not as it was" >&2
        return 1
    }
}

# A file of someone else's where the bundle would write stops install.sh before it writes anything.
stock_refuses_foreign() {
    local installer=$1 stock=$2 foreign=$3
    shift 3
    local before
    mkdir -p "$(dirname "$foreign")"
    echo "not SPICE's" > "$foreign"
    before=$(tree_state "$stock")
    if "$installer" "$@" > "$TMP/foreign.out" 2>&1; then
        echo "install.sh replaced $foreign, which it did not write" >&2
        return 1
    fi
    grep -q "were not written by this installer" "$TMP/foreign.out" || { cat "$TMP/foreign.out" >&2; return 1; }
    [ "$(tree_state "$stock")" = "$before" ] || { echo "install.sh wrote something before refusing" >&2; return 1; }
    rm -f "$foreign"
}

# Waits up to 90 s for PORT to answer PATH with 200 (on HOST, 127.0.0.1 by default); gives up at once if the process
# in PIDFILE (if given) died.
wait_port() {
    local port=$1 path=$2 pidfile=${3:-} host=${4:-127.0.0.1} waited
    for ((waited = 0; waited < 900; waited++)); do
        [ "$(http_status "$port" "$path" "$host" || true)" = 200 ] && return 0
        [ -z "$pidfile" ] || [ "$waited" -lt 20 ] || pid_alive "$(cat "$pidfile" 2>/dev/null)" || return 1
        sleep 0.1
    done
    return 1
}

# Debian's /etc/apache2, copied, the bundle installed into it and started with its helpers: Listen on HOST:PORT
# (127.0.0.1 by default), run and log files in TMP, no default site.
stock_httpd_up() {
    local port=$1 host=${2:-127.0.0.1} installer="$TMP/bundle/install.sh" conf="$TMP/etc/apache2"
    mkdir -p "$TMP/etc" "$TMP/run" "$TMP/lock" "$TMP/log"
    cp -a /etc/apache2 "$conf"
    printf "Listen %s:%s\nServerName %s\n" "$host" "$port" "$host" > "$conf/ports.conf"
    rm -f "$conf"/sites-enabled/*
    local args=(--prefix "$TMP" --fastcgi-port $((port + 90)))
    stock_refuses_foreign "$installer" "$TMP/etc" "$TMP/etc/apache2/conf-available/spice.conf" "${args[@]}" || return 1
    stock_install "$installer" "$TMP/etc" "${args[@]}" || return 1
    stock_apache2 -t >&2 || return 1
    "$TMP/opt/spice/apache/bin/spice-helpers" start >&2 || return 1
    # A second start finds them running and leaves them (and their sockets) as they are: verify covers it.
    "$TMP/opt/spice/apache/bin/spice-helpers" start >&2 || return 1
    stock_apache2 -k start >&2
}

# Debian's apache2 on TMP's copy of /etc/apache2, with its run, lock and log files in TMP.
stock_apache2() {
    env APACHE_RUN_USER=www-data APACHE_RUN_GROUP=www-data APACHE_PID_FILE="$TMP/run/apache2.pid" \
        APACHE_RUN_DIR="$TMP/run" APACHE_LOCK_DIR="$TMP/lock" APACHE_LOG_DIR="$TMP/log" apache2 -d "$TMP/etc/apache2" "$@"
}

# Stops the httpd of stock_httpd_up on PORT and uninstalls the bundle: the stock layout as it was, nothing left.
stock_httpd_down() {
    local port=$1
    stock_apache2 -k stop >&2 || true
    for _ in $(seq 50); do [ -f "$TMP/run/apache2.pid" ] || break; sleep 0.1; done
    stock_uninstall "$TMP/bundle/install.sh" "$TMP/etc" --prefix "$TMP" --fastcgi-port $((port + 90)) || return 1
    [ ! -e "$TMP/opt" ] || { echo "after --uninstall, $TMP/opt is left" >&2; return 1; }
}

stock_httpd() {
    local port=$1 probes=$2 ok=0
    stock_httpd_up "$port" || return 1
    wait_port "$port" /spice/static/spice.html && harness verify "http://127.0.0.1:$port" --probes "$probes" || ok=1
    [ "$ok" -eq 0 ] || tail -20 "$TMP/log/error.log" >&2
    stock_httpd_down "$port" || return 1
    return "$ok"
}

# Debian's /etc/nginx, copied: its own paths, pid and logs in TMP, no default site.
stock_nginx() {
    local port=$1 probes=$2 installer="$TMP/bundle/install.sh" conf="$TMP/etc/nginx"
    mkdir -p "$TMP/etc" "$TMP/run" "$TMP/log"
    cp -a /etc/nginx "$conf"
    sed -i -e "s|/etc/nginx|$conf|g" -e "s|^pid .*|pid $TMP/run/nginx.pid;|" -e "s|/var/log/nginx|$TMP/log|g" "$conf/nginx.conf"
    rm -f "$conf"/sites-enabled/*
    # A target that sets lua_package_path itself (the bundle's lua probe must not set a second one: nginx refuses it).
    sed -i 's|^http {|http {\n\tlua_package_path "/usr/local/share/lua/5.1/?.lua;;";|' "$conf/nginx.conf"
    local args=(--prefix "$TMP" --listen "127.0.0.1:$port" --fastcgi-port $((port + 90)))
    stock_install "$installer" "$TMP/etc" "${args[@]}" || return 1
    local nginx=(nginx -c "$conf/nginx.conf" -e "$TMP/log/error.log")
    "${nginx[@]}" -t >&2 || return 1
    "$TMP/opt/spice/nginx/bin/spice-helpers" start >&2 || return 1
    # A second start finds them running and leaves them (and their sockets) as they are: verify covers it.
    "$TMP/opt/spice/nginx/bin/spice-helpers" start >&2 || return 1
    "${nginx[@]}" >&2 || return 1
    local ok=0
    wait_port "$port" /spice/static/spice.html && harness verify "http://127.0.0.1:$port" --probes "$probes" || ok=1
    [ "$ok" -eq 0 ] || tail -20 "$TMP/log/error.log" >&2
    "${nginx[@]}" -s quit >&2 || true
    for _ in $(seq 50); do [ -f "$TMP/run/nginx.pid" ] || break; sleep 0.1; done
    stock_uninstall "$installer" "$TMP/etc" "${args[@]}" || return 1
    [ ! -e "$TMP/opt" ] || { echo "after --uninstall, $TMP/opt is left" >&2; return 1; }
    return "$ok"
}

# A fresh CATALINA_BASE from the distribution's own conf/, the bundle installed into it and Tomcat VERSION started:
# its connector on HOST:PORT (127.0.0.1 by default), no shutdown port.
stock_tomcat_up() {
    local port=$1 version=$2 host=${3:-127.0.0.1} installer="$TMP/bundle/install.sh" home base="$TMP/base"
    home="$SPICE_CACHE/tomcat/apache-tomcat-$version"
    [ -f "$home/bin/catalina.sh" ] || maven_unpack "org.apache.tomcat:tomcat:$version:zip" "$SPICE_CACHE/tomcat" >&2
    chmod +x "$home"/bin/*.sh
    mkdir -p "$base"/{logs,temp,webapps,work,lib}
    cp -a "$home/conf" "$base/"
    sed -i -e 's|<Server port="8005"|<Server port="-1"|' \
        -e "s|<Connector port=\"8080\"|<Connector address=\"$host\" port=\"$port\"|" "$base/conf/server.xml"
    stock_install "$installer" "$base" --prefix "$base" || return 1
    env CATALINA_HOME="$home" CATALINA_BASE="$base" CATALINA_PID="$TMP/tomcat.pid" "$home/bin/catalina.sh" start \
        > "$TMP/start.out" 2>&1 || { cat "$TMP/start.out" >&2; return 1; }
}

# Stops the Tomcat of stock_tomcat_up and uninstalls the bundle: the CATALINA_BASE as it was.
stock_tomcat_down() {
    local base="$TMP/base"
    stop_pids "$TMP"
    # Tomcat expanded the war: its directory and work files are Tomcat's, not the installer's.
    rm -rf "$base/webapps/spice" "$base/work"/* "$base/logs"/* "$base/temp"/*
    stock_uninstall "$TMP/bundle/install.sh" "$base" --prefix "$base"
}

stock_tomcat() {
    local port=$1 probes=$2 version=$3 ok=0
    stock_tomcat_up "$port" "$version" || return 1
    wait_port "$port" /spice/static/spice.html "$TMP/tomcat.pid" && harness verify "http://127.0.0.1:$port" --probes "$probes" || ok=1
    [ "$ok" -eq 0 ] || tail -30 "$TMP/base"/logs/catalina.out >&2
    stock_tomcat_down || return 1
    return "$ok"
}

# A fresh JETTY_BASE with the http module on 127.0.0.1:PORT (given at start), as jetty-home's start.jar makes it.
stock_jetty() {
    local port=$1 probes=$2 version=$3 installer="$TMP/bundle/install.sh" home base="$TMP/base"
    home="$SPICE_CACHE/jetty/jetty-home-$version"
    [ -f "$home/start.jar" ] || maven_unpack "org.eclipse.jetty:jetty-home:$version:tar.gz" "$SPICE_CACHE/jetty" >&2
    mkdir -p "$base"
    (cd "$base" && java -jar "$home/start.jar" "jetty.home=$home" "jetty.base=$base" --add-modules=http > "$TMP/base.out" 2>&1) \
        || { cat "$TMP/base.out" >&2; return 1; }
    local args=(--prefix "$base" --jetty-home "$home" --fastcgi-port $((port + 90)))
    stock_install "$installer" "$base" "${args[@]}" || return 1
    "$base/spice/bin/spice-helpers" start >&2 || return 1
    (cd "$base" && exec setsid java -jar "$home/start.jar" "jetty.home=$home" "jetty.base=$base" jetty.http.host=127.0.0.1 \
        "jetty.http.port=$port" > "$TMP/jetty.log" 2>&1 < /dev/null) &
    echo $! > "$TMP/jetty.pid"
    local ok=0
    wait_port "$port" /spice/static/spice.html "$TMP/jetty.pid" && harness verify "http://127.0.0.1:$port" --probes "$probes" || ok=1
    [ "$ok" -eq 0 ] || tail -30 "$TMP/jetty.log" >&2
    stop_pids "$TMP"
    stock_uninstall "$installer" "$base" "${args[@]}" || return 1
    return "$ok"
}

# One cell in a temporary directory of its own, removed afterwards whatever happened.
stock_cell() {
    local cell=$1 bundle=$2 port=$3 probes=$4 archive=$5 result=0
    TMP=$(mktemp -d "${TMPDIR:-/tmp}/spice-stock-$cell.XXXXXX")
    # The servers' workers (www-data) read the probes' files under it.
    chmod 755 "$TMP"
    mkdir -p "$TMP/bundle"
    tar -xzf "$archive" -C "$TMP/bundle" --strip-components=1
    case "$cell" in
        httpd-*) stock_httpd "$port" "$probes" || result=1 ;;
        nginx-*) stock_nginx "$port" "$probes" || result=1 ;;
        tomcat-*) stock_tomcat "$port" "$probes" "${cell#tomcat-}" || result=1 ;;
        jetty-*) stock_jetty "$port" "$probes" "${cell#jetty-}" || result=1 ;;
    esac
    # Whatever failed, nothing started here outlives the cell.
    stop_pids "$TMP"
    for helpers in "$TMP"/opt/spice/*/bin/spice-helpers "$TMP"/base/spice/bin/spice-helpers; do
        [ -x "$helpers" ] && "$helpers" stop > /dev/null 2>&1 || true
    done
    rm -rf "$TMP"
    return "$result"
}

test_bundles() {
    local wanted=("$@") cell bundle port probes passed=0 failed=0 out="$SPICE_ROOT/target/dist" paired=()
    source "$SPICE_ROOT/scripts/lib/server.sh"
    source "$SPICE_ROOT/scripts/lib/bundle.sh"
    source "$SPICE_ROOT/scripts/lib/twohosts.sh"
    source "$SPICE_ROOT/scripts/lib/readme.sh"
    for cell in "${wanted[@]}"; do
        [ "$cell" = two-hosts ] || [ "$cell" = readme ] || stock_cells | awk -v c="$cell" '$1 == c { found = 1 } END { exit !found }' \
            || usage_error "test-bundles: unknown cell \"$cell\": $(stock_cells | awk '{print $1}' | paste -sd' ' -) two-hosts readme"
    done
    bundle_main all --out "$out" > /dev/null
    # With every cell, or two-hosts named, and where two hosts can be made: httpd and Tomcat 11 on two hosts.
    local httpd_cell tomcat_cell
    httpd_cell=$(stock_cells | awk '$2 == "apache"')
    tomcat_cell=$(stock_cells | awk '$2 == "tomcat"' | head -1)
    if { [ ${#wanted[@]} -eq 0 ] || [[ " ${wanted[*]} " == *" two-hosts "* ]]; } && two_hosts_possible; then
        echo "spice test: the apache and tomcat bundles on stock servers, on two hosts, side by side" >&2
        if stock_two_hosts "$out/spice-apache-$(project_version).tar.gz" "$out/spice-tomcat-$(project_version).tar.gz" \
            "$(pom_property tomcat.version)" "$(echo "$httpd_cell" | cut -d' ' -f4)" "$(echo "$tomcat_cell" | cut -d' ' -f4)" \
            "${SPICE_TWO_HOSTS_PROBES-}"; then
            passed=$((passed + 1))
            echo "  two-hosts: ${httpd_cell%% *} and ${tomcat_cell%% *} installed, verified and measured side by side" >&2
            paired=("${httpd_cell%% *}" "${tomcat_cell%% *}")
        else
            failed=$((failed + 1))
            echo "  two-hosts: FAILED" >&2
        fi
    elif [[ " ${wanted[*]} " == *" two-hosts "* ]]; then
        echo "  two-hosts: skipped: the client's host is a network namespace, made as root with ip netns" >&2
    fi
    # With every cell, or readme named: README.md's deploy block as printed, a namespace the server's machine.
    if { [ ${#wanted[@]} -eq 0 ] || [[ " ${wanted[*]} " == *" readme "* ]]; } && readme_possible; then
        echo "spice test: README.md's deploy section as printed, on a second machine (namespaces)" >&2
        if stock_readme; then
            passed=$((passed + 1))
            echo "  readme: the deploy section ran as printed and ended with the CPU table" >&2
        else
            failed=$((failed + 1))
            echo "  readme: FAILED" >&2
        fi
    elif [[ " ${wanted[*]} " == *" readme "* ]]; then
        echo "  readme: skipped: it needs root, ip netns, unshare, overlayfs, sudo and Debian's apache2" >&2
    fi
    while read -r cell bundle port probes; do
        [ ${#wanted[@]} -eq 0 ] || [[ " ${wanted[*]} " == *" $cell "* ]] || continue
        if [ ${#wanted[@]} -eq 0 ] && [[ " ${paired[*]} " == *" $cell "* ]]; then
            continue   # installed, verified and uninstalled on two hosts above
        fi
        echo "spice test: the $bundle bundle on a stock $cell, port $port" >&2
        if stock_cell "$cell" "$bundle" "$port" "$probes" "$out/spice-$bundle-$(project_version).tar.gz"; then
            passed=$((passed + 1))
            echo "  $cell: verified ($probes)" >&2
        else
            failed=$((failed + 1))
            echo "  $cell: FAILED" >&2
        fi
    done < <(stock_cells)
    echo "bundles on stock servers: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
