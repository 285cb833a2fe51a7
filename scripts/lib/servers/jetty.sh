# Jetty 12.1, jetty-home from Maven Central, with a JETTY_BASE from conf/jetty/ per run, and Debian's
# fcgiwrap behind Jetty's FastCGI proxy for the CGI probe.
# shellcheck shell=bash

jetty_home() {
    echo "$SPICE_CACHE/jetty/jetty-home-$(pom_property jetty.version)"
}

jetty_installed() {
    [ -f "$(jetty_home)/start.jar" ] && [ -n "$(fcgiwrap_binary)" ] && [ -f /usr/include/fcgiapp.h ] \
        && command -v java >/dev/null 2>&1
}

jetty_install() {
    require_java
    if [ -f "$(jetty_home)/start.jar" ]; then
        echo "jetty: $(jetty_home) is installed"
    else
        maven_unpack "org.eclipse.jetty:jetty-home:$(pom_property jetty.version):tar.gz" "$SPICE_CACHE/jetty"
        echo "jetty: installed $(jetty_home)"
    fi
    install_fcgiwrap jetty
    install_libfcgi
}


jetty_logs() {
    ls "$1/logs/jetty.log" "$1/logs/fcgiwrap.log" 2>/dev/null
}

# Jetty keeps running when a context fails to start: read it from the log instead of waiting.
jetty_start_failed() {
    grep -qE "Failed startup of context|BindException|FAILED ServerConnector" "$1/logs/jetty.log" 2>/dev/null
}

jetty_launch() {
    local run=$1 port=$2 home
    # jetty-home and the SSI context's Tomcat classes are read by Jetty, as the service user (as root): copies where the
    # checkout is out of its reach.
    home=$(served "$(jetty_home)") || return 1
    rm -rf "${run:?}"/{start.d,modules,etc,webapps,lib,cgi-root,ssi-webapp,work}
    cp -r "$SPICE_ROOT"/conf/jetty/{start.d,modules,etc} "$run/"
    mkdir -p "$run/webapps"
    mkdir -p "$run/lib/spice" "$run/cgi-root/spice/cgi-bin" "$run/work"
    cp "$SPICE_ROOT"/nsapi-like-module/jetty/target/spice-jetty-handler-*.jar "$SPICE_ROOT"/page/target/spice-page-*.jar \
        "$run/lib/spice/"
    cp "$SPICE_ROOT/cgi-c/target/spice" "$run/cgi-root/spice/cgi-bin/spice"
    cp "$SPICE_WAR" "$run/spice.war"
    local ssi_classpath jar
    for jar in "$SPICE_ROOT"/tomcat-ssi/target/spice-tomcat-ssi-*.jar "$SPICE_ROOT"/server/target/lib/tomcat-embed-core-*.jar; do
        ssi_classpath+="${ssi_classpath:+,}$(served "$jar")" || return 1
    done
    # The SSI context: the SHTML page, its web.xml, SPICE's SSI servlet; Tomcat's classes on its extra classpath.
    mkdir -p "$run/ssi-webapp/WEB-INF/lib"
    cp "$SPICE_ROOT/conf/jetty/ssi-webapp/WEB-INF/web.xml" "$run/ssi-webapp/WEB-INF/"
    cp "$SPICE_ROOT"/shtml/target/spice-shtml-*.jar "$run/ssi-webapp/WEB-INF/lib/"
    cp "$SPICE_ROOT/shtml/target/generated-webapp/shtml/spice.shtml" "$run/ssi-webapp/"
    sed '/tomcat-only:begin/,/tomcat-only:end/d' "$SPICE_ROOT/webapp/src/main/webapp/WEB-INF/web.xml" > "$run/spice-web.xml"
    local descriptor
    for descriptor in spice.xml spice-shtml.xml; do
        sed -e "s|@SPICE_WAR@|$run/spice.war|" -e "s|@SPICE_SSI_WEBAPP@|$run/ssi-webapp|" -e "s|@SPICE_WEB_XML@|$run/spice-web.xml|" \
            -e "s|@SPICE_SSI_CLASSPATH@|$ssi_classpath|" "$SPICE_ROOT/conf/jetty/webapps/$descriptor" > "$run/webapps/$descriptor"
    done

    start_fcgiwrap "$run" || return 1

    local fcgi_port=$SPICE_FCGI_PORT
    start_fastcgi_probe "$run" "$fcgi_port" || return 1

    mkdir -p "$SPICE_FILESET"
    # HTTPS from the generated PKCS#12 keystore; its password goes in a start file only the owner reads.
    (umask 077; printf 'jetty.sslContext.keyStorePassword=%s\n' "$(cat "$SPICE_TLS_PASSWORD_FILE")" > "$run/start.d/ssl-secret.ini")
    # shellcheck disable=SC2054  # --module=ssl,https,http2 is one word: Jetty's list of modules (h2 by ALPN on HTTPS)
    local options=("spice.fcgi.port=$fcgi_port" "spice.fcgiwrap.socket=$run/fcgiwrap.sock"
        "spice.fileset.dir=$SPICE_FILESET" --module=ssl,https,http2
        "jetty.http.host=$SPICE_LISTEN" "jetty.ssl.host=$SPICE_LISTEN" "jetty.ssl.port=$(tls_port "$port")" "jetty.ssl.acceptQueueSize=511"
        "jetty.sslContext.keyStorePath=$SPICE_TLS_P12" "jetty.sslContext.keyStoreType=PKCS12"
        "jetty.ssl.sniHostCheck=false")
    [ "$SPICE_ACCESS_LOG" = on ] && options+=(--module=requestlog)
    # --threads virtual: the thread pool runs blocking work (the servlet, JSP, the handlers) on virtual threads, on a
    # JDK 21 or later.
    local java=java java_home
    java_home=$(server_java_home jetty) || return 1
    [ -z "$java_home" ] || java=$java_home/bin/java
    [ "$SPICE_THREADS" != virtual ] || options+=(--module=threadpool-virtual)
    give_to_service_user "$run"
    local jvm_options
    read -ra jvm_options <<< "$(java_server_options) ${SPICE_JETTY_OPTS:-}"   # split, not globbed
    (cd "$run" && exec "${SPICE_AS_USER[@]}" setsid "$java" "${jvm_options[@]}" -jar "$home/start.jar" "jetty.home=$home" "jetty.base=$run" \
        "jetty.http.port=$port" "${options[@]}" > "$run/logs/jetty.log" 2>&1 < /dev/null) &
    echo $! > "$run/server.pid"
}
