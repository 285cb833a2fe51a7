# The cgroup the metrics agent makes for a server it adopts (--pid-file) on a machine SPICE did not start it on: every
# process the server starts joins it, and the kernel counts their CPU there once, to the microsecond (cgroup v2's
# cpu.stat usage_usec; cgroup v1's cpuacct.usage, in ns); RUN/cgroup holds its path. The servers SPICE starts here get
# theirs from the harness (org.spice.servers.Cgroups), the same way. Sourced by metrics.sh.
# shellcheck shell=bash

# The hierarchy SPICE's cgroups go under: cgroup v2 where the machine has it, else v1's cpuacct; nothing if
# neither is mounted writable.
cgroup_root() {
    local v2 v1
    v2=$(awk '$3 == "cgroup2" {print $2; exit}' /proc/mounts)
    if [ -n "$v2" ] && [ -w "$v2" ]; then
        echo "$v2/spice"
        return
    fi
    v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpuacct(,|$)/ {print $2; exit}' /proc/mounts)
    [ -n "$v1" ] && [ -w "$v1" ] && echo "$v1/spice"
}

# Makes the cgroup of the instance whose run directory is RUN and records it there; prints its path, or
# nothing (and records nothing) where none can be made.
cgroup_make() {
    local run=$1 root group
    root=$(cgroup_root)
    [ -n "$root" ] || return 0
    group="$root/$(basename "$run")"
    cgroup_remove "$run"
    if mkdir -p "$group" 2>/dev/null && { [ -f "$group/cpu.stat" ] || [ -f "$group/cpuacct.usage" ]; }; then
        echo "$group" > "$run/cgroup"
        echo "$group"
    else
        rmdir "$group" 2>/dev/null || true
    fi
}

# The recorded cgroup of RUN, if it still exists.
cgroup_of() {
    local group
    [ -f "$1/cgroup" ] || return 0
    group=$(cat "$1/cgroup")
    [ -d "$group" ] && echo "$group"
}

# Ends what is left in RUN's cgroup (the server was stopped first, by its PID files) and removes it.
cgroup_remove() {
    local run=$1 group pid waited
    group=$(cgroup_of "$run")
    if [ -n "$group" ]; then
        for ((waited = 0; waited < 50; waited++)); do
            [ -n "$(cat "$group/cgroup.procs" 2>/dev/null)" ] || break   # a cgroup file's size is 0: read it
            while read -r pid; do
                kill -KILL "$pid" 2>/dev/null || true
            done < "$group/cgroup.procs"
            sleep 0.1
        done
        rmdir "$group" 2>/dev/null || echo "spice: could not remove the cgroup $group (processes left in it)" >&2
        # SPICE's own parent group too, once no other server of SPICE's is in it
        rmdir "$(dirname "$group")" 2>/dev/null || true
    fi
    rm -f "$run/cgroup"
}
