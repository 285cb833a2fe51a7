package org.spice.commands;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.spice.bench.mix.Mix;
import org.spice.bench.mix.MixFile;
import org.spice.bench.model.Arrivals;
import org.spice.bench.model.Load;
import org.spice.bench.model.Protocol;
import org.spice.bench.model.Runner;
import org.spice.bench.model.Timing;
import org.spice.bench.net.Endpoint;
import org.spice.bench.plan.BenchPlan;
import org.spice.bench.plan.PlanCommands;
import org.spice.bench.plan.Workloads;
import org.spice.page.Probe;

import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * The bench options' types, as picocli converters: a bad value is refused while the command line is parsed, with
 * picocli's "Invalid value for option" and the option's name, before anything else is looked at.
 */
final class Converters {

    private Converters() {
    }

    /** A base URL: http[s]://HOST[:PORT][/PREFIX]. */
    static final class Url implements ITypeConverter<Endpoint> {
        @Override
        public Endpoint convert(String value) {
            try {
                return Endpoint.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /**
     * A value that may say which --target it is for, {@code NAME=VALUE}; {@code name} null where none is said. A name
     * begins with a letter and holds letters, digits, '.', '_' and '-' (an arm's name: no ':', '/' or '@').
     */
    record ForTarget<T>(String name, T value) {
        static final Pattern NAMED = Pattern.compile("([A-Za-z][A-Za-z0-9._-]*)=(.*)");

        /** {@code value} split into its name (or null) and the rest. */
        static ForTarget<String> split(String value) {
            Matcher named = NAMED.matcher(value.trim());
            return named.matches() ? new ForTarget<>(named.group(1), named.group(2)) : new ForTarget<>(null, value.trim());
        }

        /** Whether this value is for the target {@code target} names: its own, or every target's when unnamed. */
        boolean isFor(String target) {
            return name == null || name.equals(target);
        }
    }

    /** A --target: [NAME=]BASE_URL. */
    static final class NamedTarget implements ITypeConverter<BenchPlan.Deployed> {
        @Override
        public BenchPlan.Deployed convert(String value) {
            ForTarget<String> split = ForTarget.split(value);
            return new BenchPlan.Deployed(split.name(), new Url().convert(split.value()), null);
        }
    }

    /** A target's exporters: [NAME=]URL[,URL...]. */
    static final class NamedExporters implements ITypeConverter<ForTarget<List<URI>>> {
        @Override
        public ForTarget<List<URI>> convert(String value) {
            ForTarget<String> split = ForTarget.split(value);
            List<URI> urls = new ArrayList<>();
            for (String url : split.value().split(",")) {
                urls.add(new ExporterUrl().convert(url));
            }
            return new ForTarget<>(split.name(), List.copyOf(urls));
        }
    }

    /** A target's cgroup here: [NAME=]PATH. */
    static final class NamedCgroup implements ITypeConverter<ForTarget<Path>> {
        @Override
        public ForTarget<Path> convert(String value) {
            ForTarget<String> split = ForTarget.split(value);
            if (split.value().isEmpty()) {
                throw new TypeConversionException("a cgroup's directory, [NAME=]PATH, not \"" + value + "\"");
            }
            return new ForTarget<>(split.name(), Path.of(split.value()));
        }
    }

    /** A Prometheus exporter's URL: absolute http(s) with a host. */
    static final class ExporterUrl implements ITypeConverter<URI> {
        @Override
        public URI convert(String value) {
            try {
                URI uri = new URI(value.trim());
                if (("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null) {
                    return uri;
                }
            } catch (URISyntaxException e) {
                // said below
            }
            throw new TypeConversionException("exporter URLs such as http://10.0.0.5:9100/metrics, not \"" + value + "\"");
        }
    }

    /** A probe by its id. */
    static final class ProbeId implements ITypeConverter<Probe> {
        @Override
        public Probe convert(String value) {
            if (value.isBlank()) {
                throw new TypeConversionException("name at least one probe: " + Probe.ids());
            }
            try {
                return Probe.byId(value.trim());
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** A client count: a whole number above 0. */
    static final class ClientCount implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            long count = aboveZero(value);
            if (count > 0 && count <= Integer.MAX_VALUE) {
                return (int) count;
            }
            throw new TypeConversionException("\"" + value.trim() + "\" is not a client count; give whole numbers above 0"
                    + " separated by commas, e.g. 1,2,4,8");
        }
    }

    /** A process id: a whole number above 0. */
    static final class Pid implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            long pid = aboveZero(value);
            if (pid > 0) {
                return pid;
            }
            throw new TypeConversionException("process ids are whole numbers above 0, not \"" + value + "\"");
        }
    }

    /** {@code value} as a whole number, or 0 where it is none (the converters refuse what is not above 0). */
    private static long aboveZero(String value) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** {@code value} as a number, or NaN where it is none. */
    private static double number(String value) {
        try {
            return Double.parseDouble(value.trim());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    /** Seconds: a finite number of 0 or more, at most a day (longer is a typo, not a benchmark). */
    static final class Seconds implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            double seconds = number(value);
            if (!(seconds >= 0)) {
                throw new TypeConversionException("a number of seconds of 0 or more, not \"" + value + "\"");
            }
            if (seconds > PlanCommands.MAX_SECONDS) {
                throw new TypeConversionException("at most " + (long) PlanCommands.MAX_SECONDS + " seconds (a day), not \""
                        + value + "\"");
            }
            return seconds;
        }
    }

    /** A number above 0 (milliseconds of the latency bound). */
    static final class Positive implements ITypeConverter<Double> {
        @Override
        public Double convert(String value) {
            double number = number(value);
            if (!(number > 0) || Double.isInfinite(number)) {
                throw new TypeConversionException("a number above 0, not \"" + value + "\"");
            }
            return number;
        }
    }

    /** --cpu-rate: requests per second above 0 (at most a million), or "auto", read as {@link #AUTO}. */
    static final class CpuRate implements ITypeConverter<Double> {
        static final double AUTO = -1;

        @Override
        public Double convert(String value) {
            if (value.equals("auto")) {
                return AUTO;
            }
            double number;
            try {
                number = new Positive().convert(value);
            } catch (TypeConversionException e) {
                throw new TypeConversionException("requests per second above 0, or auto, not \"" + value + "\"");
            }
            if (number > 1_000_000) {
                throw new TypeConversionException("at most 1000000 requests per second, not \"" + value + "\"");
            }
            return number;
        }
    }

    /** A mix file, read and checked (a malformed line is named). */
    static final class MixFileReader implements ITypeConverter<Mix> {
        @Override
        public Mix convert(String value) {
            Path file = Path.of(value);
            if (!Files.isReadable(file)) {
                throw new TypeConversionException("cannot read " + file);
            }
            try {
                return MixFile.read(file);
            } catch (IOException e) {
                throw new TypeConversionException("cannot read " + file + ": " + e.getMessage());
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** One of an enum's constants by its name in lower case with dashes (event-loop, quick, fileset). */
    abstract static class Choice<E extends Enum<E>> implements ITypeConverter<E> {
        private final Class<E> type;

        Choice(Class<E> type) {
            this.type = type;
        }

        @Override
        public E convert(String value) {
            List<String> names = new ArrayList<>();
            for (E constant : type.getEnumConstants()) {
                String name = constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
                if (name.equals(value.trim().toLowerCase(Locale.ROOT))) {
                    return constant;
                }
                names.add(name);
            }
            throw new TypeConversionException("\"" + value + "\" is not one of " + String.join(", ", names));
        }
    }

    static final class ProfileName extends Choice<Timing.Profile> {
        ProfileName() {
            super(Timing.Profile.class);
        }
    }

    static final class EngineName extends Choice<Runner.Engine> {
        EngineName() {
            super(Runner.Engine.class);
        }
    }

    static final class ArrivalsName extends Choice<Arrivals> {
        ArrivalsName() {
            super(Arrivals.class);
        }
    }

    /** A protocol by the name results give it (http1.0, keepalive, tls). */
    static final class ProtocolName implements ITypeConverter<Protocol> {
        @Override
        public Protocol convert(String value) {
            return Protocol.find(value.trim()).orElseThrow(() -> new TypeConversionException("\"" + value
                    + "\" is not one of " + Protocol.ids()));
        }
    }

    static final class BaselineName extends Choice<Load.Baseline> {
        BaselineName() {
            super(Load.Baseline.class);
        }
    }

    /** A named workload of the white paper's, checked. */
    static final class WorkloadName implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            try {
                Workloads.parse(value);
                return value;
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
