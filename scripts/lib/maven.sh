# Versions pinned in pom.xml and distributions from Maven Central: what the scripts take from Maven. Sourced by
# server.sh.
# shellcheck shell=bash

# A version pinned in the root pom.xml: the one place the build and the scripts take it from.
pom_property() {
    sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" "$SPICE_ROOT/pom.xml" | head -1
}

# Unpacks a distribution archive from Maven Central (through Maven) into the cache, once.
maven_unpack() {
    local artifact=$1 destination=$2
    command -v mvn >/dev/null 2>&1 || die "mvn is not installed: apt-get install maven"
    mkdir -p "$destination"
    mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:"$(pom_property maven-dependency-plugin.version)":unpack \
        -Dartifact="$artifact" -DoutputDirectory="$destination" -Dmdep.overWriteReleases=false \
        || die "could not fetch $artifact with Maven"
}
