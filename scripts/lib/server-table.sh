# The server table, read from the harness (org.spice.bench.model.Server) once per process: which servers there are,
# their default ports, the ports of what runs beside them, the probes each serves, and their variants. Sourced by
# server.sh; this file keeps no copy of the table (the harness passes it to launch.sh in SPICE_SERVER_TABLE).
# shellcheck shell=bash

# The server table: a line per server, "NAME DEFAULT_PORT HTTPS_OFFSET BACKEND_OFFSET FASTCGI_OFFSET
# PROBES BENCH_PROBES BASE START_OPTION H2C_OFFSET" ("-" where a server runs no such companion; probes
# comma-separated; H2C_OFFSET 0 where HTTP/2 in clear is on the server's own port). A
# variant (apache-prefork, tomcat-vt) is its BASE started with START_OPTION, in the base's run directory. Read here, once,
# by the shell that sources this file: read lazily, every $(...) and pipeline would start the JVM again.
[ -n "${SPICE_SERVER_TABLE:-}" ] || SPICE_SERVER_TABLE=$(harness servers | grep -E '^[a-z][a-z0-9-]* [0-9]+ ') \
    || die "could not read the server table from the harness"

server_table() {
    echo "$SPICE_SERVER_TABLE"
}

# Field N of NAME's row, or nothing for a server the table does not know.
server_field() {
    server_table | awk -v name="$1" -v field="$2" '$1 == name { print $field }'
}

# The real servers (what "all" means), in the table's order.
real_servers() {
    server_table | awk '$1 != "embedded" && $8 == "-" { print $1 }'
}

server_default_port() {
    server_field "$1" 2
}

# The port of an instance's companion: https, backend (the Tomcat behind it), fastcgi or h2c (HTTP/2 in clear, with
# prior knowledge: the instance's own port for most); nothing if it has none.
companion_port() {
    local name=$1 port=$2 offset
    case "$3" in
        https) offset=$(server_field "$name" 3) ;; backend) offset=$(server_field "$name" 4) ;;
        fastcgi) offset=$(server_field "$name" 5) ;; h2c) offset=$(server_field "$name" 10) ;;
    esac
    [ "${offset:--}" = - ] || echo $((port + offset))
}
