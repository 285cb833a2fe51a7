# README.md's "Deploying the probes onto your own server", run as printed: its lines for the server's machine in a
# second machine made here (a network namespace with an address of its own, and a mount namespace whose /etc, /opt
# and /var are overlays of this machine's and whose /run is empty: Debian's own httpd, with its own configuration,
# installed into and started there, nothing written to this machine's), its lines for the client here. Only the
# placeholders are filled in (VERSION, SERVER, SPICE: this checkout; METRICS: what the agent printed) and, where
# SPICE_README_BENCH_OPTIONS is set (the suite, for its time), options added to bench. bench must end with the CPU
# table, every probe's CPU from httpd's cgroup. Then the agent stops, the bundle uninstalls, /etc/apache2 is as it
# was, and the machine goes. Sourced by stock.sh after twohosts.sh (scripts/spice test-bundles readme).
# shellcheck shell=bash

README_SERVER=10.213.97.2
README_CLIENT=10.213.97.1

# Whether the second machine can be made here: root, ip netns, unshare and nsenter, overlayfs, Debian's httpd, sudo.
readme_possible() {
    [ "$(id -u)" -eq 0 ] && command -v ip >/dev/null 2>&1 && ip netns list >/dev/null 2>&1 \
        && command -v unshare >/dev/null 2>&1 && command -v nsenter >/dev/null 2>&1 && command -v sudo >/dev/null 2>&1 \
        && command -v apache2ctl >/dev/null 2>&1 && grep -qw overlay /proc/filesystems && [ -d /opt ]
}

# The README's deploy block, comments and blank lines dropped, placeholders filled in: one line per command, each
# prefixed "server " or "client " by the comment it follows ("# on the server's machine", "# on the client").
readme_deploy_lines() {
    local version=$1 spice=$2
    awk '/^## Deploying the probes onto your own server/ { inside = 1; next }
         inside && /^```/ { if (block) exit; block = 1; next }
         inside && block { print }' "$SPICE_ROOT/README.md" \
        | awk '/^# on the server/ { side = "server"; next } /^# on the client/ { side = "client"; next }
               /^#/ || /^[[:space:]]*$/ { next }
               { sub(/[[:space:]]+#.*$/, ""); print (side == "" ? "client" : side) " " $0 }' \
        | sed -e "s|\bVERSION\b|$version|g" -e "s|\bSERVER\b|$README_SERVER|g" -e "s|\bSPICE\b|$spice|g"
}

# The second machine: a network namespace linked to this one, and a process holding a mount namespace in it whose
# /etc, /opt and /var are overlays (their upper layers in ROOT's tmpfs) and whose /run is its own; prints its PID.
readme_machine() {
    local root=$1 ns=$2 link=$3 holder
    two_hosts_link "$ns" "$link" "$README_CLIENT" "$README_SERVER" || return 1
    nsenter --net="/run/netns/$ns" unshare --mount --propagation private sleep 100000 >/dev/null 2>&1 &
    holder=$!
    echo "$holder" > "$root/machine.pid"
    sleep 0.2
    nsenter -t "$holder" -m -- sh -ec "mount -t tmpfs spice-machine '$root/layers'
        for dir in etc opt var; do
            mkdir -p '$root/layers/'\$dir/upper '$root/layers/'\$dir/work
            mount -t overlay overlay -o lowerdir=/\$dir,upperdir='$root/layers/'\$dir/upper,workdir='$root/layers/'\$dir/work /\$dir
        done
        mount -t tmpfs -o mode=755 spice-run /run && mkdir -p /run/lock && chmod 1777 /run/lock" || return 1
    echo "$holder"
}

# COMMAND run on the second machine (its network and its files), as root.
readme_on_server() {
    local holder=$1
    shift
    nsenter -t "$holder" -m -n -- "$@"
}

# The README's path, in ROOT. Returns non-zero where a line fails or bench's results are not what it promises.
readme_run() {
    local root=$1 ns=$2 link=$3 version spice=$SPICE_ROOT holder side line out metrics results
    version=$(project_version)
    mkdir -p "$root/layers" "$root/server"
    holder=$(readme_machine "$root" "$ns" "$link") || { echo "readme: cannot make the server's machine" >&2; return 1; }
    : > "$root/server.sh"
    : > "$root/client.sh"
    while read -r side line; do
        echo "$line" >> "$root/$side.sh"
    done < <(readme_deploy_lines "$version" "$spice")
    grep -q . "$root/server.sh" && grep -q . "$root/client.sh" \
        || { echo "readme: README.md's deploy block has no server or no client lines" >&2; return 1; }
    # the client's first lines build the bundle; then it goes to the server's machine, and the server's lines run
    local build
    build=$(grep -m1 'scripts/spice bundle' "$root/client.sh")
    echo "readme: here: $build" >&2
    (cd "$SPICE_ROOT" && bash -ec "$build") >&2 || return 1
    grep -v -F -x "$build" "$root/client.sh" > "$root/client-rest.sh"
    cp "$SPICE_ROOT/dist/spice-apache-$version.tar.gz" "$root/server/"
    sed 's/^/readme: on the server: /' "$root/server.sh" >&2
    readme_on_server "$holder" bash -ec "cd '$root/server'; $(cat "$root/server.sh")" > "$root/server.log" 2>&1 \
        || { tail -30 "$root/server.log" >&2; echo "readme: a line for the server's machine failed" >&2; return 1; }
    metrics=$(sed -n 's/^--server-metrics //p' "$root/server.log" | tail -1)
    [ -n "$metrics" ] || { tail -20 "$root/server.log" >&2; echo "readme: metrics-agent start printed no --server-metrics" >&2; return 1; }
    sed -i -e "s|\bMETRICS\b|$metrics|g" "$root/client-rest.sh"
    [ -z "${SPICE_README_BENCH_OPTIONS-}" ] || sed -i "/scripts\/spice bench /s|\$| $SPICE_README_BENCH_OPTIONS|" "$root/client-rest.sh"
    sed 's/^/readme: here: /' "$root/client-rest.sh" >&2
    out="$root/client.log"
    # the client's answer as it comes (by hand, bench takes minutes), its stdout kept for the checks
    (cd "$SPICE_ROOT" && bash -ec "$(cat "$root/client-rest.sh")") | tee "$out" >&2
    [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "readme: a line for the client failed" >&2; return 1; }
    results=$(sed -n 's/^results: //p' "$out" | tail -1)
    [ -f "$results/results.json" ] || { echo "readme: bench named no results" >&2; return 1; }
    readme_check "$results" "$out" || return 1
    readme_on_server "$holder" bash "$spice/scripts/spice" metrics-agent stop >&2 \
        && readme_on_server "$holder" sh -ec "/opt/spice/apache/bin/spice-helpers stop; apache2ctl stop
            cd '$root/server/spice-apache-$version' && ./install.sh --uninstall" >&2 || return 1
    readme_unchanged "$holder" "$root" || return 1
}

# After --uninstall, /etc/apache2 on the server's machine is this machine's byte for byte, and /opt/spice is gone.
readme_unchanged() {
    local holder=$1 root=$2
    readme_on_server "$holder" sh -c "[ ! -e /opt/spice/apache/installed.manifest ]" \
        || { echo "readme: --uninstall left /opt/spice/apache/installed.manifest" >&2; return 1; }
    tree_state /etc/apache2 > "$root/apache2.here"
    readme_on_server "$holder" bash -c "$(declare -f tree_state); tree_state /etc/apache2" > "$root/apache2.there"
    diff "$root/apache2.here" "$root/apache2.there" >&2 \
        || { echo "readme: /etc/apache2 differs after --uninstall" >&2; return 1; }
}

# bench's answer against what the README says: it ends with the CPU table, every probe's CPU from httpd's cgroup
# through the agent (CGI's above all, and the static file's, which every ratio is to), every probe's ratio to the
# static file with an interval.
readme_check() {
    local results=$1 out=$2
    harness check-results "$results" --label readme --probes static,cgi || return 1
    tail -25 "$out" | grep -q "CPU" || { echo "readme: bench's answer does not end with the CPU table" >&2; return 1; }
}

# Makes the second machine, runs the README's path, and removes everything it made whatever happened.
stock_readme() {
    local root ns="spice-server-$$" link="sprd$(($$ % 10000))" result=0 holder
    root=$(mktemp -d "${TMPDIR:-/tmp}/spice-readme.XXXXXX")
    chmod 755 "$root"
    readme_run "$root" "$ns" "$link" || result=1
    holder=$(cat "$root/machine.pid" 2>/dev/null || true)
    if [ -n "$holder" ] && kill -0 "$holder" 2>/dev/null; then
        readme_on_server "$holder" sh -c "bash '$SPICE_ROOT/scripts/spice' metrics-agent stop >/dev/null 2>&1
            [ ! -x /opt/spice/apache/bin/spice-helpers ] || /opt/spice/apache/bin/spice-helpers stop >/dev/null 2>&1
            apache2ctl stop >/dev/null 2>&1" || true
    fi
    local left waited
    for ((waited = 0; waited < 100; waited++)); do   # httpd -k stop returns before its children have gone
        left=$(ip netns pids "$ns" 2>/dev/null | grep -vx "${holder:-none}" | alive_only || true)
        [ -n "$left" ] || break
        sleep 0.1
    done
    if [ -n "$left" ]; then
        echo "readme: processes left on the server's machine:" >&2
        ps -o pid=,args= -p "$(echo "$left" | paste -sd, -)" >&2 || true
        echo "$left" | xargs -r kill -KILL 2>/dev/null
        result=1
    fi
    [ -z "$holder" ] || kill -KILL "$holder" 2>/dev/null || true
    ip link del "$link" 2>/dev/null || true
    ip netns del "$ns" 2>/dev/null || true
    rm -rf "$root"
    return "$result"
}
