# What a command needs and this machine lacks: installed as root with apt, saying so, else the exact packages and the
# command that installs them. Sourced by common.sh; scripts/spice test installs the suite's the same way (tests.sh).
# shellcheck shell=bash

# What building SPICE needs, as COMMAND:DEBIAN_PACKAGE: a JDK (17 or newer), Maven, and gcc and make for the C probes.
SPICE_BUILD_TOOLS=(java:openjdk-17-jdk-headless javac:openjdk-17-jdk-headless mvn:maven gcc:gcc make:make)

# The packages of PAIR... (COMMAND:PACKAGE) whose command this machine lacks, one per line, each once.
missing_packages() {
    local pair
    for pair in "$@"; do
        command -v "${pair%%:*}" >/dev/null 2>&1 || echo "${pair#*:}"
    done | awk '!seen[$0]++'
}

# Installs PACKAGE... for WHAT (the command that needs them) as root with apt, saying so; elsewhere stops at once with
# the exact list and the command that installs it. Nothing to do where the list is empty.
install_packages() {
    local what=$1
    shift
    [ $# -gt 0 ] || return 0
    if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "spice $what: installing what it needs: $* (apt-get)" >&2
        { DEBIAN_FRONTEND=noninteractive apt-get update -qq \
            && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"; } >&2 \
            || die "$what: apt-get install $* failed (see apt's output above)"
    elif [ "$(id -u)" -eq 0 ]; then
        die "$what needs $*, which this machine lacks, and it has no apt-get to install them with: install them"
    else
        die "$what needs $*, which this machine lacks: install them as root (apt-get install $*), or run it as" \
            "root, which installs them"
    fi
}

# The build's tools, installed as root where missing (as scripts/spice test installs the suite's), else the exact list.
require_build_tools() {
    local packages
    mapfile -t packages < <(missing_packages "${SPICE_BUILD_TOOLS[@]}")
    install_packages "${SPICE_COMMAND:-build}" "${packages[@]}"
    require_java
}
