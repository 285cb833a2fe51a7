# scripts/spice compare-tools: the SPICE engine, wrk and ab on the same static URL, side by side in one
# run, alternating, each for the same time: request rate and the client's CPU per request (user + system
# of the whole tool process, from /usr/bin/time, divided by the requests it completed).
# shellcheck shell=bash

compare_tools() {
    local url=$1 seconds=${2:-10} rounds=${3:-2}
    shift 3 || true
    local clients=("$@")
    [ ${#clients[@]} -gt 0 ] || clients=(8 32)
    command -v wrk >/dev/null 2>&1 || die "wrk is not installed: apt-get install wrk"
    command -v ab >/dev/null 2>&1 || die "ab is not installed: apt-get install apache2-utils"
    [ -x /usr/bin/time ] || die "/usr/bin/time is not installed: apt-get install time"
    local scratch
    scratch=$(mktemp -d)
    printf '%-8s %4s %6s %10s %16s %16s\n' tool c round "req/s" "us/req (process)" "us/req (window)"
    local c round
    for c in "${clients[@]}"; do
        for ((round = 1; round <= rounds; round++)); do
            # The engine: one mix of the static probe, HTTP/1.0, measured window only.
            /usr/bin/time -f "%U %S" -o "$scratch/time" java -jar "$HARNESS_JAR" bench --target "${url%/spice/*}" \
                --probes static --clients "$c" --ramp-up 1 --duration "$seconds" --ramp-down 0 --pause 0 \
                --out "$scratch/results" > "$scratch/out" 2>&1
            tool_row engine "$c" "$round" "$(sed -n 's/.*\] static [0-9]* clients, repeat 1: \([0-9.]*\) req\/s.*/\1/p' "$scratch/out")" \
                "$seconds" "$scratch/time" "$(sed -n 's/.*, \([0-9.]*\) us\/req client.*/\1/p' "$scratch/out")"
            # wrk sends HTTP/1.1: Connection: close gives one connection per request, as HTTP/1.0 does.
            /usr/bin/time -f "%U %S" -o "$scratch/time" wrk -t1 -c "$c" -d "${seconds}s" -H "Connection: close" "$url" > "$scratch/out" 2>&1
            tool_row wrk "$c" "$round" "$(awk '/Requests\/sec/ {print $2}' "$scratch/out")" "$seconds" "$scratch/time"
            /usr/bin/time -f "%U %S" -o "$scratch/time" ab -q -c "$c" -t "$seconds" -n 100000000 "$url" > "$scratch/out" 2>&1
            tool_row ab "$c" "$round" "$(awk '/Requests per second/ {print $4}' "$scratch/out")" "$seconds" "$scratch/time"
        done
    done
    rm -rf "$scratch"
}

# One row: the rate the tool reported; its whole process's CPU (start-up and ramp-up included) per request
# of the window (rate x seconds); for the engine also its own figure, CPU within the measured window only.
tool_row() {
    local tool=$1 c=$2 round=$3 rate=$4 seconds=$5 timefile=$6 window=${7:--}
    awk -v t="$tool" -v c="$c" -v r="$round" -v rate="${rate:-0}" -v s="$seconds" -v w="$window" '
        { cpu = $1 + $2 }
        END { n = rate * s; printf "%-8s %4d %6d %10.0f %16.1f %16s\n", t, c, r, rate, (n > 0 ? cpu * 1e6 / n : 0), w }' "$timefile"
}
