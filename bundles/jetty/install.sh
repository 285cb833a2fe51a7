#!/usr/bin/env bash
# Installs the SPICE probes into a JETTY_BASE of Jetty 12.0 or 12.1: SPICE's Jetty modules (the module Handler,
# the CGI probe through fcgiwrap, the FastCGI probe, GET/HEAD-only hardening), spice.war and the SSI context
# as webapps/ descriptors in the ee10 or ee11 environment, and start.d/spice.ini that enables them.
# shellcheck source=../install-lib.sh  # lib/ in the bundle, as bundle.sh lays it out
source "$(dirname "$0")/lib/install-lib.sh"

JETTY_HOME_DIR=${JETTY_HOME:-} ENVIRONMENT="" FCGI_PORT=9463 FCGIWRAP_SOCKET="" SERVICE_USER="" HARDENING=yes HTTP2=yes

bundle_usage() {
    cat <<'USAGE'
  --prefix DIR        the JETTY_BASE to install into (default $JETTY_BASE)
  --jetty-home DIR    the jetty-home it runs with, to choose the environment (default $JETTY_HOME)
  --environment ee10|ee11   the Jakarta EE environment (default ee11 where jetty-home has it, as 12.1 does, else ee10)
  --fastcgi-port N    the port of the resident FastCGI program on 127.0.0.1 (default 9463)
  --fcgiwrap-socket PATH  fcgiwrap's socket for the cgi probe (default /run/fcgiwrap.socket where Debian's
                      fcgiwrap service has it, else one spice-helpers starts under JETTY_BASE/spice/run)
  --user NAME         the user spice-helpers runs its programs as when started by root (default www-data)
  --hardening yes|no  GET and HEAD only, no stack traces, for the whole server (default yes; no on a shared server)
  --http2 yes|no      HTTP/2 in clear (h2c) on the http connector too, Jetty's http2c module (default yes)
USAGE
}

bundle_option() {
    case "$1" in
        jetty-home) JETTY_HOME_DIR=$2 ;;
        environment) ENVIRONMENT=$2 ;;
        fastcgi-port) FCGI_PORT=$2 ;;
        fcgiwrap-socket) FCGIWRAP_SOCKET=$2 ;;
        user) SERVICE_USER=$2 ;;
        hardening) HARDENING=$2 ;;
        http2) HTTP2=$2 ;;
        *) return 1 ;;
    esac
}

bundle_defaults() {
    PREFIX=${PREFIX:-${JETTY_BASE:-}}
    [ -n "$PREFIX" ] || fail "give the JETTY_BASE: --prefix DIR (or set JETTY_BASE)"
    PREFIX=${PREFIX%/}
    SPICE_DIR="$PREFIX/spice"
    MANIFEST="$SPICE_DIR/installed.manifest"
    [ "$UNINSTALL" = yes ] && return 0
    [ -d "$PREFIX" ] || fail "no JETTY_BASE at $PREFIX"
    if [ -z "$ENVIRONMENT" ]; then
        [ -n "$JETTY_HOME_DIR" ] || fail "give --jetty-home DIR (or set JETTY_HOME), or --environment ee10|ee11"
        [ -f "$JETTY_HOME_DIR/start.jar" ] || fail "$JETTY_HOME_DIR is not a jetty-home (no start.jar)"
        if [ -f "$JETTY_HOME_DIR/modules/ee11-deploy.mod" ]; then ENVIRONMENT=ee11; else ENVIRONMENT=ee10; fi
    fi
    case "$ENVIRONMENT" in ee10|ee11) ;; *) fail "--environment takes ee10 or ee11, not \"$ENVIRONMENT\"" ;; esac
    case "$HARDENING" in yes|no) ;; *) fail "--hardening takes yes or no, not \"$HARDENING\"" ;; esac
    case "$HTTP2" in yes|no) ;; *) fail "--http2 takes yes or no, not \"$HTTP2\"" ;; esac
    [[ "$FCGI_PORT" =~ ^[0-9]+$ ]] || fail "--fastcgi-port takes a port number, not \"$FCGI_PORT\""
    SERVICE_USER=${SERVICE_USER:-www-data}
    choose_fcgiwrap_socket
}

start_ini() {
    local modules="$ENVIRONMENT-deploy,$ENVIRONMENT-jsp,spice-module,spice-cgi,spice-fastcgi"
    [ "$HARDENING" = no ] || modules="$modules,spice-hardening"
    # h2c (prior knowledge or Upgrade) beside HTTP/1.1 on the same connector; h2 by ALPN is the TLS connector's, the site's
    [ "$HTTP2" = no ] || modules="$modules,http2c"
    cat <<INI
# The SPICE probes (spice-jetty bundle), written by its install.sh: ./install.sh --uninstall removes it.
--modules=$modules
spice.fcgi.port=$FCGI_PORT
spice.fcgiwrap.socket=$FCGIWRAP_SOCKET
INI
}

# A webapps/ descriptor from conf/jetty, its paths filled in and set in the chosen environment.
descriptor() {
    local ssi_classpath
    ssi_classpath=$(for jar in "$BUNDLE_DIR"/files/lib/spice-ssi/*.jar; do echo "$PREFIX/lib/spice-ssi/$(basename "$jar")"; done | paste -sd, -)
    sed -e "s|@SPICE_WAR@|$SPICE_DIR/spice.war|" -e "s|@SPICE_SSI_WEBAPP@|$SPICE_DIR/ssi-webapp|" \
        -e "s|@SPICE_WEB_XML@|$SPICE_DIR/spice-web.xml|" -e "s|@SPICE_SSI_CLASSPATH@|$ssi_classpath|" \
        -e "s|\.ee11\.|.$ENVIRONMENT.|g" "$BUNDLE_DIR/files/webapps/$1"
}

bundle_files() {
    local file
    for file in "$BUNDLE_DIR"/files/modules/*.mod; do
        put_file "$file" "$PREFIX/modules/$(basename "$file")" 644
    done
    for file in "$BUNDLE_DIR"/files/etc/*.xml; do
        put_file "$file" "$PREFIX/etc/$(basename "$file")" 644
    done
    for file in "$BUNDLE_DIR"/files/lib/spice/*.jar "$BUNDLE_DIR"/files/lib/spice-ssi/*.jar; do
        put_file "$file" "$PREFIX/lib/$(basename "$(dirname "$file")")/$(basename "$file")" 644
    done
    for file in spice.xml spice-shtml.xml; do
        put_text "$PREFIX/webapps/$file" 644 descriptor "$file"
    done
    put_file "$BUNDLE_DIR/files/spice/spice.war" "$SPICE_DIR/spice.war" 644
    put_file "$BUNDLE_DIR/files/spice/spice-web.xml" "$SPICE_DIR/spice-web.xml" 644
    put_file "$BUNDLE_DIR/files/spice/ssi-webapp/spice.shtml" "$SPICE_DIR/ssi-webapp/spice.shtml" 644
    put_file "$BUNDLE_DIR/files/spice/ssi-webapp/WEB-INF/web.xml" "$SPICE_DIR/ssi-webapp/WEB-INF/web.xml" 644
    for file in "$BUNDLE_DIR"/files/spice/ssi-webapp/WEB-INF/lib/*.jar; do
        put_file "$file" "$SPICE_DIR/ssi-webapp/WEB-INF/lib/$(basename "$file")" 644
    done
    put_file "$BUNDLE_DIR/files/cgi-bin/spice" "$PREFIX/cgi-root/spice/cgi-bin/spice" 755
    put_helpers "${OWN_FCGIWRAP:+$FCGIWRAP_SOCKET}"
    put_text "$PREFIX/start.d/spice.ini" 644 start_ini
}

bundle_before_uninstall() {
    stop_helpers
}

bundle_after() {
    cat <<NEXT

Environment $ENVIRONMENT. Next, on this machine:
  $SPICE_DIR/bin/spice-helpers start     # the resident FastCGI program$([ -z "$OWN_FCGIWRAP" ] || echo ", and fcgiwrap on $FCGIWRAP_SOCKET")
  restart Jetty (java -jar \$JETTY_HOME/start.jar in $PREFIX)
From the client (the SPICE checkout), with this server's address and port:
  scripts/spice verify http://SERVER:PORT --probes static,servlet,jsp,cgi,shtml,module,fastcgi$([ "$HTTP2" = no ] || printf '\n  scripts/spice verify http://SERVER:PORT --http2 --probes static,servlet,jsp,cgi,shtml,module,fastcgi   # h2c')
NEXT
}

main "$@"
