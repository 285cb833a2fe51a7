# Shared by scripts/spice and its subcommands: where things are, what must be installed, how to build.
# shellcheck shell=bash

SPICE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SPICE_RUN="$SPICE_ROOT/run"
HARNESS_JAR="$SPICE_ROOT/harness/target/spice-harness.jar"

SERVER_JAR="$SPICE_ROOT/server/target/spice-server.jar"
SPICE_WAR="$SPICE_ROOT/server/target/webapps/spice.war"
# The static fileset every server serves at /spice/fileset/ (scripts/spice fileset writes it).
SPICE_FILESET="$SPICE_RUN/fileset"

# The harness a long run executes: a copy of the jar and its lib/ that a rebuild leaves alone. The JVM reads each
# class from its jar as it first needs it, so a jar rewritten under a running bench (mvn package, verify) ends that
# bench with a NoClassDefFoundError. One copy per build (named by the checksum of the project's own jars, 8 MB with the
# libraries), in run/jars; a copy unused for a day is removed.
stable_harness_jar() {
    local lib jars="$SPICE_ROOT/run/jars" sum dir used
    lib="$(dirname "$HARNESS_JAR")/lib"
    sum=$(cat "$HARNESS_JAR" "$lib"/spice-*.jar | cksum | cut -d' ' -f1)
    dir="$jars/$sum"
    if [ ! -f "$dir/spice-harness.jar" ]; then
        mkdir -p "$dir.$$"
        if cp -r "$HARNESS_JAR" "$lib" "$dir.$$/" && mv -T "$dir.$$" "$dir" 2>/dev/null; then :; else rm -rf "$dir.$$"; fi
        for used in "$jars"/*/used; do
            [ ! -f "$used" ] || [ -z "$(find "$used" -mtime +1)" ] || rm -rf "$(dirname "$used")"
        done
    fi
    touch "$dir/used"
    echo "$dir/spice-harness.jar"
}

# An error: one line on stderr, "spice COMMAND: ..." (as the harness's commands write it) or "spice: ...", exit 1.
die() {
    say_error "$*"
    exit 1
}

# A wrong command line: one line on stderr, exit 2 (as the harness's commands do).
usage_error() {
    say_error "$*"
    exit 2
}

say_error() {
    if [[ "$1" =~ ^[a-z][a-z-]*:\  ]]; then echo "spice $1" >&2; else echo "spice: $1" >&2; fi
}

# A JDK 17 or newer: java to run, javac (through Maven) to build.
require_java() {
    command -v java >/dev/null 2>&1 \
        || die "java is not installed: apt-get install openjdk-17-jdk-headless (SPICE needs Java 17 or newer)"
    local version
    version=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
    [ "${version%%.*}" -ge 17 ] 2>/dev/null \
        || die "java $version is too old: SPICE needs Java 17 or newer (apt-get install openjdk-17-jdk-headless)"
}

require_build_tools() {
    require_java
    command -v javac >/dev/null 2>&1 || die "javac is not installed: apt-get install openjdk-17-jdk-headless"
    command -v mvn >/dev/null 2>&1 || die "mvn is not installed: apt-get install maven"
    command -v gcc >/dev/null 2>&1 || die "gcc is not installed (the CGI probe is C): apt-get install gcc make"
    command -v make >/dev/null 2>&1 || die "make is not installed: apt-get install make"
}

# Builds every probe, the WAR, the server and the harness if any of them is missing; with FILE arguments, only
# if one of those is (the harness's commands need its jar alone, a real server no embedded server's jar).
build_if_missing() {
    local needed=("$@") file missing=
    [ ${#needed[@]} -gt 0 ] || needed=("$HARNESS_JAR" "$SERVER_JAR" "$SPICE_WAR")
    for file in "${needed[@]}"; do
        [ -f "$file" ] || missing=1
    done
    [ -n "$missing" ] || return 0
    require_build_tools
    echo "spice: building the probes, spice.war, the embedded server and the harness (mvn -B -q package -DskipTests)" >&2
    # Maven's output goes to stderr: stdout may be a command's answer that a caller reads (scripts/spice servers).
    (cd "$SPICE_ROOT" && mvn -B -q package -DskipTests) >&2 || die "the build failed: see the Maven output above"
}

harness() {
    build_if_missing "$HARNESS_JAR"
    require_java
    java -jar "$HARNESS_JAR" "$@"
}

# The feature version of the JDK in HOME (21 for 21.0.5), from its release file; 0 where it has none.
jdk_version() {
    local version
    version=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null)
    echo "${version:-0}"
}

# A JDK of version 21 or later (virtual threads), for the servers' -vt variants: the java on the PATH if it is one,
# else the newest under /usr/lib/jvm; its home directory, or nothing (and status 1) where the machine has none.
java21_home() {
    local java version best="" best_version=0 home
    for java in "$(command -v java 2>/dev/null)" /usr/lib/jvm/*/bin/java; do
        [ -x "$java" ] || continue
        home=$(dirname "$(dirname "$(readlink -f "$java")")")
        version=$(jdk_version "$home")
        if [ "$version" -ge 21 ] && [ "$version" -gt "$best_version" ]; then
            best=$home best_version=$version
        fi
    done
    [ -n "$best" ] && echo "$best"
}

# The JDK a Java server (NAME: tomcat or jetty) runs on: SPICE_JAVA_HOME where it is set, else with --threads virtual
# the newest JDK 21 or later (java21_home), else nothing (the java on the PATH). Says which on stderr; fails, saying
# why, where virtual threads are asked for and no JDK has them. Comparing platform threads with virtual ones is
# comparing two JDKs unless both run on one: SPICE_JAVA_HOME=$(dirname of a JDK 21+) for both runs.
server_java_home() {
    local name=$1 home=${SPICE_JAVA_HOME:-}
    if [ -z "$home" ] && [ "$SPICE_THREADS" = virtual ]; then
        home=$(java21_home) || { echo "$name: --threads virtual needs a JDK 21 or later, and this machine has none" \
            "(java on the PATH is older, nothing newer under /usr/lib/jvm): apt-get install openjdk-21-jdk-headless" >&2; return 1; }
    fi
    if [ -n "$home" ] && [ ! -x "$home/bin/java" ]; then
        echo "$name: SPICE_JAVA_HOME=$home has no bin/java" >&2
        return 1
    fi
    if [ "$SPICE_THREADS" = virtual ] && [ "$(jdk_version "$home")" -lt 21 ]; then
        echo "$name: --threads virtual needs a JDK 21 or later, not $home" >&2
        return 1
    fi
    echo "$name: request threads $SPICE_THREADS, on ${home:-the java on the PATH ($(command -v java))}" >&2
    echo "$home"
}

# The Java servers' JVM options from conf/java/jvm.options, on one line, for a command line.
java_server_options() {
    sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$SPICE_ROOT/conf/java/jvm.options" | paste -sd' ' -
}

# When run by root, SPICE's servers run as an unprivileged user, as httpd's workers do: www-data, or
# SPICE_SERVICE_USER. service_user_prefix sets SPICE_AS_USER to the words that drop to that user
# (setpriv ... --), empty when not root; a launcher writes "${SPICE_AS_USER[@]}" PROGRAM, so that the
# PID it records is the program's. If that user cannot read this tree (a checkout under a private home),
# the servers run as root and a warning says so.
SPICE_SERVICE_USER=${SPICE_SERVICE_USER:-www-data}
service_user_prefix() {
    SPICE_AS_USER=()
    [ "$(id -u)" -eq 0 ] || return 0
    local drop=(setpriv --reuid="$SPICE_SERVICE_USER" --regid="$SPICE_SERVICE_USER" --clear-groups --)
    if ! id "$SPICE_SERVICE_USER" >/dev/null 2>&1 || ! "${drop[@]}" test -r "$HARNESS_JAR"; then
        echo "spice: warning: $SPICE_SERVICE_USER cannot read $SPICE_ROOT: the servers run as root" >&2
        return 0
    fi
    SPICE_AS_USER=("${drop[@]}")
}

# As root: a run directory (and the generated TLS key, which the servers read) belongs to the service user.
give_to_service_user() {
    [ "${#SPICE_AS_USER[@]}" -gt 0 ] || return 0
    chown -R "$SPICE_SERVICE_USER:" "$@"
}

# Whether PID is a live process.
pid_alive() {
    [ -n "$1" ] && kill -0 "$1" 2>/dev/null
}

# Stops every process recorded in RUN/*.pid and RUN/*/*.pid: SIGTERM, up to 30 s to finish, then SIGKILL.
stop_pids() {
    local run=$1 pidfile pid waited
    # The server first, then what it started beside itself (Apache's Tomcat backend).
    for pidfile in "$run"/*.pid "$run"/*/*.pid; do
        [ -f "$pidfile" ] || continue
        pid=$(tr -dc '0-9' < "$pidfile")
        if pid_alive "$pid"; then
            kill -TERM "$pid" 2>/dev/null || true
            for ((waited = 0; waited < 300; waited++)); do
                pid_alive "$pid" || break
                sleep 0.1
            done
            if pid_alive "$pid"; then
                echo "spice: $(basename "$pidfile" .pid) (pid $pid) did not stop in 30 s: killing it" >&2
                kill -KILL "$pid" 2>/dev/null || true
            fi
        fi
        # A process started with setsid (or a daemon such as httpd) leads its own group: end the
        # workers it leaves behind (httpd's children, fcgiwrap's), by SIGKILL if they outlive a grace.
        if kill -TERM -- "-$pid" 2>/dev/null; then
            for ((waited = 0; waited < 50; waited++)); do
                kill -0 -- "-$pid" 2>/dev/null || break
                sleep 0.1
            done
            kill -KILL -- "-$pid" 2>/dev/null || true
        fi
        rm -f "$pidfile"
    done
}

# Whether $1 is an IPv4 address in dotted decimal, each part 0-255.
valid_ipv4() {
    local part parts
    [[ "$1" =~ ^[0-9]{1,3}(\.[0-9]{1,3}){3}$ ]] || return 1
    IFS=. read -ra parts <<< "$1"
    for part in "${parts[@]}"; do
        [ "$((10#$part))" -le 255 ] || return 1
    done
}

# Whether something listens on PORT of HOST (default 127.0.0.1).
port_in_use() {
    { (exec 3<>"/dev/tcp/${2:-127.0.0.1}/$1"); } 2>/dev/null
}
