package org.spice.commands;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spice.bench.mix.Mix;
import org.spice.bench.model.BenchSettings;
import org.spice.bench.model.CostPlan;
import org.spice.bench.model.CpuPlan;
import org.spice.bench.model.FloodPlan;
import org.spice.bench.model.LatencyPlan;
import org.spice.bench.model.Multiplex;
import org.spice.bench.model.Server;
import org.spice.bench.model.Target;
import org.spice.bench.plan.BenchPlan;
import org.spice.page.CanonicalPage;
import org.spice.page.Probe;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** Bad options are refused before anything is sent, with a message that names the option. */
@Tag("unit")
class BenchCommandOptionsTest {

    private static final String T = "http://127.0.0.1:1";

    @Test
    void defaultsAndProfiles() {
        BenchSettings quick = BenchCommand.settings("--target", T);
        assertEquals(List.of(1, 2, 4, 8, 16, 32, 64), quick.load().clients());
        assertEquals(Probe.standard().size(), quick.load().mixes().size());
        assertEquals(0.5, quick.timing().rampUpS());
        assertEquals(2, quick.timing().durationS());
        assertEquals(0.5, quick.timing().rampDownS());
        assertEquals(0, quick.timing().pauseS());
        double ladderSeconds = quick.load().mixes().size() * quick.load().clients().size()
                * (quick.timing().rampUpS() + quick.timing().durationS() + quick.timing().rampDownS() + quick.timing().pauseS());
        assertEquals(126, ladderSeconds, 1e-9);
        assertTrue(ladderSeconds + quick.cpu().withWarmUpS() <= 8 * 60 - 26 - 20, "the default bench (the warm-up and"
                + " the CPU rounds, then the ladder) must leave, within 8 minutes, 26 s for a fresh clone's build and 20 s to"
                + " start, verify and stop the server: " + ladderSeconds + " s of ladder");
        assertEquals(CanonicalPage.builtBytes(), quick.load().bytes());
        BenchSettings webbench = BenchCommand.settings("--duration", "60", "--profile", "webbench", "--target", T);
        assertEquals(30, webbench.timing().rampUpS());
        assertEquals(60, webbench.timing().durationS());    // an explicit option wins over the profile, in any order
        assertEquals(30, webbench.timing().rampDownS());
        BenchSettings some = BenchCommand.settings("--target", T, "--probes", "static,cgi", "--clients", "1,3");
        assertEquals(2, some.load().mixes().size());
        assertEquals("cgi", some.load().mixes().get(1).name());
        assertEquals(List.of(1, 3), some.load().clients());
    }

    @Test
    void theCpuRoundsGetWhatTheWarmUpLeftUnlessTheirTimeIsGiven() {
        CpuPlan plan = BenchCommand.settings("--target", T).cpu();
        assertEquals(180, plan.timeS());
        assertEquals(300, plan.withWarmUpS(), 1e-9, "50 s per workload, six by default");
        assertEquals(180, plan.boundS(60), "a short warm-up: the rounds' own bound");
        assertEquals(170, plan.boundS(130), 1e-9);
        assertEquals(CpuPlan.LEAST_S, plan.boundS(250), "a long warm-up: the least the rounds get");
        assertEquals(550, BenchCommand.settings("--target", T, "--probes", "static,servlet,jsp,cgi,shtml,module,fastcgi,"
                + "cgi-stock,php-fpm,wsgi,lua").cpu().withWarmUpS(), 1e-9, "more workloads, a longer warm-up and rounds");
        assertEquals(180, BenchCommand.settings("--target", T, "--probes", "static,module").cpu().boundS(40),
                "fewer workloads: shorter rounds, not fewer rounds needed");
        CpuPlan given = BenchCommand.settings("--target", T, "--cpu-time", "30").cpu();
        assertNull(given.withWarmUpS());
        assertEquals(30, given.boundS(200), "--cpu-time given: exactly that, whatever the warm-up took");
        assertEquals(0, BenchCommand.settings("--target", T, "--cpu-time", "0").cpu().boundS(10));
    }

    /**
     * --cpu-rate: a rate, or auto; servers side by side run at auto unless a client count is given; one server keeps
     * the client count; the option needs rounds on SPICE's engine, and is one load or the other, never both.
     */
    @Test
    void theCpuRoundsRunAtOneOfferedRateWhenAskedAndSideBySideByDefault() {
        CpuPlan one = BenchCommand.settings("--target", T).cpu();
        assertEquals(CpuPlan.AUTO_FRACTION, one.rateFraction(), "one server's probes: one rate too");
        assertTrue(one.farArmsApart(), "but for those far slower than the static file: at the client count");
        CpuPlan clients = BenchCommand.settings("--target", T, "--cpu-clients", "8").cpu();
        assertFalse(clients.openLoop(), "a client count asked for: every probe at it");
        assertFalse(clients.farArmsApart());
        assertFalse(BenchCommand.settings("--target", T, "--engine", "jmeter").cpu().openLoop(),
                "JMeter's rounds run at a client count: the open loop is SPICE's engine's");
        assertFalse(BenchCommand.settings("--target", T, "--cpu-rate", "auto").cpu().farArmsApart(),
                "--cpu-rate auto: every arm at the rate");
        CpuPlan given = BenchCommand.settings("--target", T, "--cpu-rate", "2500").cpu();
        assertEquals(2500.0, given.rateRps());
        assertEquals(null, given.rateFraction());
        CpuPlan auto = BenchCommand.settings("--target", T, "--cpu-rate", "auto").cpu();
        assertEquals(CpuPlan.AUTO_FRACTION, auto.rateFraction());
        assertEquals(0.5, CpuPlan.AUTO_FRACTION);
        assertEquals(CpuPlan.AUTO_FRACTION, BenchCommand.settings("--server", "tomcat,jetty").cpu()
                .rateFraction(), "servers side by side: open loop, unless told otherwise");
        assertTrue(BenchCommand.settings("--server", "tomcat,jetty").cpu().farArmsApart(),
                "but CGI and SSI each at a rate of its own");
        assertFalse(BenchCommand.settings("--server", "tomcat,jetty", "--cpu-rate", "auto").cpu().farArmsApart(),
                "--cpu-rate auto: every arm at one rate");
        assertFalse(BenchCommand.settings("--server", "tomcat,jetty", "--cpu-clients", "8").cpu().openLoop());
        assertBad("Invalid value for option '--cpu-rate': requests per second above 0, or auto, not \"fast\"", "--target",
                T, "--cpu-rate", "fast");
        assertBad("Invalid value for option '--cpu-rate': requests per second above 0, or auto, not \"0\"", "--target", T,
                "--cpu-rate", "0");
        assertBad("--cpu-rate and --cpu-clients: the rounds run at one rate or at one client count", "--target", T,
                "--cpu-rate", "100", "--cpu-clients", "4");
        assertBad("--cpu-rate sets the load of the CPU rounds", "--target", T, "--cpu-rate", "auto", "--cpu-time", "0");
    }

    @Test
    void theOverloadProfileFloodsPastThePeak() {
        BenchSettings ladder = BenchCommand.settings("--target", T, "--profile", "overload");
        assertEquals(List.of(1, 2, 4, 8, 16, 32, 64), ladder.load().clients(), "the quick ladder finds each workload's peak");
        assertEquals(new FloodPlan(0, List.of(2, 4, 8, 16), List.of(3.0, 5.0, 1.0, 2.0)), ladder.flood());
        BenchSettings given = BenchCommand.settings("--target", T, "--profile", "overload", "--peak-clients", "625",
                "--multiples", "16,4", "--flood-timing", "0.5,1,0,0.2");
        assertEquals(List.of(625), given.load().clients(), "a given peak: the ladder runs there alone");
        assertEquals(new FloodPlan(625, List.of(4, 16), List.of(0.5, 1.0, 0.0, 0.2)), given.flood());
        assertEquals(null, BenchCommand.settings("--target", T).flood());
        assertBad("--peak-clients, --multiples and --flood-timing go with --profile overload", "--target", T,
                "--peak-clients", "8");
        assertBad("--peak-clients takes a client count above 0", "--target", T, "--profile", "overload",
                "--peak-clients", "0");
        assertBad("--multiples takes whole numbers from 2 to 1000", "--target", T, "--profile", "overload",
                "--multiples", "1,2");
        assertBad("--flood-timing takes four numbers", "--target", T, "--profile", "overload", "--flood-timing", "3,5");
        assertBad("--flood-timing", "--target", T, "--profile", "overload", "--flood-timing", "3,0,1,2");
    }

    @Test
    void badOptionsNameTheOption(@TempDir Path dir) throws IOException {
        assertBad("--server takes embedded, apache, tomcat, jetty, nginx, apache-prefork, tomcat-vt, jetty-vt or all, not \"iis\"",
                "--server", "iis");
        BenchCommand both = new BenchCommand();
        new picocli.CommandLine(both).parseArgs("--server", "apache,apache-prefork", "--server", "nginx");
        assertEquals(List.of(Server.APACHE, Server.APACHE_PREFORK, Server.NGINX), both.startedServers());
        BenchSettings prefork = BenchCommand.settings("--server", "apache-prefork");
        assertTrue(prefork.load().mixes().stream().anyMatch(m -> m.name().equals("mod-php")), "a variant measures its own probes");
        assertTrue(BenchCommand.settings("--server", "apache").load().mixes().stream().noneMatch(m -> m.name().equals("mod-php")));
        assertBad("--server-pid goes with --target", "--server-pid", "1");
        assertBad("Invalid value for option '--clients' (LIST): \"0\" is not a client count", "--target", T, "--clients", "1,0,4");
        assertBad("Invalid value for option '--clients'", "--target", T, "--clients", "-2");
        assertBad("Invalid value for option '--clients'", "--target", T, "--clients", "many");
        assertBad("Invalid value for option '--probes' (LIST): unknown probe \"php\"", "--target", T, "--probes", "static,php");
        assertBad("Invalid value for option '--mix' (FILE): cannot read", "--target", T, "--mix", dir.resolve("absent.mix").toString());
        Path bad = dir.resolve("bad.mix");
        Files.writeString(bad, "1 /ok\n2 nopath\n");
        assertBad("Invalid value for option '--mix' (FILE): " + bad + " line 2:", "--target", T, "--mix", bad.toString());
        Path tls = dir.resolve("tls.mix");
        Files.writeString(tls, "1 /ok tls\n");
        assertBad("--tls-target:", "--target", T, "--mix", tls.toString());
        assertBad("--duration", "--target", T, "--duration", "0");
        assertBad("Invalid value for option '--ramp-up': a number of seconds of 0 or more", "--target", T, "--ramp-up", "-1");
        assertBad("Invalid value for option '--timeout'", "--target", T, "--timeout", "soon");
        assertBad("--repeat", "--target", T, "--repeat", "0");
        assertBad("Invalid value for option '--duration': a number of seconds", "--target", T, "--duration", "soon");
        assertBad("Invalid value for option '--profile': \"fast\" is not one of quick, webbench, overload", "--target", T, "--profile", "fast");
        assertBad("Invalid value for option '--target' ([NAME=]BASE_URL):", "--target", "ftp://x");
        assertBad("Invalid value for option '--server-pid' (LIST): process ids are whole numbers above 0", "--target", T, "--server-pid", "-5");
        assertBad("Invalid value for option '--server-pid'", "--target", T, "--server-pid", "x");
        assertBad("--trust-cert: cannot read", "--target", T, "--trust-cert", dir.resolve("none.pem").toString());
        assertBad("Missing required parameter for option '--clients'", "--target", T, "--clients");
        assertBad("Unknown option: '--verbose'", "--target", T, "--verbose");
        // found when tried as a new user would
        assertBad("Invalid value for option '--probes' (LIST): name at least one probe", "--target", T, "--probes", "");
        assertBad("Invalid value for option '--probes' (LIST): unknown probe \"nosuch\"", "--target", T, "--probes", "nosuch");
        assertBad("Invalid value for option '--duration': at most 86400 seconds", "--target", T, "--duration", "1e9");
        assertBad("Invalid value for option '--duration': a number of seconds of 0 or more, not \"NaN\"", "--target", T, "--duration", "NaN");
        assertBad("Invalid value for option '--clients' (LIST): \"abc\" is not a client count", "--target", "http://127.0.0.1:1", "--clients", "abc");
        assertBad("Invalid value for option '--workload': static-fileset", "--target", T, "--workload", "ecommerce:php");
        assertBad("Invalid value for option '--engine': \"threads\" is not one of event-loop", "--target", T, "--engine", "threads");
        assertBad("--clients: 100000000 clients need", "--target", T, "--clients", "100000000");
    }

    @Test
    void withoutTargetTheFirstServerStartedIsMeasuredOnItsDefaultPortWithItsProbes() {
        BenchSettings embedded = BenchCommand.settings("--clients", "8");
        assertEquals("http://127.0.0.1:18080", embedded.target().http().toString());
        assertEquals("embedded", embedded.server().name());
        assertEquals(Server.EMBEDDED.benchProbes().size(), embedded.load().mixes().size());
        BenchSettings nginx = BenchCommand.settings("--server", "nginx");
        assertEquals(18084, nginx.target().http().port());
        assertEquals(18444, nginx.target().https().port());
        assertTrue(nginx.load().mixes().stream().anyMatch(m -> m.name().equals("njs")), "nginx's own probes");
        BenchSettings ecommerce = BenchCommand.settings("--server", "apache", "--workload", "ecommerce:cgi");
        assertEquals(List.of("static", "cgi"), ecommerce.load().mixes().stream().map(m -> m.name()).toList());
        assertBad("--tls-target: the e-commerce workload", "--target", T, "--workload", "ecommerce");
    }

    @Test
    void serversAndProtocolsSideBySide() {
        BenchCommand twice = new BenchCommand();
        new picocli.CommandLine(twice).parseArgs("--server", "tomcat,tomcat");
        assertEquals(List.of(Server.TOMCAT, Server.TOMCAT), twice.startedServers(), "a server named twice: an A/A");
        assertTrue(twice.sideBySide());
        BenchCommand oneByOne = new BenchCommand();
        new picocli.CommandLine(oneByOne).parseArgs("--server", "tomcat,tomcat,jetty", "--one-at-a-time");
        assertEquals(List.of(Server.TOMCAT, Server.JETTY), oneByOne.startedServers(), "one at a time: each once");
        assertFalse(oneByOne.sideBySide());
        BenchCommand protocols = new BenchCommand();
        new picocli.CommandLine(protocols).parseArgs("--protocols", "keepalive,tls");
        assertTrue(protocols.sideBySide(), "one server under two protocols");
        assertTrue(BenchCommand.settings("--protocols", "keepalive,http1.0").target().keepAlive(), "the ladder's: the first");
        assertBad("Invalid value for option '--protocols' (LIST): \"http2\" is not one of http1.0, keepalive, tls, h2,"
                + " h2c", "--protocols", "http2");
        assertBad("--protocols: each once, the first http1.0 or keepalive", "--protocols", "tls,http1.0");
        assertBad("--protocols: each once", "--protocols", "http1.0,http1.0");
        assertBad("--protocols: each once", "--keepalive", "--protocols", "http1.0,keepalive");
        assertBad("--protocols: several are measured side by side, on servers bench starts", "--target", T,
                "--protocols", "http1.0,keepalive");
        assertBad("--restarts takes a whole number from 1 to 20", "--server", "tomcat,jetty", "--restarts", "0");
        assertBad("--restarts: starts are compared side by side", "--server", "tomcat", "--restarts", "3");
        assertBad("--engine jmeter: servers side by side run on SPICE's own engine", "--server", "tomcat,jetty",
                "--engine", "jmeter");
    }

    @Test
    void http2ArmsCarryTheirConnectionsAndStreams() {
        Target nginx = BenchCommand.settings("--server", "nginx", "--protocols", "keepalive,h2,h2c").target();
        assertEquals(Multiplex.DEFAULT, nginx.multiplex(), "4 connections of 8 streams unless said");
        assertEquals("http://127.0.0.1:18804", nginx.h2cEndpoint().toString(), "nginx 1.22: h2c on a port of its own");
        Target tomcat = BenchCommand.settings("--server", "tomcat", "--protocols", "keepalive,h2c", "--connections",
                "2", "--streams", "16").target();
        assertEquals(new Multiplex(2, 16), tomcat.multiplex());
        assertEquals(tomcat.http(), tomcat.h2cEndpoint(), "Tomcat takes h2c on its HTTP port");
        assertEquals(null, BenchCommand.settings("--server", "tomcat").target().multiplex(), "no HTTP/2 arm, none");
        assertBad("--connections and --streams: for the HTTP/2 arms, with --protocols h2 or h2c", "--server", "tomcat",
                "--streams", "4");
        assertBad("--streams: a whole number from 1 to 100", "--protocols", "keepalive,h2c", "--streams", "101");
        assertBad("--connections: a whole number from 1 to 1000", "--protocols", "keepalive,h2c", "--connections", "0");
        assertBad("--protocols: each once, the first http1.0 or keepalive", "--protocols", "h2c,keepalive");
        assertBad("--protocols h2, h2c: apache-prefork serves no HTTP/2", "--server", "apache,apache-prefork",
                "--protocols", "keepalive,h2");
    }

    @Test
    void pairsNameArmsOfTheRunAndProbesTheyMeasure() {
        BenchSettings ok = BenchCommand.settings("--server", "apache,apache-prefork", "--probes", "static,php-fpm,mod-php",
                "--pairs", "apache/apache-prefork,php-fpm@apache/mod-php@apache-prefork,php-fpm@apache-prefork/mod-php@apache-prefork");
        assertEquals(List.of("static", "php-fpm"), ok.load().mixes().stream().map(Mix::name).toList(),
                "side by side, the first server measures the probes named that it serves");
        BenchCommand prefork = command("--server", "apache,apache-prefork", "--probes", "static,php-fpm,mod-php");
        assertEquals(List.of("static", "php-fpm", "mod-php"), prefork.mixes(Server.APACHE_PREFORK, List.of(), null).stream()
                .map(Mix::name).toList());
        assertEquals(List.of("tomcat", "jetty", "tomcat-2", "tomcat-vt"), BenchPlan.instanceNames(List.of(
                Server.TOMCAT, Server.JETTY, Server.TOMCAT, Server.TOMCAT_VT)));
        List<Server> aa = List.of(Server.TOMCAT, Server.APACHE, Server.TOMCAT, Server.APACHE_PREFORK, Server.TOMCAT);
        assertArrayEquals(new int[] {18082, 18081, 18092, 18091, 18102}, BenchPlan.ports(aa, false));
        assertArrayEquals(new int[] {18102, 18091, 18092, 18081, 18082}, BenchPlan.ports(aa, true),
                "every second start: servers on one default port trade ports");
        BenchCommand.settings("--server", "tomcat,tomcat", "--protocols", "http1.0,keepalive", "--pairs",
                "tomcat:http1.0/tomcat-2:keepalive");
        assertBad("--pairs tomcat/jetty: no arm jetty in this run; its arms are tomcat, tomcat-2", "--server",
                "tomcat,tomcat", "--pairs", "tomcat/jetty");
        assertBad("--pairs tomcat/tomcat: no arm tomcat in this run; its arms are tomcat:http1.0, tomcat:keepalive",
                "--protocols", "http1.0,keepalive", "--server", "tomcat", "--pairs", "tomcat/tomcat");
        assertBad("--pairs mod-php@apache/static@apache-prefork: apache does not measure mod-php here", "--server",
                "apache,apache-prefork", "--probes", "static,mod-php", "--pairs", "mod-php@apache/static@apache-prefork");
        assertBad("--pairs: a pair is A/B or probe@A/probe@B, not \"x@tomcat/tomcat-2\"", "--server", "tomcat,tomcat",
                "--pairs", "x@tomcat/tomcat-2");
        assertBad("--pairs tomcat/tomcat: an arm against itself", "--server", "tomcat,tomcat", "--pairs",
                "tomcat/tomcat");
        assertBad("--pairs tomcat/tomcat: tomcat is not measured in this run; its probes are static, servlet, jsp",
                "--server", "tomcat", "--pairs", "tomcat/tomcat");
        assertBad("--pairs cgi/static: every probe's ratio to the static file is taken at one load already",
                "--target", T, "--pairs", "cgi/static");
        assertBad("--pairs on one server: PROBE/PROBE (cgi/fastcgi), not \"cgi@a/servlet@a\"", "--target", T,
                "--pairs", "cgi@a/servlet@a");
        assertBad("--pairs on one server pairs two probes at one offered rate in the CPU rounds", "--target", T,
                "--pairs", "cgi/servlet", "--cpu-clients", "8");
        assertEquals(List.of("cgi/servlet"), BenchCommand.settings("--target", T, "--pairs", "cgi/servlet").cpu()
                .pairs(), "one server: two of its probes to take at one load");
        assertEquals(List.of(), BenchCommand.settings("--server", "tomcat,jetty", "--pairs", "tomcat/jetty").cpu()
                .pairs(), "side by side the pairs are the run's, not the plan's");
        assertBad("--probes: none of the servers serves mod-php", "--server", "tomcat,jetty", "--probes",
                "static,mod-php");
    }

    @Test
    void anOpenLoopRunsProbesAtARateOnOneServer() {
        BenchSettings open = BenchCommand.settings("--target", T, "--no-verify", "--warm-up", "0", "--cpu-time", "0",
                "--probes", "static", "--rate", "400", "--duration", "30");
        assertEquals(400, open.open().rps());
        assertEquals(1000, open.open().maxInFlight());
        assertEquals(30, open.timing().durationS());
        assertNull(BenchCommand.settings("--target", T).open(), "the closed loop by default");
        assertBad("Invalid value for option '--rate': a number above 0", "--target", T, "--rate", "0");
        assertBad("--max-in-flight takes a whole number from 1 to 100000", "--target", T, "--rate", "10",
                "--max-in-flight", "0");
        assertBad("--rate runs probes open loop on one server, once", "--server", "tomcat,jetty", "--rate", "100");
        assertBad("--rate runs probes open loop", "--target", T, "--rate", "100", "--repeat", "2");
        assertBad("--rate runs probes open loop", "--target", T, "--rate", "100", "--profile", "overload");
    }

    @Test
    void theLatencyProfileTakesFractionsOfPeaksAndTheStaticFile() {
        BenchSettings profile = BenchCommand.settings("--target", T, "--profile", "latency");
        assertEquals(LatencyPlan.FRACTIONS, profile.latency().fractions());
        assertEquals(LatencyPlan.CURVE, profile.latency().curve());
        assertEquals(0, profile.latency().timeS(), "eight rounds' time unless --cpu-time");
        assertEquals(8 * 36, profile.latency().boundS(36), 1e-9);
        assertEquals(0.05, profile.latency().precision(), 1e-12);
        BenchSettings given = BenchCommand.settings("--target", T, "--profile", "latency", "--common-rates", "0.5,0.2",
                "--curve", "1.5,0.5", "--cpu-time", "90", "--cpu-precision", "10", "--max-in-flight", "200");
        assertEquals(List.of(0.2, 0.5), given.latency().fractions(), "sorted");
        assertEquals(List.of(0.5, 1.5), given.latency().curve());
        assertEquals(90, given.latency().timeS());
        assertEquals(90, given.latency().boundS(36));
        assertEquals(0.10, given.latency().precision(), 1e-12);
        assertEquals(200, given.latency().maxInFlight());
        assertNull(BenchCommand.settings("--target", T).latency(), "no profile by default");
        assertBad("--common-rates and --curve go with --profile latency", "--target", T, "--curve", "0.5");
        assertBad("--curve takes fractions of a peak above 0 and at most 2", "--target", T, "--profile", "latency",
                "--curve", "0.5,3");
        assertBad("--cpu-time 0: the latency profile's rounds need time", "--target", T, "--profile", "latency",
                "--cpu-time", "0");
        assertBad("--rate runs each probe at one rate in the ladder's place", "--target", T, "--profile", "latency",
                "--rate", "100");
        assertBad("--profile latency takes every probe's latency against the static file's", "--target", T,
                "--profile", "latency", "--probes", "servlet,cgi");
        assertBad("--profile latency runs probes open loop", "--server", "tomcat,jetty", "--profile", "latency");
        assertBad("--profile latency runs on SPICE's own engine", "--target", T, "--profile", "latency", "--engine",
                "jmeter");
    }

    @Test
    void theCostCurveTakesFractionsOfEachProbesPeakAndRounds() {
        CostPlan plan = BenchCommand.settings("--target", T, "--server-pid", "1", "--profile", "cost").cost();
        assertEquals(CostPlan.FRACTIONS, plan.fractions());
        assertEquals(CostPlan.ROUNDS, plan.rounds());
        assertEquals(0.25, plan.fitFrom(), 1e-12);
        CostPlan given = BenchCommand.settings("--target", T, "--server-pid", "1", "--profile", "cost", "--cost-rates",
                "0.8,0.2,0.4", "--cost-rounds", "9", "--probes", "servlet,cgi").cost();
        assertEquals(List.of(0.2, 0.4, 0.8), given.fractions(), "sorted; static not required");
        assertEquals(9, given.rounds());
        assertNull(BenchCommand.settings("--target", T).cost(), "no curve by default");
        assertBad("--cost-rates and --cost-rounds go with --profile cost", "--target", T, "--cost-rounds", "8");
        assertBad("--cost-rates: give at least two fractions", "--target", T, "--server-pid", "1", "--profile", "cost", "--cost-rates", "0.5");
        assertBad("--cost-rates takes fractions of a peak above 0 and at most 2", "--target", T, "--server-pid", "1", "--profile", "cost",
                "--cost-rates", "0.5,2.5");
        assertBad("--cost-rounds takes a whole number from 3", "--target", T, "--server-pid", "1", "--profile", "cost", "--cost-rounds", "2");
        assertBad("--rate runs each probe at one rate in the ladder's place", "--target", T, "--server-pid", "1", "--profile", "cost",
                "--rate", "100");
        assertBad("--profile cost is the server's CPU along its rates: with --target, say where to read it", "--target",
                T, "--profile", "cost");
        assertBad("--profile cost runs probes open loop", "--server", "tomcat,jetty", "--profile", "cost");
        assertBad("--profile cost runs on SPICE's own engine", "--target", T, "--server-pid", "1", "--profile", "cost", "--engine", "jmeter");
    }

    @Test
    void severalTargetsAreMeasuredSideBySideEachByItsNameAndItsOwnCpu() {
        String a = "tomcat=" + T;
        String b = "jetty=http://127.0.0.1:2";
        String[] metrics = {"--server-metrics", "tomcat=http://10.0.0.5:9100/metrics,http://10.0.0.5:9102/metrics",
            "--server-metrics", "jetty=http://10.0.0.6:9100/metrics"};
        BenchCommand two = command(cat(new String[] {"--target", a + "," + b, "--probes", "static"}, metrics));
        assertTrue(two.sideBySide());
        assertEquals(List.of("tomcat", "jetty"), two.targets().stream().map(BenchPlan.Deployed::name).toList());
        BenchSettings jetty = two.settings(two.targets().get(1), List.of(), null);
        assertEquals("jetty", jetty.server().name());
        assertEquals("http://127.0.0.1:2", jetty.target().http().toString());
        assertEquals(List.of("http://10.0.0.6:9100/metrics"), jetty.server().metrics().stream().map(Object::toString)
                .toList(), "each target its own exporters");
        assertEquals(2, two.settings(two.targets().get(0), List.of(), null).server().metrics().size());
        BenchSettings aa = BenchCommand.settings(cat(new String[] {"--target", "a=" + T + ",b=" + T},
                "--server-metrics", "a=http://10.0.0.5:9100/metrics", "--server-metrics", "b=http://10.0.0.5:9100/metrics"));
        assertEquals("a", aa.server().name(), "the same URL under two names: the A/A");
        BenchCommand one = command("--target", "httpd=" + T, "--server-metrics", "http://10.0.0.5:9100/metrics");
        assertFalse(one.sideBySide());
        assertEquals("httpd", one.settings(one.targets().get(0), List.of(), null).server().name(), "one named target");
        assertEquals("apache", BenchCommand.settings("--target", T, "--server", "apache").server().name());

        assertBad("--target: several are measured side by side and named so", "--target", a + "," + T);
        assertBad("--target: each target's name once", cat(new String[] {"--target", a + ",tomcat=" + T}, metrics));
        assertBad("--target jetty=http://127.0.0.1:2: side by side compares the servers' CPU", "--target", a + "," + b,
                "--server-metrics", "tomcat=http://10.0.0.5:9100/metrics");
        assertBad("--server-metrics: with several --target, each value is NAME=", "--target", a + "," + b,
                "--server-metrics", "http://10.0.0.5:9100/metrics");
        assertBad("--server-metrics: with several --target, each value is NAME=..., NAME one of the targets' (tomcat,"
                + " jetty), not \"nginx\"", cat(new String[] {"--target", a + "," + b, "--server-metrics",
                    "nginx=http://10.0.0.7:9100/metrics"}, metrics));
        assertBad("--server-pid: with several --target", cat(new String[] {"--target", a + "," + b, "--server-pid", "1"},
                metrics));
        assertBad("--server: with several --target", cat(new String[] {"--target", a + "," + b, "--server", "tomcat"},
                metrics));
        assertBad("--restarts: several --target are measured side by side, as they run", cat(new String[] {"--target",
            a + "," + b, "--restarts", "2"}, metrics));
        assertBad("--one-at-a-time: several --target", cat(new String[] {"--target", a + "," + b, "--one-at-a-time"},
                metrics));
        assertBad("--target httpd=...: the target has a name; --server names it again", "--target", "httpd=" + T,
                "--server", "apache");
        assertBad("--pairs tomcat/nginx: no arm nginx in this run; its arms are tomcat, jetty", cat(new String[] {
            "--target", a + "," + b, "--pairs", "tomcat/nginx"}, metrics));
        assertBad("Invalid value for option '--server-metrics'", "--target", T, "--server-metrics", "x=ftp://h/m");
    }

    private static String[] cat(String[] first, String... more) {
        String[] all = java.util.Arrays.copyOf(first, first.length + more.length);
        System.arraycopy(more, 0, all, first.length, more.length);
        return all;
    }

    private static void assertBad(String expectedStart, String... args) {
        ParameterException e = assertThrows(ParameterException.class, () -> BenchCommand.settings(args));
        assertTrue(e.getMessage().startsWith(expectedStart), e.getMessage());
    }

    @Test
    void aServerWithoutNamedProbesMeasuresTheWorkloadsOwnElseItsOwn() {
        BenchCommand ecommerce = command("--server", "nginx", "--clients", "8", "--workload", "ecommerce:cgi");
        assertEquals(List.of("static", "cgi"), ecommerce.mixes(Server.NGINX, List.of(), null).stream().map(Mix::name).toList());
        BenchCommand plain = command("--server", "nginx", "--clients", "8");
        assertEquals(Server.APACHE.benchProbes().size(), plain.mixes(Server.APACHE, List.of(), null).size());
        assertEquals(Probe.standard().size(), plain.mixes(null, List.of(), null).size(), "on --target: the standard probes");
    }

    private static BenchCommand command(String... args) {
        BenchCommand command = new BenchCommand();
        new CommandLine(command).parseArgs(args);
        return command;
    }
}
