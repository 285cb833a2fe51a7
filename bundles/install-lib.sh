# What every SPICE bundle's install.sh does the same way, whatever the server: the common options, a plan of
# the files to write that is checked whole before anything is written, a manifest of what was written, and
# --uninstall from that manifest. Sourced by install.sh (bundles/SERVER/install.sh), which defines:
#   bundle_usage              its own options, for --help
#   bundle_option NAME VALUE  takes one of its own options (every one has a value); 1 if NAME is not one
#   bundle_defaults           fills in what the options left unset, from --prefix; sets MANIFEST
#   bundle_files              names every file it installs, with put_file / put_text / put_link (never in a pipeline)
#   bundle_after              prints what is left to do: enable, restart, verify from the client
#   bundle_before_uninstall   (optional) stops what the bundle runs beside the server (stop_helpers)
# shellcheck shell=bash
set -euo pipefail

BUNDLE_DIR=$(cd "$(dirname "$0")" && pwd)
# BUNDLE_SERVER and BUNDLE_VERSION: which bundle this is, written by scripts/spice bundle.
# shellcheck source=/dev/null
source "$BUNDLE_DIR/bundle.env"
DRY_RUN=no
UNINSTALL=no
# shellcheck disable=SC2034  # read by each install.sh, which sources this
PREFIX=""
PHASE=check
CONFLICTS=()
WRITTEN=()
# The runtime probes install.sh serves here (its bundle_defaults fills it: none for Tomcat and Jetty's bundles).
RUNTIME_PROBES=()
# The Python that runs the asgi probes' servers: --asgi-python (httpd's and nginx's bundles), else find_runtimes's.
ASGI_PYTHON=""

say() { echo "spice-$BUNDLE_SERVER: $*"; }
fail() { echo "spice-$BUNDLE_SERVER install: $*" >&2; exit 1; }

usage() {
    cat <<USAGE
usage: ./install.sh [--dry-run] [--uninstall] [--prefix DIR] [options]
  installs the SPICE probes for $BUNDLE_SERVER; run it again to update, --uninstall to remove what it wrote
  --dry-run     print what it would write or remove, and write nothing
  --uninstall   remove every file it wrote (a file changed since is kept, and named)
USAGE
    bundle_usage
}

# shellcheck disable=SC2034  # PREFIX is read by each install.sh, which sources this
parse_options() {
    while [ $# -gt 0 ]; do
        case "$1" in
            -h|--help) usage; exit 0 ;;
            --dry-run) DRY_RUN=yes; shift ;;
            --uninstall) UNINSTALL=yes; shift ;;
            --prefix) PREFIX=${2:?--prefix needs a directory}; shift 2 ;;
            --*=*) parse_options "${1%%=*}" "${1#*=}"; shift ;;
            --*)
                [ $# -ge 2 ] || { usage >&2; fail "$1 needs a value"; }
                bundle_option "${1#--}" "$2" || { usage >&2; echo "spice-$BUNDLE_SERVER install: unknown option $1" >&2; exit 2; }
                shift 2 ;;
            *) usage >&2; echo "spice-$BUNDLE_SERVER install: unexpected argument $1" >&2; exit 2 ;;
        esac
    done
}

# Whether the manifest of the last install lists PATH (so this installer wrote it and may replace it).
ours() {
    [ -f "$MANIFEST" ] && awk -F'\t' -v p="$1" '$2 == p { found = 1 } END { exit !found }' "$MANIFEST"
}

# put_file SOURCE DEST MODE: DEST gets SOURCE's bytes. Checked first (PHASE=check): a DEST that exists with
# other bytes and that this installer did not write is a conflict, and nothing at all is written.
put_file() {
    local source=$1 dest=$2 mode=$3
    if [ "$PHASE" = check ]; then
        if [ -e "$dest" ] || [ -L "$dest" ]; then
            if [ -L "$dest" ] || ! cmp -s "$source" "$dest"; then
                ours "$dest" || CONFLICTS+=("$dest")
            fi
        fi
        [ "$DRY_RUN" = no ] || say "would write $dest"
        return 0
    fi
    make_dirs "$(dirname "$dest")"
    if [ -f "$dest" ] && ! [ -L "$dest" ] && cmp -s "$source" "$dest"; then
        chmod "$mode" "$dest"
        say "unchanged $dest"
    else
        local was=wrote
        [ -e "$dest" ] && was=updated
        rm -f "$dest"
        install -m "$mode" "$source" "$dest"
        say "$was $dest"
    fi
    WRITTEN+=("file	$dest	$(sha256sum "$dest" | cut -d' ' -f1)")
}

# put_text DEST MODE COMMAND...: DEST gets what COMMAND prints (run here, not in a pipeline, whose subshell
# would lose what put_file records).
put_text() {
    local dest=$1 mode=$2 text="$WORK/text"
    shift 2
    "$@" > "$text"
    put_file "$text" "$dest" "$mode"
}

# put_link TARGET DEST: DEST becomes a symbolic link to TARGET (what a2enconf and a2enmod make).
put_link() {
    local target=$1 dest=$2
    if [ "$PHASE" = check ]; then
        if [ -e "$dest" ] || [ -L "$dest" ]; then
            [ "$(readlink "$dest")" = "$target" ] || ours "$dest" || CONFLICTS+=("$dest")
        fi
        [ "$DRY_RUN" = no ] || say "would link $dest -> $target"
        return 0
    fi
    make_dirs "$(dirname "$dest")"
    if [ "$(readlink "$dest" 2>/dev/null)" = "$target" ]; then
        say "unchanged $dest -> $target"
    else
        rm -f "$dest"
        ln -s "$target" "$dest"
        say "linked $dest -> $target"
    fi
    WRITTEN+=("link	$dest	$target")
}

# Makes DIR and its missing parents, recording each one it made, so that --uninstall removes them again.
make_dirs() {
    local dir=$1 missing=()
    while [ ! -d "$dir" ]; do
        missing=("$dir" "${missing[@]}")
        dir=$(dirname "$dir")
    done
    for dir in "${missing[@]}"; do
        mkdir "$dir"
        WRITTEN+=("dir	$dir	-")
    done
}

# The probe programs that run beside the server and their control script, bin/spice-helpers, under SPICE_DIR;
# FCGIWRAP_SOCKET is empty where the server has CGI of its own or an fcgiwrap service runs already.
put_helpers() {
    put_file "$BUNDLE_DIR/files/bin/spice-fcgi" "$SPICE_DIR/bin/spice-fcgi" 755
    put_file "$BUNDLE_DIR/files/bin/spice-helpers" "$SPICE_DIR/bin/spice-helpers" 755
    # %q: spice-helpers sources the file, and a path may hold a space
    put_text "$SPICE_DIR/etc/helpers.env" 644 printf \
        'FCGI_PORT=%q\nFCGIWRAP_SOCKET=%q\nRUN_DIR=%q\nSERVICE_USER=%q\nPHP_FPM=%q\nUWSGI=%q\nNODE=%q\nASGI_PYTHON=%q\nWASM=%q\n' \
        "$FCGI_PORT" "$1" "$SPICE_DIR/run" "$SERVICE_USER" "${PHP_FPM:-}" "${UWSGI:-}" "${NODE:-}" "${ASGI_PYTHON:-}" \
        "$(has_runtime wasm && echo yes || true)"
}

# The language runtimes this machine has for the runtime probes, each empty where it is missing, with the reason in
# SKIPPED: PHP_FPM (a php-fpm binary, with the opcache), UWSGI (uwsgi with its python3 plugin), NODE (Node.js),
# ASGI_PYTHON (a Python that the service user can run and that imports uvicorn and granian: --asgi-python, else
# /opt/spice/asgi's, which scripts/spice server install makes).
find_runtimes() {
    local fpm plugins=/usr/lib/uwsgi/plugins
    SKIPPED=()
    fpm=$(command -v php-fpm 2>/dev/null || find /usr/sbin -maxdepth 1 -name 'php-fpm*' -print 2>/dev/null | sort | tail -1)
    PHP_FPM=""
    if [ -z "$fpm" ]; then
        SKIPPED+=("php-fpm: no php-fpm here (apt-get install php-fpm)")
    elif [ -z "$(find /usr/lib/php -name opcache.so -print -quit 2>/dev/null)" ]; then
        SKIPPED+=("php-fpm: PHP has no opcache here (apt-get install php-opcache)")
    else
        PHP_FPM=$fpm
    fi
    UWSGI=$(command -v uwsgi-core 2>/dev/null || command -v uwsgi 2>/dev/null || true)
    if [ -z "$UWSGI" ]; then
        SKIPPED+=("wsgi: no uWSGI here (apt-get install uwsgi-core uwsgi-plugin-python3)")
    elif [ ! -f "$plugins/python3_plugin.so" ]; then
        SKIPPED+=("wsgi: uWSGI has no python3 plugin here (apt-get install uwsgi-plugin-python3)")
        UWSGI=""
    fi
    NODE=$(command -v node 2>/dev/null || command -v nodejs 2>/dev/null || true)
    [ -n "$NODE" ] || SKIPPED+=("node: no Node.js here (apt-get install nodejs)")
    local as_user=()
    # as spice-helpers will run it: as the service user when root (a Python under /root would pass as root, not there)
    [ "$(id -u)" -ne 0 ] || ! id "$SERVICE_USER" >/dev/null 2>&1 \
        || as_user=(setpriv "--reuid=$SERVICE_USER" "--regid=$SERVICE_USER" --clear-groups --)
    # absolute, its links kept: a virtual environment is known by the path its python is run by
    ASGI_PYTHON=$(realpath -s -- "${ASGI_PYTHON:-/opt/spice/asgi/bin/python}")
    if [ -z "$ASGI_PYTHON" ] || ! "${as_user[@]}" "$ASGI_PYTHON" -c 'import uvicorn, granian, uvloop, httptools' 2>/dev/null; then
        SKIPPED+=("asgi-uvicorn, asgi-granian: no Python with uvicorn and granian that ${SERVICE_USER:-this user} can run" \
            "at ${ASGI_PYTHON:-/opt/spice/asgi/bin/python} (/usr/bin/python3 -m venv /opt/spice/asgi &&" \
            "/opt/spice/asgi/bin/pip install -r $BUNDLE_DIR/files/runtimes/asgi/requirements.txt, then install again;" \
            "or --asgi-python PATH)")
        ASGI_PYTHON=""
    fi
}

# Whether the runtime probe NAME is among those install.sh serves here (RUNTIME_PROBES, set by its bundle_defaults).
has_runtime() {
    [[ " ${RUNTIME_PROBES[*]} " == *" $1 "* ]]
}

# The runtime probes served here, each after a comma: the tail of the verify line install.sh prints. Some runtimes
# serve two probes: the WebAssembly host (wasm, wasm-kept), the ASGI Python (asgi-uvicorn, asgi-granian) and, behind
# nginx, uWSGI (wsgi, and wsgi-http through its http-socket).
runtime_probe_list() {
    local runtime
    for runtime in "${RUNTIME_PROBES[@]}"; do
        case "$runtime" in
            wasm) printf ',wasm,wasm-kept' ;;
            asgi) printf ',asgi-uvicorn,asgi-granian' ;;
            wsgi) printf ',wsgi'; [ "$BUNDLE_SERVER" != nginx ] || printf ',wsgi-http' ;;
            *) printf ',%s' "$runtime" ;;
        esac
    done
}

# The runtime probes the runtimes found here serve, beside those a bundle finds itself (its modules): node, asgi, and
# wasm, whose host and modules the bundle carries.
add_found_runtimes() {
    [ -z "$PHP_FPM" ] || RUNTIME_PROBES+=(php-fpm)
    [ -z "$NODE" ] || RUNTIME_PROBES+=(node)
    [ -z "$ASGI_PYTHON" ] || RUNTIME_PROBES+=(asgi)
    RUNTIME_PROBES+=(wasm)
}

# The runtime probes' scripts and programs, and the settings of the pool, uWSGI and the ASGI servers, under SPICE_DIR.
put_runtimes() {
    local file
    for file in php/spice.php wsgi/spice.wsgi lua/spice_httpd.lua lua/spice_nginx.lua node/spice.mjs asgi/spice_asgi.py \
        asgi/requirements.txt; do
        put_file "$BUNDLE_DIR/files/runtimes/$file" "$SPICE_DIR/runtimes/$file" 644
    done
    put_file "$BUNDLE_DIR/files/conf/php/php.ini" "$SPICE_DIR/conf/php/php.ini" 644
    put_file "$BUNDLE_DIR/files/conf/php/php-fpm.conf" "$SPICE_DIR/conf/php/php-fpm.conf" 644
    put_file "$BUNDLE_DIR/files/conf/uwsgi/spice.ini" "$SPICE_DIR/conf/uwsgi/spice.ini" 644
    put_file "$BUNDLE_DIR/files/conf/asgi/uvicorn.args" "$SPICE_DIR/conf/asgi/uvicorn.args" 644
    put_file "$BUNDLE_DIR/files/conf/asgi/granian.args" "$SPICE_DIR/conf/asgi/granian.args" 644
    put_file "$BUNDLE_DIR/files/bin/spice-wasm" "$SPICE_DIR/bin/spice-wasm" 755
    put_file "$BUNDLE_DIR/files/lib/spice.wasm" "$SPICE_DIR/lib/spice.wasm" 644
    put_file "$BUNDLE_DIR/files/lib/spice-kept.wasm" "$SPICE_DIR/lib/spice-kept.wasm" 644
}

# For the servers without CGI of their own (nginx, Jetty): FCGIWRAP_SOCKET as given; else Debian's fcgiwrap service
# socket where it exists; else one spice-helpers runs under SPICE_DIR/run, and OWN_FCGIWRAP says so.
choose_fcgiwrap_socket() {
    OWN_FCGIWRAP=""
    if [ -z "$FCGIWRAP_SOCKET" ]; then
        if [ -S /run/fcgiwrap.socket ]; then FCGIWRAP_SOCKET=/run/fcgiwrap.socket; else OWN_FCGIWRAP=yes; fi
    fi
    [ -z "$OWN_FCGIWRAP" ] || FCGIWRAP_SOCKET="$SPICE_DIR/run/fcgiwrap.sock"
}

# Before --uninstall: what spice-helpers runs is stopped, and its run directory (PID files, logs) removed.
stop_helpers() {
    [ -x "$SPICE_DIR/bin/spice-helpers" ] && "$SPICE_DIR/bin/spice-helpers" stop || true
    rm -rf "$SPICE_DIR/run"
}

# prebuilt_or_build DIR SYSTEM FILE BUILD COMMAND...: DIR/prebuilt/FILE where SYSTEM is the one in
# DIR/prebuilt/BUILT-ON and BUILD is not yes; else, unless BUILD is no, COMMAND... OUT builds FILE into a new OUT.
prebuilt_or_build() {
    local dir=$1 system=$2 file=$3 build=$4 out
    shift 4
    if [ "$build" != yes ] && [ "$system" = "$(cat "$dir/prebuilt/BUILT-ON")" ]; then
        echo "$dir/prebuilt/$file"
        return 0
    fi
    [ "$build" != no ] || fail "the prebuilt $file is for $(cat "$dir/prebuilt/BUILT-ON"), this is $system: allow --build-module"
    out="$WORK/build-$file"
    mkdir -p "$out"
    "$@" "$out" >&2 || fail "building $file failed"
    echo "$out/$file"
}

# "ID VERSION_ID" of this system, as the prebuilt modules' BUILT-ON says it.
this_system() {
    (. /etc/os-release 2>/dev/null && echo "$ID $VERSION_ID")
}

do_install() {
    PHASE=check
    bundle_files
    if [ ${#CONFLICTS[@]} -gt 0 ]; then
        printf '  %s\n' "${CONFLICTS[@]}" >&2
        fail "these files exist and were not written by this installer: nothing was written (move them away, or choose another --prefix)"
    fi
    if [ "$DRY_RUN" = yes ]; then
        say "dry run: nothing was written"
        return 0
    fi
    PHASE=apply
    bundle_files
    # The directories an earlier install made stay recorded; a file it wrote that this one no longer does is removed.
    local old=()
    [ -f "$MANIFEST" ] && mapfile -t old < "$MANIFEST"
    local entry
    for entry in "${old[@]}"; do
        case "$entry" in
            dir*) WRITTEN+=("$entry") ;;
            file*|link*)
                printf '%s\n' "${WRITTEN[@]}" | cut -f2 | grep -qxF "$(cut -f2 <<< "$entry")" || remove_entry "$entry" ;;
        esac
    done
    make_dirs "$(dirname "$MANIFEST")"
    printf '%s\n' "${WRITTEN[@]}" | awk '!seen[$0]++' > "$MANIFEST"
    say "manifest $MANIFEST (./install.sh --uninstall removes all of it)"
    bundle_after
}

# Removes one manifest entry: a file only if it still has the bytes written, a link only if it still points there.
remove_entry() {
    local kind path what
    IFS=$'\t' read -r kind path what <<< "$1"
    case "$kind" in
        file)
            [ -f "$path" ] || return 0
            if [ "$(sha256sum "$path" | cut -d' ' -f1)" = "$what" ]; then
                [ "$DRY_RUN" = yes ] && { say "would remove $path"; return 0; }
                rm -f "$path" && say "removed $path"
            else
                say "kept $path: it changed since it was installed"
            fi ;;
        link)
            [ "$(readlink "$path" 2>/dev/null)" = "$what" ] || return 0
            [ "$DRY_RUN" = yes ] && { say "would remove $path"; return 0; }
            rm -f "$path" && say "removed $path" ;;
    esac
}

do_uninstall() {
    [ -f "$MANIFEST" ] || { say "nothing to uninstall: no $MANIFEST"; return 0; }
    if [ "$DRY_RUN" = no ] && declare -F bundle_before_uninstall >/dev/null; then
        bundle_before_uninstall
    fi
    local entries entry
    mapfile -t entries < "$MANIFEST"
    for entry in "${entries[@]}"; do
        remove_entry "$entry"
    done
    [ "$DRY_RUN" = yes ] && { say "dry run: nothing was removed"; return 0; }
    rm -f "$MANIFEST"
    # The directories it made, deepest first, where they are empty now.
    printf '%s\n' "${entries[@]}" | awk -F'\t' '$1 == "dir" { print length($2) "\t" $2 }' | sort -rn | cut -f2 |
        while read -r dir; do
            rmdir "$dir" 2>/dev/null && say "removed $dir/" || true
        done
    say "uninstalled"
}

main() {
    # Scratch space (a module built here) for this run only.
    WORK=$(mktemp -d)
    trap 'rm -rf "$WORK"' EXIT
    parse_options "$@"
    bundle_defaults
    if [ "$UNINSTALL" = yes ]; then do_uninstall; else do_install; fi
}
