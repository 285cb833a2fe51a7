package org.spice.bench.analysis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.spice.bench.model.Arm;
import org.spice.bench.model.Protocol;

/**
 * What one start of the servers cannot see, supplied from measurement: how far a cross ratio moves from one start of
 * the servers to the next beyond its rounds' noise (JIT decisions, memory layout, the machine's neighbours; Kalibera
 * and Jones's between-start level). The table ({@value #TABLE}, beside this class) holds it per pair of servers, as
 * {@code bench --restarts N} measured it over HTTP/1.0 (its column "between starts (sd)"); a side by side of one
 * start adds it to each ratio's interval, so that the same command run again lands inside it. A pair the table lacks
 * keeps its rounds' interval, and the answer says so.
 */
public final class BetweenStarts {

    static final String TABLE = "between-starts.tsv";

    /** One pair of servers (scripts/spice's names, either order): the spread in log units, and how it was measured. */
    public record Spread(String a, String b, double logSd, String measured) {
    }

    /** Nothing added: every ratio keeps its rounds' interval. */
    public static final BetweenStarts NONE = new BetweenStarts(Map.of(), List.of());

    private final Map<String, String> serverOfArm;
    private final List<Spread> table;

    private BetweenStarts(Map<String, String> serverOfArm, List<Spread> table) {
        this.serverOfArm = serverOfArm;
        this.table = table;
    }

    /**
     * For a run's servers (each arm's name to the server it is) under its protocols: only arms over HTTP/1.0, the
     * protocol the table was measured under, get a spread.
     */
    public static BetweenStarts of(List<CrossResults.Member> servers, List<Protocol> protocols) {
        Map<String, String> serverOfArm = new HashMap<>();
        for (CrossResults.Member m : servers) {
            for (Protocol p : protocols) {
                if (p == Protocol.HTTP10 && m.server() != null) {
                    serverOfArm.put(Arm.of(m.name(), p, protocols.size() > 1).name(), m.server());
                }
            }
        }
        return new BetweenStarts(serverOfArm, table());
    }

    /** The table's spread for arms {@code a} and {@code b}; null where it has none. */
    public Spread spread(String a, String b) {
        String sa = serverOfArm.get(a);
        String sb = serverOfArm.get(b);
        if (sa == null || sb == null) {
            return null;
        }
        return table.stream().filter(s -> s.a().equals(sa) && s.b().equals(sb) || s.a().equals(sb) && s.b().equals(sa))
                .findFirst().orElse(null);
    }

    /** Every one-start ratio with its pair's spread added to its interval; the rest as they are. */
    List<CrossFigures.Cross> widen(List<CrossFigures.Cross> cross) {
        return cross.stream().map(c -> {
            Spread s = spread(c.a(), c.b());
            return s == null ? c : c.widenedBy(s.logSd());
        }).toList();
    }

    /** The spreads of the ratios widened, each pair once ("tomcat / jetty: log sd 0.060, measured …"). */
    public List<String> said(List<CrossFigures.Cross> cross) {
        List<String> lines = new ArrayList<>();
        for (CrossFigures.Cross c : cross) {
            Spread s = spread(c.a(), c.b());
            String line = s == null || !c.widened() ? null : String.format(Locale.ROOT, "%s / %s: log sd %.3f (%s)",
                    c.a(), c.b(), s.logSd(), s.measured());
            if (line != null && !lines.contains(line)) {
                lines.add(line);
            }
        }
        return lines;
    }

    /** The table in the harness's resources, read once: side by side draws its figures again after every round. */
    static List<Spread> table() {
        return Shipped.TABLE;
    }

    private static final class Shipped {
        static final List<Spread> TABLE = read();
    }

    /** The table as shipped; a malformed line is an error that names it. */
    private static List<Spread> read() {
        try (InputStream in = BetweenStarts.class.getResourceAsStream(TABLE)) {
            if (in == null) {
                throw new IllegalStateException(TABLE + " is missing from the harness");
            }
            return parse(new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)).lines().toList());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Tab-separated a, b, log sd, how measured; '#' starts a comment. */
    static List<Spread> parse(List<String> lines) {
        List<Spread> table = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = lines.get(i).split("\t", -1);
            double sd = f.length == 4 ? parseSd(f[2]) : Double.NaN;
            if (f.length != 4 || f[0].isBlank() || f[1].isBlank() || !(sd >= 0)) {
                throw new IllegalStateException(TABLE + " line " + (i + 1) + ": expected a, b, a log sd of 0 or more"
                        + " and how it was measured, tab-separated: " + line);
            }
            table.add(new Spread(f[0].strip(), f[1].strip(), sd, f[3].strip()));
        }
        return List.copyOf(table);
    }

    private static double parseSd(String text) {
        try {
            return Double.parseDouble(text.strip());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }
}
