# What the servers' launchers need (launch.sh runs them; the harness's org.spice.servers does the rest of the life
# cycle): the defaults of a start's options, the server table (server-table.sh), Maven (maven.sh), the raw HTTP a
# start waits on (http.sh), the TLS files, what runs beside a server (companions.sh), the cgroup a launch joins, and
# every server's file in servers/. Sourced by launch.sh, and by scripts/spice serve, the bundles and the metrics agent
# for the parts they share.
# shellcheck shell=bash

# shellcheck disable=SC2034  # read by servers/*.sh (the Tomcat and Jetty distributions)
SPICE_CACHE="$SPICE_ROOT/.cache"
# Defaults of a start's options (the harness passes them to launch.sh; scripts/spice serve and the bundles take these).
SPICE_ACCESS_LOG=${SPICE_ACCESS_LOG:-off}
SPICE_MPM=${SPICE_MPM:-event}
SPICE_THREADS=${SPICE_THREADS:-platform}
SPICE_NGINX_WORKERS=${SPICE_NGINX_WORKERS:-auto}
# The address the server listens on (its HTTP and HTTPS ports); what runs beside it (its Tomcat backend, the FastCGI
# program) stays on 127.0.0.1 whatever this is.
SPICE_LISTEN=${SPICE_LISTEN:-127.0.0.1}

# shellcheck source=server-table.sh
source "$SPICE_ROOT/scripts/lib/server-table.sh"
# shellcheck source=maven.sh
source "$SPICE_ROOT/scripts/lib/maven.sh"
# shellcheck source=http.sh
source "$SPICE_ROOT/scripts/lib/http.sh"
# shellcheck source=tls.sh
source "$SPICE_ROOT/scripts/lib/tls.sh"
# shellcheck source=companions.sh
source "$SPICE_ROOT/scripts/lib/companions.sh"
# shellcheck source=cgroup.sh
source "$SPICE_ROOT/scripts/lib/cgroup.sh"

for server_file in "$SPICE_ROOT"/scripts/lib/servers/*.sh; do
    # shellcheck source=/dev/null
    source "$server_file"
done
