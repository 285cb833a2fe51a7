# scripts/spice compare-tools URL [SECONDS [ROUNDS [CLIENTS...]]]: SPICE's engine, wrk, ab, h2load and JMeter
# on the same static URL, one after the other for the same time, each turned into SPICE results the same
# way (bench for the engine and JMeter, scripts/spice import for the others), then one comparison with a
# column per tool (results/tools-<time>/compare.html). The table printed as it goes adds each tool's whole
# process CPU per request (user + system from /usr/bin/time, start-up included).
# shellcheck shell=bash

compare_tools() {
    local url=$1 seconds=${2:-10} rounds=${3:-1}
    shift 3 || true
    local clients=("$@")
    [ ${#clients[@]} -gt 0 ] || clients=(8)
    [[ "$url" == http://*/spice/* ]] || usage_error "compare-tools: give a probe URL, e.g. http://127.0.0.1:PORT/spice/static/spice.html"
    command -v wrk >/dev/null 2>&1 || die "wrk is not installed: apt-get install wrk"
    command -v ab >/dev/null 2>&1 || die "ab is not installed: apt-get install apache2-utils"
    command -v h2load >/dev/null 2>&1 || die "h2load is not installed: apt-get install nghttp2-client"
    [ -x /usr/bin/time ] || die "/usr/bin/time is not installed: apt-get install time"
    source "$SPICE_ROOT/scripts/lib/jmeter.sh"
    jmeter_build_if_missing
    local base=${url%/spice/*} probe=static out scratch
    out="$SPICE_ROOT/results/tools-$(date +%Y%m%d-%H%M%S)"
    scratch=$(mktemp -d)
    mkdir -p "$out"
    printf '%-8s %4s %6s %10s %16s\n' tool c round "req/s" "µs/req (process)"
    local c round tool
    for c in "${clients[@]}"; do
        for ((round = 1; round <= rounds; round++)); do
            for tool in engine jmeter; do
                local engine=event-loop
                [ "$tool" = jmeter ] && engine=jmeter
                /usr/bin/time -f "%U %S" -o "$scratch/time" java -jar "$HARNESS_JAR" bench --target "$base" --engine "$engine" \
                    --server "$tool" --probes "$probe" --clients "$c" --ramp-up 1 --duration "$seconds" --ramp-down 0 \
                    --pause 0 --out "$scratch/$tool" > "$scratch/out" 2>&1 || { cat "$scratch/out" >&2; die "compare-tools: $tool failed"; }
                tools_keep "$scratch/$tool" "$out/$tool" "$c"
                tool_row "$tool" "$c" "$round" "$out/$tool" "$scratch/time"
            done
            /usr/bin/time -f "%U %S" -o "$scratch/time" wrk -t1 -c "$c" -d "${seconds}s" -s "$SPICE_ROOT/harness/wrk/wrk-spice.lua" \
                "$url" > "$scratch/wrk.txt" 2>&1
            tools_import wrk "$out" "$c" "$scratch/wrk.txt"
            tool_row wrk "$c" "$round" "$out/wrk" "$scratch/time"
            /usr/bin/time -f "%U %S" -o "$scratch/time" ab -q -c "$c" -t "$seconds" -n 100000000 -g "$scratch/ab.tsv" "$url" \
                > "$scratch/ab.txt" 2>&1
            tools_import ab "$out" "$c" "$scratch/ab.txt" "$scratch/ab.tsv"
            tool_row ab "$c" "$round" "$out/ab" "$scratch/time"
            # h2load keeps its connections open (with "Connection: close" and -D it spins instead of reconnecting),
            # and takes a count: as many requests as wrk managed in the same time.
            h2load_run "$url" "$c" "$(h2load_count "$out/wrk" "$c")" "$scratch/h2load.txt" "$scratch/h2load.log" \
                /usr/bin/time -f "%U %S" -o "$scratch/time" timeout $((seconds * 5 + 30))
            tools_import h2load "$out" "$c" "$scratch/h2load.txt" "$scratch/h2load.log"
            tool_row h2load "$c" "$round" "$out/h2load" "$scratch/time"
        done
    done
    rm -rf "$scratch"
    java -jar "$HARNESS_JAR" compare "$out/engine" "$out/jmeter" "$out/wrk" "$out/ab" "$out/h2load" --out "$out"
}

# h2load --h1 at C clients for N requests, its summary in TEXT and its per-request log in LOG, behind the command
# words that follow (a timer, a timeout). h2load appends to an existing --log-file, so LOG is removed first: reused
# across rounds, it had held 85,069 requests against a summary's 39,836, and the import refused it.
h2load_run() {
    local url=$1 c=$2 n=$3 text=$4 log=$5
    shift 5
    rm -f "$log"
    "$@" h2load --h1 -c "$c" -n "$n" --log-file "$log" "$url" > "$text" 2>&1
}

# As many requests as wrk completed at C clients, at least C.
h2load_count() {
    local n
    n=$(java -jar "$HARNESS_JAR" figure "$1" --probe static --clients "$2" requests 2>/dev/null)
    echo $(( ${n:-0} > $2 ? ${n:-0} : $2 ))
}

# A bench run's results.json kept as the tool's results directory (the newest run under FROM).
tools_keep() {
    local from=$1 to=$2 newest
    # shellcheck disable=SC2012  # bench names its runs by time, with no blank or newline
    newest=$(ls -td "$from"/*/ | head -1)
    mkdir -p "$to"
    cp "$newest/results.json" "$to/results.json"
    java -jar "$HARNESS_JAR" report "$to" > /dev/null
}

# A tool's output imported (the first client count starts its results directory, the next ones join it).
tools_import() {
    local tool=$1 out=$2 c=$3 where=--out
    shift 3
    [ -f "$out/$tool/results.json" ] && where=--into
    java -jar "$HARNESS_JAR" import "$tool" --probe static --clients "$c" --server "$tool" "$where" "$out/$tool" "$@" > /dev/null \
        || echo "compare-tools: $tool's output could not be imported (see $*)" >&2
}

# One row: the rate SPICE computed from the tool's own output, and the tool's whole process CPU (start-up
# included) per request of that rate over the run.
tool_row() {
    local tool=$1 c=$2 round=$3 dir=$4 timefile=$5 rate
    rate=$(java -jar "$HARNESS_JAR" figure "$dir" --probe static --clients "$c" rate_rps 2>/dev/null)
    awk -v t="$tool" -v c="$c" -v r="$round" -v rate="${rate:-0}" -v s="${seconds:-10}" '
        { cpu = $1 + $2 }
        END { n = rate * s; printf "%-8s %4d %6d %10.0f %16.1f\n", t, c, r, rate, (n > 0 ? cpu * 1e6 / n : 0) }' "$timefile"
}
