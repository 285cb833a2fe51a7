#!/usr/bin/env bash
# Installs the SPICE probes into a Tomcat's CATALINA_BASE: spice.war in webapps/, the module Valve and the page
# it serves in lib/, and the context descriptor conf/Catalina/localhost/spice.xml that puts the Valves in the
# probes' context, so server.xml stays as it is. The tomcat bundle is for Tomcat 10.1 and 11 (Jakarta EE), the
# tomcat9 bundle the same war converted to javax for Tomcat 9.
# shellcheck source=../install-lib.sh  # lib/ in the bundle, as bundle.sh lays it out
source "$(dirname "$0")/lib/install-lib.sh"

ENGINE=Catalina HOST=localhost

bundle_usage() {
    cat <<'USAGE'
  --prefix DIR        the CATALINA_BASE to install into (default $CATALINA_BASE)
  --engine NAME       the Engine's name in server.xml (default Catalina)
  --host NAME         the Host the probes are deployed on (default localhost)
USAGE
}

bundle_option() {
    case "$1" in
        engine) ENGINE=$2 ;;
        host) HOST=$2 ;;
        *) return 1 ;;
    esac
}

bundle_defaults() {
    PREFIX=${PREFIX:-${CATALINA_BASE:-}}
    [ -n "$PREFIX" ] || fail "give the CATALINA_BASE: --prefix DIR (or set CATALINA_BASE)"
    PREFIX=${PREFIX%/}
    MANIFEST="$PREFIX/conf/spice.manifest"
    [ "$UNINSTALL" = yes ] && return 0
    [ -f "$PREFIX/conf/server.xml" ] || fail "$PREFIX is not a CATALINA_BASE: it has no conf/server.xml"
    check_version
}

# With CATALINA_HOME set, a Tomcat of the other namespace is named before anything is written.
check_version() {
    local home=${CATALINA_HOME:-} number
    [ -n "$home" ] && [ -f "$home/lib/catalina.jar" ] || return 0
    number=$(java -cp "$home/lib/catalina.jar" org.apache.catalina.util.ServerInfo 2>/dev/null | sed -n 's/^Server number: *//p')
    case "$BUNDLE_SERVER:${number%%.*}" in
        tomcat:9) fail "$home is Tomcat $number (javax): install the spice-tomcat9 bundle instead" ;;
        tomcat9:1[0-9]) fail "$home is Tomcat $number (Jakarta EE): install the spice-tomcat bundle instead" ;;
    esac
}

bundle_files() {
    put_file "$BUNDLE_DIR/files/webapps/spice.war" "$PREFIX/webapps/spice.war" 644
    local jar
    for jar in "$BUNDLE_DIR"/files/lib/*.jar; do
        put_file "$jar" "$PREFIX/lib/$(basename "$jar")" 644
    done
    put_file "$BUNDLE_DIR/files/conf/spice.xml" "$PREFIX/conf/$ENGINE/$HOST/spice.xml" 644
}

bundle_after() {
    cat <<NEXT

Next: restart Tomcat (the Valves are read at start; the war deploys with it), then from the client:
  scripts/spice verify http://SERVER:PORT --probes static,servlet,jsp,cgi,shtml,module
HTTP/2 is the connector's, in server.xml, which this bundle does not touch: inside its <Connector>, add
  <UpgradeProtocol className="org.apache.coyote.http2.Http2Protocol" />
for h2c (and h2 by ALPN on a TLS connector), restart, then:
  scripts/spice verify http://SERVER:PORT --http2 --probes static,servlet$([ "$BUNDLE_SERVER" = tomcat9 ] || echo ",jsp"),cgi,shtml,module
NEXT
    [ "$BUNDLE_SERVER" != tomcat9 ] || echo "(Tomcat 9 answers a JSP's HEAD over HTTP/2 with the body; Tomcat 10.1 and 11 do not.)"
}

main "$@"
