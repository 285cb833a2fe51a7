# The TLS certificate of the e-commerce workload: self-signed, for localhost and 127.0.0.1, made on this
# machine the first time it is needed and never committed (run/ is ignored by git). The harness trusts
# exactly this certificate (--trust-cert); nothing disables verification.
# shellcheck shell=bash

SPICE_TLS="$SPICE_RUN/tls"
SPICE_TLS_CERT="$SPICE_TLS/server.pem"
SPICE_TLS_KEY="$SPICE_TLS/server.key"
SPICE_TLS_P12="$SPICE_TLS/server.p12"
SPICE_TLS_PASSWORD_FILE="$SPICE_TLS/password"

# Every server's HTTPS port: its HTTP port + the table's HTTPS offset (embedded 18440, apache 18441, ...).
tls_port() {
    companion_port embedded "$1" https
}

ensure_tls_cert() {
    if [ -s "$SPICE_TLS_CERT" ] && [ -s "$SPICE_TLS_KEY" ] && [ -s "$SPICE_TLS_P12" ] && [ -s "$SPICE_TLS_PASSWORD_FILE" ]; then
        tls_key_readers
        return 0
    fi
    command -v openssl >/dev/null 2>&1 || die "openssl is not installed (the TLS workload needs a certificate): apt-get install openssl"
    mkdir -p "$SPICE_TLS"
    chmod 700 "$SPICE_TLS"
    (
        umask 077
        openssl req -x509 -newkey rsa:2048 -nodes -days 825 -subj "/CN=localhost" \
            -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
            -keyout "$SPICE_TLS_KEY" -out "$SPICE_TLS_CERT" 2>/dev/null
        openssl rand -hex 24 > "$SPICE_TLS_PASSWORD_FILE"
        # Jetty reads its key from a PKCS#12 keystore, whose password is generated here too.
        openssl pkcs12 -export -name spice -in "$SPICE_TLS_CERT" -inkey "$SPICE_TLS_KEY" \
            -passout "file:$SPICE_TLS_PASSWORD_FILE" -out "$SPICE_TLS_P12"
    ) || die "could not make the TLS certificate in $SPICE_TLS"
    # The certificate is public: servers' workers and the harness read it; the key stays the owner's
    # (as root, the servers' unprivileged user's group may read it too, since those servers run as it).
    chmod 644 "$SPICE_TLS_CERT"
    chmod 711 "$SPICE_TLS"
    tls_key_readers
    echo "spice: made a self-signed certificate for localhost and 127.0.0.1: $SPICE_TLS_CERT" >&2
}

# As root, the servers run as an unprivileged user (common.sh): its group may read the key too.
tls_key_readers() {
    if [ "$(id -u)" -eq 0 ] && id "${SPICE_SERVICE_USER:-www-data}" >/dev/null 2>&1; then
        chgrp "$(id -gn "${SPICE_SERVICE_USER:-www-data}")" "$SPICE_TLS_KEY" "$SPICE_TLS_P12" "$SPICE_TLS_PASSWORD_FILE"
        chmod 640 "$SPICE_TLS_KEY" "$SPICE_TLS_P12" "$SPICE_TLS_PASSWORD_FILE"
    fi
}
