# scripts/spice jmeter-server [--port N] [--host ADDR] [--no-tls]: a JMeter server engine on this client
# machine, for bench --engine jmeter --jmeter-remote HOST:PORT,... on another. JMeter is the one the build
# assembles from Maven Central (jmeter/target/jmeter). RMI listens on ADDR only (default 127.0.0.1: give the
# machine's address to serve a remote bench), on PORT (registry, default 1099) and PORT + 1 (objects), over TLS
# with the keystore in run/jmeter/ (made on first use; copy rmi.p12 and rmi.p12.password to the machine that
# runs bench). --no-tls is for engines and bench on the same machine only.
# shellcheck shell=bash

JMETER_HOME="$SPICE_ROOT/jmeter/target/jmeter"
JMETER_KEYSTORE="$SPICE_RUN/jmeter/rmi.p12"

jmeter_build_if_missing() {
    [ -f "$JMETER_HOME/bin/ApacheJMeter.jar" ] && return 0
    require_build_tools
    echo "spice: assembling Apache JMeter from Maven Central (mvn -B -q package -pl jmeter)" >&2
    (cd "$SPICE_ROOT" && mvn -B -q package -pl jmeter) || die "could not assemble JMeter: see the Maven output above"
}

# The keystore JMeter's RMI uses over TLS (both ends): generated here, never committed (run/ is ignored).
jmeter_keystore() {
    [ -s "$JMETER_KEYSTORE" ] && [ -s "$JMETER_KEYSTORE.password" ] && return 0
    command -v keytool >/dev/null 2>&1 || die "keytool (from the JDK) is needed to make JMeter's RMI keystore"
    mkdir -p "$(dirname "$JMETER_KEYSTORE")"
    chmod 700 "$(dirname "$JMETER_KEYSTORE")"
    (
        umask 077
        openssl rand -hex 24 > "$JMETER_KEYSTORE.password"
        keytool -genkeypair -alias rmi -keyalg RSA -keysize 2048 -validity 825 -dname "CN=spice-jmeter-rmi" \
            -storetype PKCS12 -keystore "$JMETER_KEYSTORE" -storepass "$(cat "$JMETER_KEYSTORE.password")" >/dev/null 2>&1
    ) || die "could not make $JMETER_KEYSTORE"
    echo "spice: made JMeter's RMI keystore $JMETER_KEYSTORE (copy it and its .password to the bench machine)" >&2
}

# scripts/spice jmeter-server, with PORT, HOST and TLS as the harness parsed them (JMeterServerCommand).
# shellcheck disable=SC2154  # its variables are the parsed command line's (shell_args)
jmeter_server() {
    require_java
    jmeter_build_if_missing
    local run="$SPICE_RUN/jmeter-server-$port"
    if [ -f "$run/server.pid" ] && kill -0 "$(cat "$run/server.pid")" 2>/dev/null; then
        die "jmeter-server: one already runs on port $port (pid $(cat "$run/server.pid"))"
    fi
    mkdir -p "$run"
    local tls_keystore=()
    if [ "$tls" = yes ]; then
        jmeter_keystore
        tls_keystore=(--keystore "$JMETER_KEYSTORE")
    fi
    # The same settings bench's JMeter clients get (one writer, in the harness), in a file only the owner reads.
    harness jmeter-rmi-properties --out "$run/rmi.properties" "${tls_keystore[@]}" || die "jmeter-server: cannot write $run/rmi.properties"
    echo "jmeter-server on $host:$port (RMI objects on $((port + 1)), TLS $tls); log $run/jmeter-server.log; Ctrl-C stops it"
    echo $$ > "$run/server.pid"
    exec java -Djava.rmi.server.hostname="$host" -jar "$JMETER_HOME/bin/ApacheJMeter.jar" -s -Jserver_port="$port" \
        -Jserver.rmi.localport=$((port + 1)) -q "$run/rmi.properties" -j "$run/jmeter-server.log"
}
