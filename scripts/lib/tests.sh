# scripts/spice test: what the suite needs, installed when it can be, then the page's tests at a second page size,
# every test at the default, every real server from conf/, then every deploy bundle on its stock servers. Sourced by scripts/spice.
# shellcheck shell=bash

# What the suite runs for real, as COMMAND:DEBIAN_PACKAGE. ss (iproute2) is how server stop|status see the
# listening ports; openssl makes the TLS certificate; ab, wrk and h2load are the other load tools the tests
# run; Chromium renders the report; strace counts system calls (explain); sudo runs README.md's deploy lines as
# printed; shellcheck checks every script (ShellcheckTest); Prometheus' node and process exporters read the server's
# CPU where it runs (metrics-agent, installed its own way). JMeter, Tomcat and Jetty come from Maven Central.
SPICE_TEST_COMMANDS=(java:openjdk-17-jdk-headless javac:openjdk-17-jdk-headless mvn:maven gcc:gcc make:make
    ss:iproute2 openssl:openssl ab:apache2-utils wrk:wrk h2load:nghttp2-client chromium:chromium strace:strace
    sudo:sudo shellcheck:shellcheck)

# vegeta (MIT), the independent open-loop tool OpenLoopAgainstStubTest holds SPICE's open loop against: pinned, built
# with Go's go install into .cache/tools/bin (Go 1.22 or later: on PATH, or /usr/local/go).
SPICE_VEGETA_MODULE=github.com/tsenart/vegeta/v12@v12.13.0

ensure_vegeta() {
    local bin="$SPICE_ROOT/.cache/tools/bin" go
    [ ! -x "$bin/vegeta" ] || return 0
    go=$(command -v go 2>/dev/null || true)
    [ -n "$go" ] || [ ! -x /usr/local/go/bin/go ] || go=/usr/local/go/bin/go
    [ -n "$go" ] || die "test: vegeta (the open loop's independent check) is built with Go, and this machine has none:" \
        "install Go 1.22 or later (in /usr/local/go or on PATH), then scripts/spice test again"
    echo "spice test: installing vegeta ($SPICE_VEGETA_MODULE, go install)" >&2
    mkdir -p "$bin"
    GOBIN="$bin" "$go" install "$SPICE_VEGETA_MODULE" >&2 || die "test: go install $SPICE_VEGETA_MODULE failed"
}

# The Debian packages the suite lacks, one per line (libc6-dev: the static CGI build links libc.a).
missing_test_packages() {
    local pair
    for pair in "${SPICE_TEST_COMMANDS[@]}"; do
        command -v "${pair%%:*}" >/dev/null 2>&1 || echo "${pair#*:}"
    done
    [ -n "$(find /usr/lib -name libc.a -print -quit 2>/dev/null)" ] || echo libc6-dev
}

# The real servers not installed yet, one per line.
missing_test_servers() {
    local name
    while read -r name; do
        "${name}_installed" || echo "$name"
    done < <(real_servers)
}

# Installs what is missing as root with apt, or stops at once with the exact list and the command to run.
ensure_test_prerequisites() {
    local packages servers
    mapfile -t packages < <(missing_test_packages | sort -u)
    if [ ${#packages[@]} -gt 0 ]; then
        if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
            echo "spice test: installing ${packages[*]} (apt-get)" >&2
            { DEBIAN_FRONTEND=noninteractive apt-get update -qq \
                && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}"; } >&2 \
                || die "test: apt-get install ${packages[*]} failed"
        else
            die "test: the suite runs these and they are missing: ${packages[*]}; install them (as root):" \
                "apt-get install ${packages[*]}, then scripts/spice server install all"
        fi
    fi
    # The exporters of metrics-agent, installed without starting Debian's own services.
    source "$SPICE_ROOT/scripts/lib/metrics.sh"
    metrics_install
    ensure_vegeta
    source "$SPICE_ROOT/scripts/lib/server.sh"
    mapfile -t servers < <(missing_test_servers)
    if [ ${#servers[@]} -gt 0 ]; then
        if [ "$(id -u)" -eq 0 ]; then
            echo "spice test: installing the real servers: ${servers[*]} (scripts/spice server install all)" >&2
            server_main install all >&2
        else
            die "test: the real servers the suite starts are missing: ${servers[*]}; install them (as root):" \
                "scripts/spice server install all"
        fi
    fi
}

# The machine's speed, measured first and said first: the embedded server's static file at 8 clients, a connection
# per request, as ab (HTTP/1.0) drives it, after a warm-up of the same; the best of three runs (one run alone read
# 9,774-13,525 req/s in five suites here on 2026-11-28: the machine's neighbours and the JIT move it). The figure a
# user compares with the README's (on a machine N times slower the suite takes about N times as long), and what tests
# whose bounds depend on the machine's speed read (spice.machine.rps, testkit's MachineSpeed). Prints the rate in
# requests per second.
machine_speed() {
    local port out="" rate
    source "$SPICE_ROOT/scripts/lib/server.sh"
    port=$(server_default_port embedded)
    build_if_missing "$SERVER_JAR" "$SPICE_WAR" "$HARNESS_JAR"
    server_start embedded "$port" > /dev/null || return 1
    ab -q -n 20000 -c 8 "http://127.0.0.1:$port/spice/static/spice.html" > /dev/null 2>&1 || true
    local run
    for run in 1 2 3; do
        out+=$(ab -q -n 15000 -c 8 "http://127.0.0.1:$port/spice/static/spice.html" 2>&1)$'\n' || true
    done
    server_stop embedded "$port" > /dev/null
    rate=$(echo "$out" | awk '/^Requests per second:/ && $4 > best {best = $4} END {if (best) printf "%.0f", best}')
    [ -n "$rate" ] || { echo "spice test: ab gave no rate: $out" >&2; return 1; }
    echo "$rate"
}

# Minutes and seconds since the suite began, for its phase lines: where its time goes, on this machine.
suite_clock() {
    printf '%d:%02d' $((SECONDS / 60)) $((SECONDS % 60))
}

run_tests() {
    [ "${1:-}" != --fast ] || [ $# -gt 1 ] || { run_fast_tests; return; }
    [ $# -eq 0 ] || usage_error "test: one option, --fast (the unit tests alone); without it the whole suite"
    SECONDS=0
    ensure_test_prerequisites
    require_build_tools
    cd "$SPICE_ROOT" || return 1
    local rate
    rate=$(machine_speed) || die "test: could not measure this machine's speed (the embedded server with ab -c 8)"
    echo "spice test: this machine's speed: the embedded server's static file at 8 clients, a connection per request" \
        "(ab -c 8): $rate req/s; README.md says how long the suite takes at that speed [$(suite_clock)]" >&2
    export SPICE_MACHINE_RPS=$rate
    # The tests whose subject is the page (tagged "page": the probes' bytes, verify, the imports, the sweep, the
    # report's figures) run at a second size too; the rest (rounds, side by side, open loop, overload, JMeter, the
    # servers' lifecycle) measure the same things at any size, so they run once, at the default.
    echo "spice test: the page's tests with a 1000-byte page [$(suite_clock)]" >&2
    mvn -B -q verify -Dspice.bytes=1000 -Dgroups=page -Dspice.machine.rps="$rate"
    echo "spice test: every test with the default page (6250 bytes) [$(suite_clock)]" >&2
    mvn -B verify -Dspice.machine.rps="$rate"
    local status=0
    echo "spice test: every real server from conf/ [$(suite_clock)]" >&2
    test_real_servers || status=1
    source "$SPICE_ROOT/scripts/lib/stock.sh"
    echo "spice test: the deploy bundles [$(suite_clock)]" >&2
    # the two hosts' side by side on the probes whose CPU only a cgroup sees whole, and the reference: some 90 s
    # (every probe each bundle serves, test-bundles two-hosts by hand, takes some 4 min)
    # README's deploy section as printed, its bench on the static file and CGI, shortened (by hand, test-bundles
    # readme: every probe at bench's defaults)
    # (six rounds at the least for an interval: static and cgi, each at its own rate with the static file beside cgi,
    # some 4 s a round at 16,000 req/s, 5 at 13,000, where 32 s gave exactly six: longer as the machine is slower)
    local rounds_s=$((32 * 16000 / rate))
    [ "$rounds_s" -ge 32 ] || rounds_s=32
    local short="--probes static,cgi --clients 8 --ramp-up 0.5 --duration 1 --ramp-down 0.2 --warm-up 3 --cpu-time $rounds_s"
    # shellcheck disable=SC2119  # no cell named: every one
    SPICE_TWO_HOSTS_PROBES=static,cgi SPICE_TWO_HOSTS_CPU_TIME=$rounds_s SPICE_README_BENCH_OPTIONS="$short" test_bundles \
        || status=1
    echo "spice test: done in $(suite_clock) at $rate req/s [$([ "$status" -eq 0 ] && echo green || echo failed)]" >&2
    return "$status"
}

# The fast tier: every test of the page and the harness but those tagged "load" (they drive load for seconds against
# a stub server, or a browser), "tools" (they need a load tool the suite installs) or "crosscheck" (by hand): no
# server started, no timing bound, nothing to install but the build's tools. Says how many ran and how long it took.
run_fast_tests() {
    require_build_tools
    cd "$SPICE_ROOT" || return 1
    SECONDS=0
    rm -rf page/target/surefire-reports harness/target/surefire-reports
    local status=0 count
    mvn -B -q verify -pl page,harness -am -DexcludedGroups=load,tools,crosscheck || status=1
    count=$(cat page/target/surefire-reports/TEST-*.xml harness/target/surefire-reports/TEST-*.xml 2>/dev/null \
        | grep -o '<testsuite [^>]*' | grep -o ' tests="[0-9]*"' | grep -o '[0-9]*' | awk '{n += $1} END {print n + 0}')
    echo "spice test --fast: $count tests in $(suite_clock) [$([ "$status" -eq 0 ] && echo green || echo failed)]" >&2
    return "$status"
}

# Every real server, started from conf/, and its variants (apache-prefork, tomcat-vt, jetty-vt), must pass verify on
# all its probes, refuse bad input (verify --bad-input) and still be exact afterwards; the base servers over HTTPS
# too. The variants and nginx once more start with --listen 127.0.0.2, another address of this machine: they must
# answer there, and nothing of theirs on 127.0.0.1 (their HTTPS is not verified there: the certificate names
# 127.0.0.1). A -vt variant needs a JDK 21 or later: where the machine has none, it is skipped and the reason said.
test_real_servers() {
    local row base option how port address passed=0 failed=0 skipped=0 rows
    mapfile -t rows < <(real_servers variants; echo nginx@127.0.0.2)
    trap 'for each in $(real_servers); do server_stop "$each" "$(server_default_port "$each")" >/dev/null; done' EXIT
    for row in "${rows[@]}"; do
        address=127.0.0.1
        [ "${row#*@}" = "$row" ] || { address=${row#*@}; row=${row%@*}; }
        base=$(server_field "$row" 8) option=$(server_field "$row" 9)
        [ "$base" != - ] || base=$row
        [ "$option" = - ] || address=127.0.0.2
        port=$(server_default_port "$row")
        if [ "$option" = --threads=virtual ] && ! java21_home >/dev/null; then
            echo "spice test: $row skipped: virtual threads need a JDK 21 or later, and this machine has none" >&2
            skipped=$((skipped + 1))
            continue
        fi
        how=""
        [ "$option" = - ] || how=" ($option)"
        echo "spice test: $row from conf/$base on $address:$port$how" >&2
        if ( [ "$option" = - ] || apply_start_option "$option"; SPICE_LISTEN=$address server_start "$base" "$port" ) \
            && harness verify "http://$address:$port" --probes "$(server_probes "$row" ,)" --bad-input \
            && listens_only_on "$address" "$port" \
            && { [ "$address" != 127.0.0.1 ] \
                || harness verify "https://127.0.0.1:$(tls_port "$port")" --trust-cert "$SPICE_TLS_CERT" --probes static,servlet,cgi; }; then
            passed=$((passed + 1))
        else
            failed=$((failed + 1))
        fi
        server_stop "$base" "$port"
    done
    if php_fpm_beside_root_servers; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
    echo "real servers: $passed passed, $failed failed, $skipped skipped"
    [ "$failed" -eq 0 ]
}

# As root, where the service user cannot read the checkout the servers fall back to root (service_user_prefix), and
# PHP-FPM's pool must start beside them: as root too (php-fpm -R), its socket the service user's, whom the servers'
# workers run as. Before, php-fpm refused to start ("user has not been defined").
# A server started with --listen ADDR (not 127.0.0.1) has its HTTP and HTTPS ports there, and neither on 127.0.0.1.
# (Its HTTPS is not verified there: the certificate names localhost and 127.0.0.1.)
listens_only_on() {
    local address=$1 port=$2 each
    [ "$address" != 127.0.0.1 ] || return 0
    for each in "$port" "$(tls_port "$port")"; do
        port_in_use "$each" "$address" || { echo "nothing listens on $address:$each" >&2; return 1; }
        ! port_in_use "$each" 127.0.0.1 || { echo "127.0.0.1:$each answers, though the server was to listen on $address only" >&2; return 1; }
    done
}

php_fpm_beside_root_servers() {
    [ "$(id -u)" -eq 0 ] && [ -n "$(php_fpm_binary)" ] || return 0
    echo "spice test: php-fpm's pool where the servers run as root" >&2
    local run ok=0
    run=$(mktemp -d "${TMPDIR:-/tmp}/spice-fpm-root.XXXXXX")
    mkdir -p "$run/logs"
    (service_user_prefix() { SPICE_AS_USER=(); }; start_php_fpm "$run") || ok=1
    if [ "$ok" -eq 0 ] && [ "$(stat -c %U "$run/php-fpm.sock")" != "$SPICE_SERVICE_USER" ]; then
        echo "php-fpm's socket belongs to $(stat -c %U "$run/php-fpm.sock"), not $SPICE_SERVICE_USER" >&2
        ok=1
    fi
    stop_pids "$run"
    rm -rf "$run"
    return "$ok"
}
