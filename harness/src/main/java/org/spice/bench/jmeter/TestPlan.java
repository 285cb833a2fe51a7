package org.spice.bench.jmeter;

import java.util.List;

import org.spice.bench.mix.Mix;
import org.spice.bench.mix.MixEntry;
import org.spice.bench.net.Endpoint;
import org.spice.page.Probe;

/**
 * The JMeter test plan (JMX) of one mix, as SPICE's engine runs it: a closed loop, one thread per client
 * started at once, each sending the next request when the last one is done, for the whole mix (ramp-up,
 * window, ramp-down); HTTP with keep-alive off (JMeter sends HTTP/1.1 with "Connection: close": a
 * connection per request), through the HttpClient4 implementation, with connect and response timeouts.
 * The thread count comes from the property spice.threads, so one plan serves every engine of a split.
 */
public final class TestPlan {

    private TestPlan() {
    }

    /** Whether JMeter can run {@code mix}: one path, or the JSP probe's 100 pages; plain HTTP. */
    public static String unsupported(Mix mix) {
        if (mix.hasTls()) {
            return "mix " + mix.name() + " has TLS entries: the jmeter engine runs plain HTTP probes";
        }
        return path(mix) == null ? "mix " + mix.name() + " is a weighted mix: the jmeter engine runs one probe at a time" : null;
    }

    /** The sampler's path: the one path, or for the JSP probe a random page of the 100 (as SPICE's engine draws them). */
    static String path(Mix mix) {
        List<MixEntry> entries = mix.entries();
        if (entries.size() == 1) {
            return entries.get(0).path();
        }
        List<String> jsp = Probe.JSP.paths();
        if (entries.stream().map(MixEntry::path).toList().equals(jsp)) {
            String prefix = jsp.get(0).substring(0, jsp.get(0).length() - "00.jsp".length());
            return prefix + "${__RandomString(1,0123456789,)}${__RandomString(1,0123456789,)}.jsp";
        }
        return null;
    }

    /** The closed loop: a thread per client, looping for the mix's seconds (argument 2). */
    private static final String CLOSED = """
                  <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="spice">
                    <stringProp name="ThreadGroup.on_sample_error">continue</stringProp>
                    <elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" testclass="LoopController">
                      <boolProp name="LoopController.continue_forever">false</boolProp>
                      <intProp name="LoopController.loops">-1</intProp>
                    </elementProp>
                    <stringProp name="ThreadGroup.num_threads">${__P(spice.threads,1)}</stringProp>
                    <stringProp name="ThreadGroup.ramp_time">0</stringProp>
                    <boolProp name="ThreadGroup.scheduler">true</boolProp>
                    <stringProp name="ThreadGroup.duration">%2$d</stringProp>
                    <stringProp name="ThreadGroup.delay">0</stringProp>
                    <boolProp name="ThreadGroup.same_user_on_next_iteration">true</boolProp>
                  </ThreadGroup>
                  """;

    /**
     * The open model (JMeter 5.5 and later): a new thread per arrival, arrivals evenly spaced at the rate (argument 1,
     * requests a second) for the seconds (argument 2), whatever the server does.
     */
    private static final String OPEN = """
                      <OpenModelThreadGroup guiclass="OpenModelThreadGroupGui" testclass="OpenModelThreadGroup" testname="spice">
                        <elementProp name="ThreadGroup.main_controller" elementType="OpenModelThreadGroupController"/>
                        <stringProp name="ThreadGroup.on_sample_error">continue</stringProp>
                        <stringProp name="OpenModelThreadGroup.schedule">rate(%1$s/sec) even_arrivals(%2$d sec)</stringProp>
                        <stringProp name="OpenModelThreadGroup.random_seed"></stringProp>
                      </OpenModelThreadGroup>
                  """;

    /**
     * The test plan of one mix: a thread group (argument 7: {@link #CLOSED}, a closed loop of threads whose number is a
     * property, so each engine runs its share; or {@link #OPEN}), no keep-alive, HttpClient4 with the connect and
     * response timeouts. Arguments: the mix's name, the seconds it runs, the host, the port, the path, the timeout in
     * milliseconds.
     */
    private static final String PLAN = """
            <?xml version="1.0" encoding="UTF-8"?>
            <jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">
              <hashTree>
                <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="SPICE %1$s">
                  <elementProp name="TestPlan.user_defined_variables" elementType="Arguments" guiclass="ArgumentsPanel" testclass="Arguments">
                    <collectionProp name="Arguments.arguments"/>
                  </elementProp>
                  <boolProp name="TestPlan.functional_mode">false</boolProp>
                  <boolProp name="TestPlan.serialize_threadgroups">false</boolProp>
                </TestPlan>
                <hashTree>
                  %7$s
                  <hashTree>
                    <HTTPSamplerProxy guiclass="HttpTestSampleGui" testclass="HTTPSamplerProxy" testname="%1$s">
                      <elementProp name="HTTPsampler.Arguments" elementType="Arguments" guiclass="HTTPArgumentsPanel" testclass="Arguments">
                        <collectionProp name="Arguments.arguments"/>
                      </elementProp>
                      <stringProp name="HTTPSampler.domain">%3$s</stringProp>
                      <stringProp name="HTTPSampler.port">%4$d</stringProp>
                      <stringProp name="HTTPSampler.protocol">http</stringProp>
                      <stringProp name="HTTPSampler.path">%5$s</stringProp>
                      <stringProp name="HTTPSampler.method">GET</stringProp>
                      <boolProp name="HTTPSampler.follow_redirects">false</boolProp>
                      <boolProp name="HTTPSampler.auto_redirects">false</boolProp>
                      <boolProp name="HTTPSampler.use_keepalive">false</boolProp>
                      <stringProp name="HTTPSampler.implementation">HttpClient4</stringProp>
                      <stringProp name="HTTPSampler.connect_timeout">%6$d</stringProp>
                      <stringProp name="HTTPSampler.response_timeout">%6$d</stringProp>
                    </HTTPSamplerProxy>
                    <hashTree/>
                  </hashTree>
                </hashTree>
              </hashTree>
            </jmeterTestPlan>
            """;

    public static String jmx(Endpoint target, Mix mix, double seconds, int timeoutMillis) {
        String path = path(mix);
        if (path == null) {
            throw new IllegalArgumentException(unsupported(mix));
        }
        long duration = (long) Math.ceil(seconds);
        return PLAN.formatted(xml(mix.name()), duration, xml(target.host()), target.port(), xml(target.prefix() + path),
                timeoutMillis, CLOSED.formatted(xml(mix.name()), duration));
    }

    /**
     * The open model's plan of one probe: {@code rate} arrivals a second, evenly spaced, for {@code seconds}; each
     * arrival a thread of its own that sends one request on a new connection.
     */
    public static String openJmx(Endpoint target, Mix mix, double rate, double seconds, int timeoutMillis) {
        String path = path(mix);
        if (path == null) {
            throw new IllegalArgumentException(unsupported(mix));
        }
        long duration = (long) Math.ceil(seconds);
        return PLAN.formatted(xml(mix.name()), duration, xml(target.host()), target.port(), xml(target.prefix() + path),
                timeoutMillis, OPEN.formatted(String.format(java.util.Locale.ROOT, "%.3f", rate), duration));
    }

    private static String xml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
