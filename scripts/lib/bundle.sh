# scripts/spice bundle apache|nginx|tomcat|tomcat9|jetty|all [--out DIR]: the deploy bundles, one archive per
# server, DIR/spice-SERVER-VERSION.tar.gz (default dist/). Each holds the probes that server serves, built here
# from the same sources and conf/ files as SPICE's own servers, its install.sh (bundles/SERVER/ and
# bundles/install-lib.sh) and its README. Sourced by scripts/spice.
# shellcheck shell=bash

# Distributions fetched through Maven (jakartaee-migration, for Tomcat 9's bundle), kept as the harness keeps Tomcat's.
SPICE_CACHE="$SPICE_ROOT/.cache"

# A version pinned in the root pom.xml: the one place the build, the harness and the bundles take it from.
pom_property() {
    sed -n "s:.*<$1>\(.*\)</$1>.*:\1:p" "$SPICE_ROOT/pom.xml" | head -1
}

# A server's C module probe, nsapi-like-module/SERVER/target/FILE, as the build made it; made now where the server's
# development files came after the build.
c_module() {
    local server=$1 file=$2 dir="$SPICE_ROOT/nsapi-like-module/$1"
    if [ ! -f "$dir/target/$file" ]; then
        make --no-print-directory -C "$dir" OUT="$dir/target" >&2 || die "bundle: $server: building $file failed"
    fi
    [ -f "$dir/target/$file" ] || die "bundle: $server: $file was not built (are the server's development files installed?)"
    echo "$dir/target/$file"
}

# The WebAssembly host and its two modules in wasm/target, as the build made them; made now where clang for
# wasm32-wasi or Go came after the build.
wasm_built() {
    local dir="$SPICE_ROOT/wasm" file
    if [ ! -f "$dir/target/spice-wasm" ] || [ ! -f "$dir/target/spice.wasm" ] || [ ! -f "$dir/target/spice-kept.wasm" ]; then
        make --no-print-directory -C "$dir" OUT="$dir/target" >&2 || die "bundle: building the WebAssembly host failed"
    fi
    for file in spice-wasm spice.wasm spice-kept.wasm; do
        [ -f "$dir/target/$file" ] || die "bundle: wasm/target/$file was not built (scripts/spice server install nginx" \
            "installs clang for wasm32-wasi; Go 1.25 or later by hand)"
    done
}

project_version() {
    sed -n 's:^  <version>\(.*\)</version>:\1:p' "$SPICE_ROOT/pom.xml" | head -1
}

# The system the prebuilt C modules are for: "ID VERSION_ID" of /etc/os-release.
this_system() {
    (. /etc/os-release 2>/dev/null && echo "$ID $VERSION_ID")
}

# The CGI and FastCGI programs, statically linked so that they run on any x86-64 Linux.
static_programs() {
    local target="$SPICE_ROOT/cgi-c/target"
    [ -f /usr/include/fcgiapp.h ] || die "bundle: the FastCGI program needs libfcgi-dev: apt-get install libfcgi-dev"
    make --no-print-directory -s -C "$SPICE_ROOT/cgi-c" STATIC=1 OUT="$target/static" GENERATED="$target/generated" \
        "$target/static/spice" "$target/static/spice-fcgi" 2>&1 | grep -v "gethostbyname\|libfcgi_la-os_unix" >&2 || true
    [ -x "$target/static/spice" ] && [ -x "$target/static/spice-fcgi" ] \
        || die "bundle: could not link the static CGI and FastCGI programs (libc6-dev has libc.a)"
}

# The javax copy of a Jakarta EE archive, for Tomcat 9: Tomcat's jakartaee-migration with its JEE8 profile.
to_javax() {
    local from=$1 to=$2 version jar
    version=$(pom_property jakartaee-migration.version)
    jar="$SPICE_CACHE/jakartaee-migration-$version-shaded.jar"
    if [ ! -f "$jar" ]; then
        mkdir -p "$SPICE_CACHE"
        mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:"$(pom_property maven-dependency-plugin.version)":copy \
            -Dartifact="org.apache.tomcat:jakartaee-migration:$version:jar:shaded" -DoutputDirectory="$SPICE_CACHE" >&2 \
            || die "bundle: could not fetch jakartaee-migration $version with Maven"
    fi
    java -jar "$jar" -profile=JEE8 -logLevel=WARNING "$from" "$to" >&2 || die "bundle: converting $(basename "$from") to javax failed"
}

# What every bundle has: install.sh, the shared installer, README.md, bundle.env, and the probe pages.
bundle_common() {
    local name=$1 stage=$2 source=$3
    mkdir -p "$stage/lib" "$stage/files"
    cp "$SPICE_ROOT/bundles/$source/install.sh" "$stage/"
    cp "$SPICE_ROOT/bundles/install-lib.sh" "$stage/lib/"
    sed "s/@VERSION@/$(project_version)/g" "$SPICE_ROOT/bundles/$name/README.md" > "$stage/README.md"
    printf 'BUNDLE_SERVER=%s\nBUNDLE_VERSION=%s\n' "$name" "$(project_version)" > "$stage/bundle.env"
}

# The pages, the programs and spice-helpers, for the servers that run the C probes (httpd, nginx, Jetty).
bundle_programs() {
    local stage=$1 target="$SPICE_ROOT/cgi-c/target/static"
    mkdir -p "$stage/files/cgi-bin" "$stage/files/bin"
    cp "$target/spice" "$stage/files/cgi-bin/"
    cp "$target/spice-fcgi" "$SPICE_ROOT/bundles/spice-helpers" "$stage/files/bin/"
}

bundle_pages() {
    mkdir -p "$1/files/www"
    cp -r "$SPICE_ROOT/webapp/target/spice/static" "$SPICE_ROOT/webapp/target/spice/shtml" "$1/files/www/"
}

# The language runtimes' probes (runtimes/target: php/, wsgi/, lua/, node/, asgi/ with the ASGI servers' pinned
# versions), the settings of the PHP-FPM pool, uWSGI and the ASGI servers that spice-helpers runs beside the server
# (conf/php, conf/uwsgi, conf/asgi), and the WebAssembly host with its two modules (wasm/target).
bundle_runtimes() {
    local stage=$1 kind
    mkdir -p "$stage/files/runtimes" "$stage/files/conf/php" "$stage/files/conf/uwsgi" "$stage/files/conf/asgi" \
        "$stage/files/bin" "$stage/files/lib"
    for kind in php wsgi lua node asgi; do
        cp -r "$SPICE_ROOT/runtimes/target/$kind" "$stage/files/runtimes/"
    done
    cp "$SPICE_ROOT/runtimes/asgi/requirements.txt" "$stage/files/runtimes/asgi/"
    cp "$SPICE_ROOT"/conf/php/{php.ini,php-fpm.conf} "$stage/files/conf/php/"
    cp "$SPICE_ROOT/conf/uwsgi/spice.ini" "$stage/files/conf/uwsgi/"
    cp "$SPICE_ROOT"/conf/asgi/{uvicorn,granian}.args "$stage/files/conf/asgi/"
    wasm_built
    cp "$SPICE_ROOT/wasm/target/spice-wasm" "$stage/files/bin/"
    cp "$SPICE_ROOT"/wasm/target/{spice,spice-kept}.wasm "$stage/files/lib/"
}

bundle_apache() {
    local stage=$1 module="$1/module"
    bundle_programs "$stage"
    bundle_pages "$stage"
    bundle_runtimes "$stage"
    mkdir -p "$stage/files/conf" "$module/prebuilt"
    cp "$SPICE_ROOT/conf/apache/spice-probes.conf" "$stage/files/conf/"
    cp "$SPICE_ROOT/nsapi-like-module/apache/mod_spice.c" "$SPICE_ROOT/nsapi-like-module/apache/target/generated/spice_page.h" \
        "$SPICE_ROOT/bundles/apache/build-module.sh" "$module/"
    cp "$(c_module apache mod_spice.so)" "$module/prebuilt/"
    this_system > "$module/prebuilt/BUILT-ON"
}

bundle_nginx() {
    local stage=$1 module="$1/module" version
    bundle_programs "$stage"
    bundle_pages "$stage"
    mkdir -p "$stage/files/conf" "$stage/files/njs" "$module/src" "$module/prebuilt"
    bundle_runtimes "$stage"
    cp "$SPICE_ROOT"/conf/nginx/{spice-probes,fastcgi,uwsgi,proxy,spice-php-fpm,spice-wsgi,spice-lua,spice-node,spice-asgi,spice-wasm}.conf \
        "$stage/files/conf/"
    cp "$SPICE_ROOT/nsapi-like-module/nginx/njs/spice.js" "$SPICE_ROOT/nsapi-like-module/nginx/target/generated/spice_page.js" \
        "$stage/files/njs/"
    cp "$SPICE_ROOT"/nsapi-like-module/nginx/{config,ngx_http_spice_module.c} \
        "$SPICE_ROOT/nsapi-like-module/nginx/target/generated/spice_page.h" "$module/src/"
    cp "$SPICE_ROOT/bundles/nginx/build-module.sh" "$module/"
    cp "$(c_module nginx ngx_http_spice_module.so)" "$module/prebuilt/"
    command -v nginx >/dev/null 2>&1 || PATH="$PATH:/usr/sbin"
    version=$(nginx -v 2>&1 | sed -n 's|.*nginx/\([0-9.]*\).*|\1|p')
    echo "$(this_system) nginx $version" > "$module/prebuilt/BUILT-ON"
}

# tomcat: as built (Jakarta EE, Tomcat 10.1 and 11); tomcat9: the same war and Valve converted to javax.
bundle_tomcat() {
    local stage=$1 javax=${2:-} jar
    mkdir -p "$stage/files/webapps" "$stage/files/lib" "$stage/files/conf"
    cp "$SPICE_ROOT/bundles/tomcat/spice.xml" "$stage/files/conf/"
    for jar in "$SPICE_ROOT"/nsapi-like-module/tomcat/target/spice-tomcat-valve-*.jar "$SPICE_ROOT"/page/target/spice-page-*.jar; do
        if [ -n "$javax" ]; then to_javax "$jar" "$stage/files/lib/$(basename "$jar")"; else cp "$jar" "$stage/files/lib/"; fi
    done
    if [ -n "$javax" ]; then to_javax "$SPICE_WAR" "$stage/files/webapps/spice.war"; else cp "$SPICE_WAR" "$stage/files/webapps/"; fi
}

bundle_jetty() {
    local stage=$1 files="$1/files"
    bundle_programs "$stage"
    mkdir -p "$files"/{modules,etc,webapps,lib/spice,lib/spice-ssi,spice/ssi-webapp/WEB-INF/lib}
    # Every SPICE module but the static fileset, which serves a directory of this machine's.
    find "$SPICE_ROOT/conf/jetty/modules" -name 'spice-*.mod' ! -name 'spice-fileset.mod' -exec cp {} "$files/modules/" \;
    find "$SPICE_ROOT/conf/jetty/etc" -name 'spice-*.xml' ! -name 'spice-fileset.xml' -exec cp {} "$files/etc/" \;
    cp "$SPICE_ROOT"/conf/jetty/webapps/{spice,spice-shtml}.xml "$files/webapps/"
    cp "$SPICE_ROOT"/nsapi-like-module/jetty/target/spice-jetty-handler-*.jar "$SPICE_ROOT"/page/target/spice-page-*.jar "$files/lib/spice/"
    cp "$SPICE_ROOT"/tomcat-ssi/target/spice-tomcat-ssi-*.jar "$SPICE_ROOT"/server/target/lib/tomcat-embed-core-*.jar "$files/lib/spice-ssi/"
    cp "$SPICE_WAR" "$files/spice/"
    sed '/tomcat-only:begin/,/tomcat-only:end/d' "$SPICE_ROOT/webapp/src/main/webapp/WEB-INF/web.xml" > "$files/spice/spice-web.xml"
    cp "$SPICE_ROOT/conf/jetty/ssi-webapp/WEB-INF/web.xml" "$files/spice/ssi-webapp/WEB-INF/"
    cp "$SPICE_ROOT"/shtml/target/spice-shtml-*.jar "$files/spice/ssi-webapp/WEB-INF/lib/"
    cp "$SPICE_ROOT/shtml/target/generated-webapp/shtml/spice.shtml" "$files/spice/ssi-webapp/"
}

bundle_one() {
    local name=$1 out=$2 base stage
    base="spice-$name-$(project_version)"
    stage="$SPICE_ROOT/target/bundle/$base"
    rm -rf "$stage"
    mkdir -p "$stage"
    case "$name" in
        tomcat9) bundle_common "$name" "$stage" tomcat; bundle_tomcat "$stage" javax ;;
        *) bundle_common "$name" "$stage" "$name"; "bundle_$name" "$stage" ;;
    esac
    mkdir -p "$out"
    tar -czf "$out/$base.tar.gz" -C "$(dirname "$stage")" --owner=0 --group=0 "$base"
    echo "$out/$base.tar.gz"
}

# scripts/spice bundle: NAMES into OUT, as the harness parsed the command line (BundleCommand).
# shellcheck disable=SC2154  # its variables are the parsed command line's (shell_args)
bundle_main() {
    local name
    out=$(mkdir -p "${out:-$SPICE_ROOT/dist}" && cd "${out:-$SPICE_ROOT/dist}" && pwd)
    build_if_missing
    static_programs
    for name in "${names[@]}"; do
        bundle_one "$name" "$out"
    done
}
