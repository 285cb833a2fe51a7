# The embedded default server (server/: Tomcat with spice.war and the Valve in one JVM), started in the
# background the same way as the real servers, for scripts/spice bench. scripts/spice serve runs it in
# the foreground instead.
# shellcheck shell=bash

embedded_installed() {
    command -v java >/dev/null 2>&1
}

embedded_install() {
    require_java
    build_if_missing
    echo "embedded: $SERVER_JAR"
}


embedded_logs() {
    ls "$1/logs/server.log" 2>/dev/null
}

# The server's jar (with its lib/) and the WAR as the service user reads them (as root): EMBEDDED_JAR, EMBEDDED_WAR,
# copies where the checkout is out of that user's reach.
embedded_served() {
    served "$(dirname "$SERVER_JAR")/lib" >/dev/null && EMBEDDED_JAR=$(served "$SERVER_JAR") \
        && EMBEDDED_WAR=$(served "$SPICE_WAR")
}

embedded_launch() {
    local run=$1 port=$2
    build_if_missing "$SERVER_JAR"
    embedded_served || return 1
    service_user_prefix
    give_to_service_user "$run"
    local jvm_options
    read -ra jvm_options <<< "$(java_server_options) ${SPICE_EMBEDDED_OPTS:-}"   # split, not globbed
    "${SPICE_AS_USER[@]}" setsid java "${jvm_options[@]}" -jar "$EMBEDDED_JAR" --host "$SPICE_LISTEN" --port "$port" --war "$EMBEDDED_WAR" \
        --fileset "$SPICE_FILESET" --tls-port "$(tls_port "$port")" --tls-cert "$SPICE_TLS_CERT" --tls-key "$SPICE_TLS_KEY" \
        --base "$run/base" > "$run/logs/server.log" 2>&1 < /dev/null &
    echo $! > "$run/server.pid"
}
