# scripts/spice test: what the suite needs, installed when it can be, then the page's tests at a second page size,
# then every test at the default: the unit tests, the real servers from conf/ and every deploy bundle on its stock
# servers (server/src/test/java, the *IT classes). Sourced by scripts/spice.
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
# with Go's go install into .cache/tools/bin (Go 1.25 or later: on PATH, or /usr/local/go).
SPICE_VEGETA_MODULE=github.com/tsenart/vegeta/v12@v12.13.0

ensure_vegeta() {
    local bin="$SPICE_ROOT/.cache/tools/bin" go
    [ ! -x "$bin/vegeta" ] || return 0
    go=$(command -v go 2>/dev/null || true)
    [ -n "$go" ] || [ ! -x /usr/local/go/bin/go ] || go=/usr/local/go/bin/go
    [ -n "$go" ] || die "test: vegeta (the open loop's independent check) is built with Go, and this machine has none:" \
        "install Go 1.25 or later (in /usr/local/go or on PATH), then scripts/spice test again"
    echo "spice test: installing vegeta ($SPICE_VEGETA_MODULE, go install)" >&2
    mkdir -p "$bin"
    GOBIN="$bin" "$go" install "$SPICE_VEGETA_MODULE" >&2 || die "test: go install $SPICE_VEGETA_MODULE failed"
}

# The Debian packages the suite lacks, one per line (libc6-dev: the static CGI build links libc.a).
missing_test_packages() {
    missing_packages "${SPICE_TEST_COMMANDS[@]}"
    [ -n "$(find /usr/lib -name libc.a -print -quit 2>/dev/null)" ] || echo libc6-dev
}

# Installs what is missing as root with apt, or stops at once with the exact list and the command to run.
ensure_test_prerequisites() {
    local packages lacking
    mapfile -t packages < <(missing_test_packages | sort -u)
    install_packages test "${packages[@]}"
    # The exporters of metrics-agent, installed without starting Debian's own services.
    source "$SPICE_ROOT/scripts/lib/metrics.sh"
    metrics_install
    ensure_vegeta
    # the real servers: what they lack, as the commands that install it (the harness's server table and launchers)
    lacking=$("$SPICE_ROOT/scripts/spice" server installed all) && return 0
    if [ "$(id -u)" -eq 0 ]; then
        echo "spice test: installing what the real servers lack: $(echo "$lacking" | paste -sd ';' -) (scripts/spice server" \
            "install all)" >&2
        "$SPICE_ROOT/scripts/spice" server install all >&2 || die "test: installing the real servers failed (above)"
    else
        die "test: the real servers the suite starts lack what they need; as root: $(echo "$lacking" | paste -sd ';' -)"
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
    build_if_missing "$SERVER_JAR" "$SPICE_WAR" "$HARNESS_JAR"
    port=$(harness servers | awk '$1 == "embedded" {print $2}')
    "$SPICE_ROOT/scripts/spice" server start embedded --port "$port" > /dev/null || return 1
    ab -q -n 20000 -c 8 "http://127.0.0.1:$port/spice/static/spice.html" > /dev/null 2>&1 || true
    local run
    for run in 1 2 3; do
        out+=$(ab -q -n 15000 -c 8 "http://127.0.0.1:$port/spice/static/spice.html" 2>&1)$'\n' || true
    done
    "$SPICE_ROOT/scripts/spice" server stop embedded --port "$port" > /dev/null
    rate=$(echo "$out" | awk '/^Requests per second:/ && $4 > best {best = $4} END {if (best) printf "%.0f", best}')
    [ -n "$rate" ] || { echo "spice test: ab gave no rate: $out" >&2; return 1; }
    echo "$rate"
}

# Minutes and seconds since the suite began, for its phase lines: where its time goes, on this machine.
suite_clock() {
    printf '%d:%02d' $((SECONDS / 60)) $((SECONDS % 60))
}

suite_failed() {
    die "test: failed at $(suite_clock) at $1 req/s (Maven's output above says which test)"
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
    # The tests whose subject is the page (tagged "page": the probes' bytes, verify, the imports, the report's
    # figures) run at a second size too; the rest (rounds, side by side, open loop, overload, JMeter, the servers'
    # lifecycle, the deploy bundles, the sweep, which builds sizes of its own) run once, at the default.
    echo "spice test: the page's tests with a 1000-byte page [$(suite_clock)]" >&2
    mvn -B -q verify -Dspice.bytes=1000 -Dgroups=page -Dspice.machine.rps="$rate" || suite_failed "$rate"
    # then, after the package phase (the *IT classes, failsafe): every real server from conf/, every deploy bundle on
    # its stock servers, two hosts, README's deploy block
    echo "spice test: every test with the default page (6250 bytes), then the servers and the deploy bundles [$(suite_clock)]" >&2
    mvn -B verify -Dspice.machine.rps="$rate" || suite_failed "$rate"
    echo "spice test: done in $(suite_clock) at $rate req/s [green]" >&2
}

# scripts/spice test-bundles [CELL...]: the deploy tests alone (server/src/test/java, *IT): each bundle on its stock
# servers (StockBundlesIT), two hosts (TwoHostsBundlesIT) and README's deploy block (ReadmeDeployIT); CELLs name some
# (none: every one). By hand their benches measure every probe each bundle serves (the suite: static and cgi).
test_bundles() {
    require_build_tools
    cd "$SPICE_ROOT" || return 1
    local cells
    cells=$(IFS=,; echo "$*")
    mvn -B verify -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false -Dfailsafe.failIfNoSpecifiedTests=false \
        -Dit.test=StockBundlesIT,TwoHostsBundlesIT,ReadmeDeployIT -Dspice.cells="$cells" -Dspice.deploy.probes=all
}

# The fast tier: the tests of the page and the harness tagged "unit", by inclusion: no process or server started, no
# load, no timing bound, nothing to install but the build's tools. Every test class carries one tier (TestTiersTest):
# "unit", or "process" (it starts a process: bash, shellcheck, openssl, a child to read in /proc), "load" (load for
# seconds against a stub server, or a browser), "tools" (a load tool the suite installs).
# Says how many ran and how long it took.
run_fast_tests() {
    require_build_tools
    cd "$SPICE_ROOT" || return 1
    SECONDS=0
    rm -rf page/target/surefire-reports harness/target/surefire-reports
    local status=0 count
    mvn -B -q verify -pl page,harness -am -Dgroups=unit || status=1
    count=$(cat page/target/surefire-reports/TEST-*.xml harness/target/surefire-reports/TEST-*.xml 2>/dev/null \
        | grep -o '<testsuite [^>]*' | grep -o ' tests="[0-9]*"' | grep -o '[0-9]*' | awk '{n += $1} END {print n + 0}')
    echo "spice test --fast: $count tests in $(suite_clock) [$([ "$status" -eq 0 ] && echo green || echo failed)]" >&2
    return "$status"
}
