# Tomcat 11, the distribution from Maven Central, with a CATALINA_BASE from conf/tomcat/ per run.
# shellcheck shell=bash

tomcat_home() {
    local version
    version=$(pom_property tomcat.version)
    echo "$SPICE_CACHE/tomcat/apache-tomcat-$version"
}

tomcat_installed() {
    [ -f "$(tomcat_home)/bin/catalina.sh" ] && command -v java >/dev/null 2>&1
}

tomcat_install() {
    require_java
    if tomcat_installed; then
        echo "tomcat: $(tomcat_home) is installed"
        return 0
    fi
    maven_unpack "org.apache.tomcat:tomcat:$(pom_property tomcat.version):zip" "$SPICE_CACHE/tomcat"
    # The zip records no execute bits for the scripts.
    chmod +x "$(tomcat_home)"/bin/*.sh
    echo "tomcat: installed $(tomcat_home)"
}


# Tomcat lives on when a connector cannot bind: read it from the log instead of waiting.
tomcat_start_failed() {
    grep -qE 'Failed to (initialize|start) (component \[Connector|connector)|BindException' "$1"/logs/catalina.*.log 2>/dev/null
}

tomcat_logs() {
    ls "$1"/logs/catalina.*.log "$1/logs/catalina.out" 2>/dev/null
}

# CATALINA_BASE = RUN: SPICE's server.xml and logging, the distribution's global web.xml, spice.war,
# and in lib/ the module Valve with the page it serves.
tomcat_launch() {
    local run=$1 port=$2 home
    # The distribution is read by Tomcat, as the service user (as root): a copy where the checkout is out of its reach.
    home=$(served "$(tomcat_home)") || return 1
    rm -rf "${run:?}/webapps" "${run:?}/work" "${run:?}/conf" "${run:?}/lib"
    mkdir -p "$run"/{conf,lib,temp,webapps,work}
    fresh_logs "$run"
    cp "$SPICE_ROOT"/conf/tomcat/conf/{server.xml,logging.properties} "$run/conf/"
    cp "$home/conf/web.xml" "$run/conf/"
    cp "$SPICE_WAR" "$run/webapps/spice.war"
    # The static fileset at /spice/fileset: a context descriptor, deployed at start like the WAR.
    mkdir -p "$run/conf/Catalina/localhost" "$SPICE_FILESET"
    printf '<Context docBase="%s"/>\n' "$SPICE_FILESET" > "$run/conf/Catalina/localhost/spice#fileset.xml"
    cp "$SPICE_ROOT"/nsapi-like-module/tomcat/target/spice-tomcat-valve-*.jar "$SPICE_ROOT"/page/target/spice-page-*.jar "$run/lib/"
    service_user_prefix
    give_to_service_user "$run"
    local access=false java_home virtual=false
    [ "$SPICE_ACCESS_LOG" = on ] && access=true
    java_home=$(server_java_home tomcat) || return 1
    [ "$SPICE_THREADS" = virtual ] && virtual=true
    JAVA_HOME="$java_home" CATALINA_HOME="$home" CATALINA_BASE="$run" CATALINA_PID="$run/server.pid" CATALINA_OUT="$run/logs/catalina.out" \
        CATALINA_OPTS="-Dspice.listen=$SPICE_LISTEN -Dspice.port=$port -Dspice.tlsPort=$(tls_port "$port") -Dspice.tlsCert=$SPICE_TLS_CERT \
-Dspice.tlsKey=$SPICE_TLS_KEY -Dspice.accessLog=$access -Dspice.virtualThreads=$virtual $(java_server_options) ${SPICE_TOMCAT_OPTS:-}" \
        "${SPICE_AS_USER[@]}" "$home/bin/catalina.sh" start > "$run/logs/start.out" 2>&1
}
