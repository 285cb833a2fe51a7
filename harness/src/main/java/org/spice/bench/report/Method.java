package org.spice.bench.report;

import java.util.ArrayList;
import java.util.List;

import org.spice.bench.model.Results;

/**
 * How a run measured, in the terms that decide whether two runs compare: the protocol (a connection per request,
 * or keep-alive), the page size and the load engine. Stated in the terminal header, the report's first line and
 * the verdict; {@code compare} puts runs that differ in any of them side by side, never as before and after.
 */
record Method(String protocol, long bodyBytes, String engine) {

    static Method of(Results results) {
        String protocol = results.settings().protocol();
        String engine = results.settings().engine();
        return new Method(protocol != null ? protocol : "the protocol the tool used (not recorded)", results.bodyBytes(),
                engine != null ? engine : "event-loop");
    }

    /** "HTTP/1.0, one connection per request; 6250-byte body; engine event-loop". */
    String describe() {
        return protocol + "; " + bodyBytes + "-byte body; engine " + engine;
    }

    /** What differs from {@code other}, one phrase each ("protocol: A here, B there"); empty when they compare. */
    List<String> differences(Method other, String here, String there) {
        List<String> differences = new ArrayList<>();
        if (!protocol.equals(other.protocol)) {
            differences.add("protocol (" + here + ": " + protocol + "; " + there + ": " + other.protocol + ")");
        }
        if (bodyBytes != other.bodyBytes) {
            differences.add("page size (" + here + ": " + bodyBytes + " bytes; " + there + ": " + other.bodyBytes + ")");
        }
        if (!engine.equals(other.engine)) {
            differences.add("load engine (" + here + ": " + engine + "; " + there + ": " + other.engine + ")");
        }
        return differences;
    }
}
