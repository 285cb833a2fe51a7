package org.spice.bench.proc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.regex.Pattern;

/**
 * How soon a server's JVM compiles its JSP pages: HotSpot's CompileThresholdScaling for a page's
 * {@code _jspService}, read from the JVM's command line. The global flag scales every threshold; a CompileCommand
 * scales the methods its pattern matches, on top of it (the last command that matches counts, as in HotSpot).
 * SPICE's Java servers scale the pages' thresholds by 0.05 (conf/java/jvm.options), so that the warm-up waits for
 * 250 JSP requests a page instead of 5,000; a server started without it waits the 5,000.
 */
public final class JspCompileScale {

    /** A page's class as Jasper names it: the pages live under /jsp/. */
    static final String PAGE_CLASS = "org.apache.jsp.jsp.spice00_jsp";
    static final String PAGE_METHOD = "_jspService";

    private static final String GLOBAL = "-XX:CompileThresholdScaling=";
    private static final String COMMAND = "-XX:CompileCommand=";
    private static final Path PROC = Path.of("/proc");

    private JspCompileScale() {
    }

    /**
     * The largest scale among the JVMs of {@code pids} (the most requests to wait for), 1 where none is a JVM or none
     * can be read.
     */
    public static double of(Collection<Long> pids) {
        double scale = Double.NaN;
        for (long pid : pids) {
            if (CpuMeter.anyJava(List.of(pid))) {
                try {
                    byte[] raw = Files.readAllBytes(PROC.resolve(pid + "/cmdline"));
                    double s = fromArguments(Arrays.asList(new String(raw, StandardCharsets.UTF_8).split("\0")));
                    scale = Double.isNaN(scale) ? s : Math.max(scale, s);
                } catch (IOException e) {
                    // gone: not a JVM of the server any longer
                }
            }
        }
        return Double.isNaN(scale) ? 1 : scale;
    }

    /** The scale of a page's {@code _jspService} under these JVM arguments. */
    public static double fromArguments(List<String> arguments) {
        double global = 1;
        double page = 1;
        for (String argument : arguments) {
            if (argument.startsWith(GLOBAL)) {
                global = number(argument.substring(GLOBAL.length()), 1);
            } else if (argument.startsWith(COMMAND)) {
                page = pageScale(argument.substring(COMMAND.length()).split(","), page);
            }
        }
        return global * page;
    }

    /**
     * A CompileCommand's scale for a page, or {@code otherwise}: "CompileThresholdScaling,PATTERN,X" or the older
     * "option,PATTERN,double,CompileThresholdScaling,X".
     */
    private static double pageScale(String[] fields, double otherwise) {
        if (fields.length == 3 && fields[0].equals("CompileThresholdScaling") && matchesPage(fields[1])) {
            return number(fields[2], otherwise);
        }
        if (fields.length == 5 && fields[0].equals("option") && fields[3].equals("CompileThresholdScaling")
                && matchesPage(fields[1])) {
            return number(fields[4], otherwise);
        }
        return otherwise;
    }

    /**
     * Whether a HotSpot method pattern matches a page's {@code _jspService}: "package.Class::method" or
     * "package/Class.method", a * at either end of the class or the method matching anything.
     */
    static boolean matchesPage(String pattern) {
        String p = pattern.replace('/', '.');
        int split = p.indexOf("::");
        String cls;
        String method;
        if (split >= 0) {
            cls = p.substring(0, split);
            method = p.substring(split + 2);
        } else {
            int dot = p.lastIndexOf('.');
            cls = dot < 0 ? p : p.substring(0, dot);
            method = dot < 0 ? "*" : p.substring(dot + 1);
        }
        int signature = method.indexOf('(');
        return glob(cls).matcher(PAGE_CLASS).matches()
                && glob(signature < 0 ? method : method.substring(0, signature)).matcher(PAGE_METHOD).matches();
    }

    private static Pattern glob(String pattern) {
        return Pattern.compile(Arrays.stream(pattern.split("\\*", -1)).map(Pattern::quote)
                .reduce((a, b) -> a + ".*" + b).orElse(""));
    }

    private static double number(String text, double otherwise) {
        try {
            double value = Double.parseDouble(text.strip());
            return value > 0 ? value : otherwise;
        } catch (NumberFormatException e) {
            return otherwise;
        }
    }
}
