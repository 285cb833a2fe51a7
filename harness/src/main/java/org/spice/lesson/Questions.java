package org.spice.lesson;

import java.util.List;

/**
 * The lesson's eleven questions, each with its run: quick (a class's afternoon) or in full (bench's own defaults, as
 * long as they need). Questions that ask of one server share one run: 1, 6 and 11 (nginx's interfaces), 3 and 4 (the
 * embedded server from a fresh start), 2 and 8 (four servers, a connection each and kept). The minutes are what each
 * step took on a 2-core machine with the servers resident (docs/teaching.md), for the plan's estimate.
 */
public final class Questions {

    private static final String EMBEDDED_PROBES = "--probes static,servlet,jsp,shtml,module";
    /** Questions 1, 6 and 11 compare probes of one server: each pair at one load (the slower one's rate). */
    private static final String NGINX_PROBES = "--server nginx --probes static,module,njs,lua,shtml,php-fpm,wsgi,"
            + "asgi-uvicorn,asgi-granian,fastcgi,wasm-kept,wasm,cgi --pairs cgi/fastcgi,php-fpm/lua,wsgi/lua,asgi-uvicorn/wsgi,"
            + "wasm/cgi,wasm-kept/fastcgi";
    private static final String FOUR_SERVERS = "--server nginx,apache,tomcat,jetty --probes static,servlet,module"
            + " --protocols http1.0,keepalive";
    private static final String THREADS = "--server tomcat,tomcat-vt,jetty,jetty-vt --probes static,servlet"
            + " --pairs tomcat/tomcat-vt,jetty/jetty-vt";
    private static final String HTTP2 = "--server tomcat,nginx --probes static,servlet,module"
            + " --protocols keepalive,h2,h2c";
    /**
     * Quick: one client count for the ladder, a short warm-up and rounds bounded in time (side by side, --cpu-time is
     * each server's under each protocol: four servers under two take eight times it).
     */
    private static final String QUICK = " --clients 8 --duration 1 --warm-up 10 --cpu-time ";

    // quick runs long enough for six rounds (an interval) with the slow probes' rate parts: nginx's nine probes took
    // 30 s a round, the four servers under two protocols 50 s (2026-11-28, this 2-core machine); nginx's eleven (the
    // wasm probes added), 33 s a round, six rounds and the whole step in 5 min 0 s; its thirteen (the asgi probes
    // added), 40 s a round, five rounds in 200 s (2026-12-07)
    static final Step NGINX_QUICK = Step.of("nginx-interfaces", List.of("nginx"), 6, "bench " + NGINX_PROBES + QUICK + "270");
    static final Step NGINX_FULL = Step.of("nginx-interfaces", List.of("nginx"), 12, "bench " + NGINX_PROBES + " --clients 8");
    static final Step EMBEDDED_QUICK = Step.of("embedded", List.of("embedded"), 3,
            "bench " + EMBEDDED_PROBES + " --clients 8 --duration 1 --cpu-time 120");
    static final Step EMBEDDED_FULL = Step.of("embedded", List.of("embedded"), 8, "bench " + EMBEDDED_PROBES + " --clients 8");
    static final Step SERVERS_QUICK = Step.of("four-servers", List.of("nginx", "apache", "tomcat", "jetty"), 11,
            "bench " + FOUR_SERVERS + QUICK + "42");
    static final Step SERVERS_FULL = Step.of("four-servers", List.of("nginx", "apache", "tomcat", "jetty"), 20,
            "bench " + FOUR_SERVERS + " --clients 8");
    static final Step SWEEP_QUICK = Step.of("page-sizes", List.of("embedded"), 6,
            "sweep --probes static,shtml,cgi --sizes 1024,6250,16384,65536 --warm-up 20 --duration 1 --cpu-time 60");
    static final Step SWEEP_FULL = Step.of("page-sizes", List.of("embedded"), 25,
            "sweep --probes static,servlet,jsp,shtml,cgi,module --sizes 1024,6250,16384,65536");
    static final Step THREADS_QUICK = Step.of("threads", List.of("tomcat", "tomcat-vt", "jetty", "jetty-vt"), 4,
            "bench " + THREADS + QUICK + "30").with("SPICE_JAVA_HOME", Step.JDK_21);
    static final Step THREADS_FULL = Step.of("threads", List.of("tomcat", "tomcat-vt", "jetty", "jetty-vt"), 12,
            "bench " + THREADS + " --clients 8").with("SPICE_JAVA_HOME", Step.JDK_21);
    static final Step HTTP2_QUICK = Step.of("http2", List.of("tomcat", "nginx"), 8, "bench " + HTTP2 + QUICK + "40");
    static final Step HTTP2_FULL = Step.of("http2", List.of("tomcat", "nginx"), 25, "bench " + HTTP2 + " --clients 8");
    static final Step LATENCY_QUICK = Step.of("latency", List.of("embedded"), 4,
            "bench --profile latency --probes static,servlet,module,cgi --clients 4,16 --warm-up 10 --common-rates 0.25,0.75"
                    + " --curve 0.5,1.1");
    static final Step LATENCY_FULL = Step.of("latency", List.of("embedded"), 10, "bench --profile latency");

    /** The eleven, in order. */
    public static final List<Question> ALL = List.of(
            new Question(1, "What does a process per request cost?",
                    "CGI and FastCGI run the same C program: CGI starts it for every request, FastCGI keeps it"
                            + " resident. The difference is starting and ending a process.",
                    "How many times what FastCGI costs would you expect CGI to cost, and why?",
                    "Read the report's why-it-costs section of the run: the kernel's counters show a process started and"
                            + " page faults for every CGI request, none for FastCGI. FastCGI pays instead for the hop to"
                            + " its resident program.",
                    "nginx with fcgiwrap and the FastCGI library (scripts/spice server install nginx)",
                    NGINX_QUICK, NGINX_FULL, Answers::processPerRequest),
            new Question(2, "What does an in-process module save?",
                    "The same page from the server's own file handler, from a module compiled into the server, and from"
                            + " a servlet, on four servers in the same rounds.",
                    "Will a module that writes a page from memory cost more or less than the server sending a file?"
                            + " Will the interface matter more than the server?",
                    "Set three distances side by side: each module against its own server's static file, each servlet"
                            + " against it, and the dearest server's static file against the cheapest's. Which is the"
                            + " largest tells, for this page, whether the server or the interface matters more; the"
                            + " sentence says it for the module, the table for the servlet too.",
                    "httpd, nginx, Tomcat and Jetty (scripts/spice server install all)",
                    SERVERS_QUICK, SERVERS_FULL, CrossAnswers::modules),
            new Question(3, "What does a template engine cost?",
                    "A compiled JSP page against the servlet that writes the same bytes, and server-side includes"
                            + " parsed on every request, on the embedded Tomcat.",
                    "A JSP is compiled to a servlet. Will it cost what the servlet costs? What will parsing the page on"
                            + " every request cost?",
                    "A JSP whose interval holds the servlet's figure costs what a servlet costs; SSI's cost grows with"
                            + " the page (question five).",
                    "nothing beyond the build (the embedded server)", EMBEDDED_QUICK, EMBEDDED_FULL, Answers::templates),
            new Question(4, "What does a JIT do on the first requests?",
                    "The warm-up of the same run from a fresh start: each workload's CPU per request slice by slice,"
                            + " and the share of the server's CPU its JIT compiler threads took.",
                    "Will the first second of a fresh Java server cost what a steady one does? When will it be steady?",
                    "A workload is steady once its compiler threads fall quiet; a figure taken before that measures the"
                            + " compiler, not the interface.",
                    "nothing beyond the build (the embedded server)", EMBEDDED_QUICK, EMBEDDED_FULL, Answers::jit),
            new Question(5, "Where does the page size start to matter?",
                    "The probes built and measured at several page sizes, and per probe the line CPU per request ="
                            + " fixed + per KB × page KB.",
                    "Which costs more per KB: sending a file, parsing it for includes, or piping it out of a CGI"
                            + " program?",
                    "Where the fixed cost is larger than the bytes' cost, the interface is what a request pays for;"
                            + " where it is smaller, the page is.",
                    "nothing beyond the build (the embedded server, built again at each size)", SWEEP_QUICK, SWEEP_FULL,
                    CurveAnswers::pageSize),
            new Question(6, "What does a language runtime cost, and where it runs?",
                    "Scripts returning the same page inside nginx (Lua, njs), in a resident pool behind a socket (PHP-FPM,"
                            + " a WSGI server, two ASGI servers, a FastCGI program) and in a new process per request (CGI).",
                    "Which costs more: the language, or the way the server reaches it?",
                    "Read by rows of the same kind, not by language: the scripts run inside the server (njs, Lua)"
                            + " beside the C module, those behind a socket (PHP-FPM, uWSGI, uvicorn, granian) beside"
                            + " FastCGI's C program, whose difference is the hop each request pays. The ASGI servers are"
                            + " reached by HTTP, uWSGI by its own protocol.",
                    "nginx with Lua, njs, PHP-FPM, uWSGI, uvicorn and granian (scripts/spice server install nginx)",
                    NGINX_QUICK, NGINX_FULL, Answers::runtimes),
            new Question(7, "Virtual threads or a pool of platform threads?",
                    "The same probes on Tomcat and Jetty with their request threads from a pool, and with a virtual"
                            + " thread per request, all four on one JDK in the same rounds.",
                    "These probes never block. Will virtual threads save anything?",
                    "Virtual threads are a way to block cheaply; here they show what the hand-off costs, the floor under"
                            + " what they save an application that waits.",
                    "Tomcat and Jetty (scripts/spice server install tomcat, then scripts/spice server install jetty) and a"
                            + " JDK 21 or later",
                    THREADS_QUICK, THREADS_FULL, CrossAnswers::threads),
            new Question(8, "How much of a request's cost is the connection?",
                    "Each server's probes with a connection per request (HTTP/1.0, the white paper's load) and with the"
                            + " connection kept, each protocol an arm of its own in the same rounds.",
                    "What share of serving a small page is opening and closing its connection?",
                    "Within one server, its static file, its module and its servlet all pay for the connection; kept, that"
                            + " shared part leaves each ratio to the static file, and the interfaces' differences show"
                            + " wider. Between servers the connection's share differs (their static rows). On one"
                            + " machine what a connection costs is shared out between the client's CPU and the server's"
                            + " (docs/method.md measures how): a per-connection figure is the server's part, not all.",
                    "httpd, nginx, Tomcat and Jetty (scripts/spice server install all)",
                    SERVERS_QUICK, SERVERS_FULL, CrossAnswers::connection),
            new Question(9, "What does an interface add to a user's wait, at the same load?",
                    "Every probe offered the same request rates, open loop, each latency taken from its request's due"
                            + " time, paired with the static file's in each round.",
                    "At the same load, how much longer will a user wait for a CGI page than for the file? For a servlet?",
                    "Below its capacity an interface adds what its work takes and no more; near capacity an open loop's"
                            + " tail is chance, and a quiet server answers later.",
                    "nothing beyond the build (the embedded server)", LATENCY_QUICK, LATENCY_FULL,
                    CurveAnswers::latency),
            new Question(10, "What does multiplexing save?",
                    "Each server's probes over HTTP/1.1 keeping its connections and over HTTP/2, many requests as"
                            + " streams of a few connections, in clear (h2c) and over TLS (h2), each an arm of the same"
                            + " rounds at one offered rate.",
                    "HTTP/2 carries many requests at once on one connection. Will a request cost the server less than"
                            + " over a kept HTTP/1.1 connection?",
                    "Both keep their connections: what differs is HTTP/2's binary frames, streams and compressed"
                            + " headers against HTTP/1.1's text, for h2 the TLS records, and in a server that hands each"
                            + " stream to a thread of its own (Tomcat, not nginx) those hand-offs, dearer when its threads"
                            + " share the cores with the client (bench --pin keeps them apart). At a rate no connection"
                            + " needs concurrency for, multiplexing has nothing to save; what it saves is connections,"
                            + " where many requests would otherwise wait for one.",
                    "nginx and Tomcat (scripts/spice server install nginx, then scripts/spice server install tomcat)",
                    HTTP2_QUICK, HTTP2_FULL, CrossAnswers::multiplexing),
            new Question(11, "Is CGI back?",
                    "The CGI program of question 1 four ways on nginx: a process started for every request (cgi), a"
                            + " fresh WebAssembly instance for every request with CGI's environment and output (wasm,"
                            + " WAGI's model), one instance kept and called again (wasm-kept), and the process kept"
                            + " resident (fastcgi); nginx's C module beside them. One C source, one page.",
                    "A WebAssembly runtime makes an instance without the kernel: no fork, no exec, no new address space."
                            + " How much of what a process per request costs will an instance per request save? What will"
                            + " keeping the instance save on top of that?",
                    "Read it as three distances: wasm against cgi is what the process cost beyond a fresh program;"
                            + " wasm against wasm-kept, what making an instance costs; wasm-kept against fastcgi, what"
                            + " running the program in WebAssembly, behind its host, costs. The two kept ones and the"
                            + " two fresh ones reach nginx the same way (FastCGI on a socket), so the hop is no part of"
                            + " those differences.",
                    "nginx with fcgiwrap, the FastCGI library, clang for wasm32-wasi and Go 1.25"
                            + " (scripts/spice server install nginx)",
                    NGINX_QUICK, NGINX_FULL, Answers::cgiBack));

    private Questions() {
    }

    /** Question {@code number}, or null. */
    public static Question number(int number) {
        return ALL.stream().filter(q -> q.number() == number).findFirst().orElse(null);
    }
}
