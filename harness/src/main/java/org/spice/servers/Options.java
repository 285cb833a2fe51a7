package org.spice.servers;

import java.util.List;

import org.spice.bench.model.Server;

/**
 * How a server is started: the address it listens on, whether it logs every request, httpd's MPM, Tomcat's and Jetty's
 * request threads, nginx's workers. {@code scripts/spice server start} takes them as options; a bench starts its servers
 * with the environment's ({@link #fromEnvironment()}), and a variant ({@code apache-prefork}) with its own start option.
 *
 * @param listen    the address of the server's own ports (what runs beside it stays on 127.0.0.1)
 * @param accessLog whether every request is logged
 * @param mpm       event or prefork
 * @param threads   platform or virtual
 * @param workers   auto or a number of nginx worker processes
 */
public record Options(String listen, boolean accessLog, String mpm, String threads, String workers) {

    /**
     * The options a start takes where none are given: the environment's (SPICE_LISTEN, SPICE_MPM, ...), else the
     * defaults (an empty variable too, as the shell's ${VAR:-default}).
     */
    public static Options fromEnvironment() {
        return new Options(env("SPICE_LISTEN", "127.0.0.1"), "on".equals(env("SPICE_ACCESS_LOG", "off")),
                env("SPICE_MPM", "event"), env("SPICE_THREADS", "platform"), env("SPICE_NGINX_WORKERS", "auto"));
    }

    /** The value of the environment variable NAME, or {@code otherwise} where it is unset or empty. */
    public static String env(String name, String otherwise) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? otherwise : value;
    }

    /**
     * What is wrong with these options for a start of {@code server} (its base, as a variant's options are already
     * in them), in words; null where nothing. The address is checked by the command that takes it.
     */
    public String problem(Server server) {
        if (!List.of("event", "prefork").contains(mpm)) {
            return "--mpm takes event or prefork, not \"" + mpm + "\"";
        }
        if (!List.of("platform", "virtual").contains(threads)) {
            return "--threads takes platform or virtual, not \"" + threads + "\"";
        }
        if (threads.equals("virtual") && (server == null || (server.base() != Server.TOMCAT
                && server.base() != Server.JETTY))) {
            return "--threads virtual goes with tomcat or jetty (the servers whose request threads are Java's)";
        }
        if (!workers.matches("auto|[1-9][0-9]{0,2}")) {
            return "--workers takes auto or a number of nginx worker processes (1-999), not \"" + workers + "\"";
        }
        return null;
    }

    /** These options for {@code server}: a variant's start option ({@code --mpm=prefork}) in place of its own. */
    public Options forServer(Server server) {
        String option = server.startOption().orElse("");
        String value = option.substring(option.indexOf('=') + 1);
        if (option.startsWith("--mpm=")) {
            return new Options(listen, accessLog, value, threads, workers);
        }
        if (option.startsWith("--threads=")) {
            return new Options(listen, accessLog, mpm, value, workers);
        }
        return this;
    }

    /** The row of the server table a start of {@code base} with these options is: apache on prefork is apache-prefork. */
    public Server row(Server base) {
        for (Server each : Server.values()) {
            if (each.base() == base && each != base && forServer(each).equals(this)) {
                return each;
            }
        }
        return base;
    }

    /** The address a client here reaches the server at: 127.0.0.1 for a server on every address. */
    public String localAddress() {
        return listen.equals("0.0.0.0") ? "127.0.0.1" : listen;
    }
}
