# Shared by scripts/spice and its subcommands: where things are, what must be installed, how to build.
# shellcheck shell=bash

SPICE_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# What a command lacks, installed as root or listed (install_packages, require_build_tools).
# shellcheck source=install.sh
source "$SPICE_ROOT/scripts/lib/install.sh"
# When run by root, SPICE's servers and the metrics agent's exporters run as an unprivileged user, as httpd's workers
# do: www-data, or SPICE_SERVICE_USER (the harness's ServiceUser; metrics.sh for the agent's exporters).
SPICE_SERVICE_USER=${SPICE_SERVICE_USER:-www-data}
# Where run/'s folder is made when the service user cannot reach the checkout (spice_run_dir).
SPICE_RUN_BASE=${SPICE_RUN_BASE:-/var/lib/spice}

# Whether the service user can read PATH, every folder above it included. Always so when not root (the servers run
# as the caller) and where that user does not exist (they run as root).
service_user_reads() {
    [ "$(id -u)" -eq 0 ] && id "$SPICE_SERVICE_USER" >/dev/null 2>&1 || return 0
    as_service_user test -r "$1"
}

# Runs COMMAND... as the service user (root only), for a check (a server is started by the harness's ServiceUser).
as_service_user() {
    setpriv --reuid="$SPICE_SERVICE_USER" --regid="$SPICE_SERVICE_USER" --clear-groups -- "$@"
}

# Removes the run/ folders under SPICE_RUN_BASE whose checkout is gone (a deleted clone, a test's copy), unless
# something recorded in them still runs.
run_base_tidy() {
    local folder checkout
    for folder in "$SPICE_RUN_BASE"/run-*/; do
        folder=${folder%/}
        [ -f "$folder/checkout" ] || continue
        checkout=$(cat "$folder/checkout")
        [ ! -d "$checkout" ] && ! run_has_live_pids "$folder" && rm -rf "$folder"
    done
    return 0
}

# Whether a PID file in a run directory under RUN names a live process.
run_has_live_pids() {
    local pidfile
    for pidfile in "$1"/*/*.pid "$1"/*/*/*.pid; do
        [ -f "$pidfile" ] && kill -0 "$(tr -dc '0-9' < "$pidfile")" 2>/dev/null && return 0
    done
    return 1
}

# Why the service user cannot read PATH, in words: the first folder on the way it may not enter, with its mode and
# owner, or PATH's own.
service_user_blocked() {
    local path=$1 walked="" part parts
    IFS=/ read -ra parts <<< "${path#/}"
    for part in "${parts[@]}"; do
        walked="$walked/$part"
        if [ "$walked" != "$path" ] && ! as_service_user test -x "$walked"; then
            echo "it may not enter $walked ($(stat -c '%A %U:%G' "$walked"))"
            return
        fi
    done
    echo "it may not read it ($(stat -c '%A %U:%G' "$path" 2>/dev/null || echo missing))"
}

# run/: the servers' run directories, the agent's, the TLS files, the fileset. The checkout's own run/ where the
# service user can reach it; else (root, with the checkout under a folder only root enters, such as root's home) a
# folder of its own under SPICE_RUN_BASE, named by the checkout's path, that the service user can traverse, with the
# checkout's run a link to it, so that the harness (root) finds the same files. Prints the folder.
spice_run_dir() {
    local own="$SPICE_ROOT/run" outside
    if [ -L "$own" ]; then
        outside=$(readlink "$own")
        mkdir -p "$outside" && echo "$outside" && return
    fi
    if service_user_reads "$SPICE_ROOT/scripts/spice"; then
        echo "$own"
        return
    fi
    outside="$SPICE_RUN_BASE/run-$(printf '%s' "$SPICE_ROOT" | cksum | cut -d' ' -f1)"
    if [ -d "$own" ] && run_has_live_pids "$own"; then
        # Servers started before the move run from it: it stays until they are stopped.
        echo "spice: warning: $SPICE_SERVICE_USER cannot reach $own, and servers started from it still run:" \
            "stop them (scripts/spice server stop all), and run/ moves to $outside" >&2
        echo "$own"
        return
    fi
    mkdir -p "$SPICE_RUN_BASE" && chmod 755 "$SPICE_RUN_BASE" || { echo "$own"; return; }
    run_base_tidy
    if [ -d "$own" ]; then
        rm -rf "$outside" && mv -T "$own" "$outside"
    fi
    mkdir -p "$outside" && chmod 755 "$outside" && echo "$SPICE_ROOT" > "$outside/checkout" && ln -sfn "$outside" "$own" \
        || { echo "$own"; return; }
    echo "spice: $SPICE_SERVICE_USER cannot reach $SPICE_ROOT: run/ is $outside (what the servers and the metrics" \
        "agent read as $SPICE_SERVICE_USER is there), and $own links to it" >&2
    echo "$outside"
}
SPICE_RUN=$(spice_run_dir)
HARNESS_JAR="$SPICE_ROOT/harness/target/spice-harness.jar"

SERVER_JAR="$SPICE_ROOT/server/target/spice-server.jar"
SPICE_WAR="$SPICE_ROOT/server/target/webapps/spice.war"
# The static fileset every server serves at /spice/fileset/ (scripts/spice fileset writes it).
# shellcheck disable=SC2034  # read by the files that source this one
SPICE_FILESET="$SPICE_RUN/fileset"

# The harness a long run executes: a copy of the jar and its lib/ that a rebuild leaves alone. The JVM reads each
# class from its jar as it first needs it, so a jar rewritten under a running bench (mvn package, verify) ends that
# bench with a NoClassDefFoundError. One copy per build (named by the checksum of the project's own jars, 8 MB with the
# libraries), in run/jars; a copy unused for a day is removed.
stable_harness_jar() {
    local lib jars="$SPICE_RUN/jars" sum dir used
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

# A shell command's options (COMMAND ARGS...) parsed and checked by the harness, which declares them
# (org.spice.commands.shell), as assignments for eval; a wrong command line is said there, and ends with its status:
#   parsed=$(shell_args bundle "$@") || exit $?; eval "$parsed"
shell_args() {
    SPICE_SHELL=1 harness "$@"
}

say_error() {
    if [[ "$1" =~ ^[a-z][a-z-]*:\  ]]; then echo "spice $1" >&2; else echo "spice: $1" >&2; fi
}

# A JDK 17 or newer: java to run, javac (through Maven) to build. Its version from its JDK's release file where it has
# one, else from a JVM started to say it; once per process tree (SPICE_JAVA_CHECKED, exported: a scripts/spice that
# runs another, as the tests' does, checks once; each JVM started costs some 0.3 s).
require_java() {
    local java version
    command -v java >/dev/null 2>&1 || install_packages "${SPICE_COMMAND:-spice}" openjdk-17-jdk-headless
    java=$(command -v java 2>/dev/null) || die "java is not on the PATH after its install (SPICE needs Java 17 or newer)"
    [ "${SPICE_JAVA_CHECKED:-}" != "$java" ] || return 0
    version=$(jdk_version "$(dirname "$(dirname "$(readlink -f "$java")")")")
    [ "$version" != 0 ] \
        || version=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
    [ "${version%%.*}" -ge 17 ] 2>/dev/null \
        || die "java $version is too old: SPICE needs Java 17 or newer (apt-get install openjdk-17-jdk-headless)"
    export SPICE_JAVA_CHECKED=$java
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

# The harness's JVM names the checkout and its run/, so that the shell and the harness use one run/ (spice_run_dir).
SPICE_JVM_PROPERTIES=(-Dspice.root="$SPICE_ROOT" -Dspice.run="$SPICE_RUN")

harness() {
    build_if_missing "$HARNESS_JAR"
    require_java
    java "${SPICE_JVM_PROPERTIES[@]}" -jar "$HARNESS_JAR" "$@"
}

# The feature version of the JDK in HOME (21 for 21.0.5), from its release file; 0 where it has none.
jdk_version() {
    local version
    version=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null)
    echo "${version:-0}"
}

# How long a start waits for a service to be ready, in seconds: SPICE_WAIT_S, else 60 (a JVM server's first start on
# this 2-core machine is 2-4 s; a machine several times slower, or one busy with the suite's other work, needs room).
wait_limit_s() {
    local limit=${SPICE_WAIT_S:-60}
    [[ "$limit" =~ ^[1-9][0-9]*$ ]] || limit=60
    echo "$limit"
}

# Whether PID is a live process: a zombie is not. A process whose parent is gone waits as a zombie until PID 1 reaps
# it, and some inits reap only every second or two (here: 1.5-2 s a process), which a stop would otherwise wait out.
pid_alive() {
    [ -n "$1" ] && kill -0 "$1" 2>/dev/null || return 1
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    stat=${stat##*) }
    [ "${stat%% *}" != Z ]
}

# Whether any process of the process group PGID is alive (zombies aside, as pid_alive).
group_alive() {
    pgrep -g "$1" --runstates R,S,D,T,t,W,I >/dev/null 2>&1
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
                group_alive "$pid" || break
                sleep 0.1
            done
            kill -KILL -- "-$pid" 2>/dev/null || true
        fi
        rm -f "$pidfile"
    done
}

# Whether something listens on PORT of HOST (default 127.0.0.1).
port_in_use() {
    { (exec 3<>"/dev/tcp/${2:-127.0.0.1}/$1"); } 2>/dev/null
}
