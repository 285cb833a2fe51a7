package org.spice.bench.model;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * results.json, the schema {@value Results#SCHEMA}, through Jackson. Each run carries its raw counts
 * (requests, bytes, per-client counts, CPU seconds) and the figures computed from them; reading back
 * takes the counts and recomputes the figures, so a hand-edited figure cannot leak into a report.
 * A figure that was not measured (NaN) is written as null, never as a made-up number, and read back as NaN.
 */
public final class ResultsJson {

    public static final String FILE = "results.json";

    /** The one mapper of results files: snake-case names, NaN as null, indented output. */
    public static final ObjectMapper MAPPER = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .addModule(notMeasuredAsNull())
            .build();

    private ResultsJson() {
    }

    /**
     * Writes DIR/results.json through a temporary file, so an interrupted write never leaves half a file: the results'
     * counts, and after their runs the figures concluded from them ({@code summary}, {@code pair_ratios}, and across
     * several servers' arms {@code cross_ratios}, {@code own_ratios}, {@code arm_cpu}, {@code checks}: empty for one
     * server), which a reader reads as the run concluded them.
     */
    public static void write(Path dir, Results results) throws IOException {
        Files.createDirectories(dir);
        Path temporary = dir.resolve(FILE + ".tmp");
        ObjectNode counts = MAPPER.valueToTree(results);
        ObjectNode tree = MAPPER.createObjectNode();
        Across across = results.across();
        counts.properties().forEach(field -> {
            tree.set(field.getKey(), field.getValue());
            if (field.getKey().equals("runs")) {
                tree.set("summary", MAPPER.valueToTree(results.summary()));
                tree.set("pair_ratios", MAPPER.valueToTree(results.pairRatios()));
                tree.set("cross_ratios", MAPPER.valueToTree(across.cross()));
                tree.set("own_ratios", MAPPER.valueToTree(across.own()));
                tree.set("arm_cpu", MAPPER.valueToTree(across.cpu()));
                tree.set("checks", MAPPER.valueToTree(across.checks()));
            }
        });
        MAPPER.writeValue(temporary.toFile(), tree);
        Files.move(temporary, dir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** Reads a results file; one that does not hold SPICE results is an IOException that says why and where. */
    public static Results read(Path file) throws IOException {
        JsonNode tree;
        try {
            tree = MAPPER.readTree(file.toFile());
        } catch (JsonProcessingException e) {
            throw new IOException(file + " is not JSON: " + e.getOriginalMessage() + location(e), e);
        }
        if (tree != null && tree.path("kind").asText("").equals(SIDE_BY_SIDE_2)) {
            tree = sideBySideOf2(tree);
        }
        String schema = tree == null ? null : tree.path("schema").asText(null);
        if (schema != null && schema.startsWith("spice-results/") && !Results.READS.contains(schema)) {
            throw new IOException(file + " is in the format " + schema + ", which this SPICE does not read (it reads "
                    + String.join(", ", Results.READS.subList(0, Results.READS.size() - 1)) + " and " + Results.SCHEMA
                    + "): a newer SPICE wrote it, and that SPICE reads it");
        }
        if (schema == null || !Results.READS.contains(schema)) {
            throw new IOException(file + " is not a SPICE results file: no \"schema\": \"" + Results.SCHEMA + "\"");
        }
        try {
            return MAPPER.treeToValue(tree, Results.class);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw new IOException(file + " is not a SPICE results file: " + e.getMessage(), e);
        }
    }

    /** What a side-by-side results.json of the format 2 said it was (its own shape, before one shape held any run). */
    private static final String SIDE_BY_SIDE_2 = "side-by-side";

    /**
     * A side-by-side file of the format 2 in the one shape: its {@code servers} as the arms, its last start's rounds
     * ({@code cross_rounds}) as the CPU rounds, its earlier starts as they were; its figures are concluded again.
     */
    private static JsonNode sideBySideOf2(JsonNode old) {
        ObjectNode tree = MAPPER.createObjectNode();
        // one from before it said its format is the first
        tree.put("schema", old.path("schema").asText("spice-results/1"));
        tree.set("arms", old.get("servers"));
        tree.set("protocols", old.get("protocols"));
        tree.set("cpu_rounds", old.get("cross_rounds"));
        if (old.has("earlier_starts")) {
            tree.set("earlier_starts", old.get("earlier_starts"));
        }
        return tree;
    }

    /** The results.json of a results directory (or the file itself, if given), read and checked. */
    public static Results readResults(Path dirOrFile) throws IOException {
        Path file = Files.isDirectory(dirOrFile) ? dirOrFile.resolve(FILE) : dirOrFile;
        if (!Files.isReadable(file)) {
            throw new IOException("cannot read " + file + ": give a results directory written by bench");
        }
        return read(file);
    }

    private static String location(JsonProcessingException e) {
        return e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ", column "
                + e.getLocation().getColumnNr() + ")";
    }

    /** NaN and infinities, which JSON cannot hold, are written as null and read back as NaN. */
    private static SimpleModule notMeasuredAsNull() {
        NumberOrNull number = new NumberOrNull();
        NullAsNaN read = new NullAsNaN();
        return new SimpleModule("spice-not-measured")
                .addSerializer(Double.class, number).addSerializer(double.class, number)
                .addSerializer(double[].class, new NumbersOrNull())
                .addDeserializer(Double.class, read).addDeserializer(double.class, read)
                .addDeserializer(double[].class, new NullsAsNaN());
    }

    private static final class NumberOrNull extends JsonSerializer<Double> {
        @Override
        public void serialize(Double value, JsonGenerator out, SerializerProvider provider) throws IOException {
            if (value.isNaN() || value.isInfinite()) {
                out.writeNull();
            } else {
                out.writeNumber(value);
            }
        }
    }

    private static final class NumbersOrNull extends JsonSerializer<double[]> {
        private final NumberOrNull number = new NumberOrNull();

        @Override
        public void serialize(double[] values, JsonGenerator out, SerializerProvider provider) throws IOException {
            out.writeStartArray();
            for (double value : values) {
                number.serialize(value, out, provider);
            }
            out.writeEndArray();
        }
    }

    private static final class NullAsNaN extends JsonDeserializer<Double> {
        @Override
        public Double deserialize(JsonParser in, DeserializationContext context) throws IOException {
            return in.getValueAsDouble(Double.NaN);
        }

        @Override
        public Double getNullValue(DeserializationContext context) {
            return Double.NaN;
        }

        /** A figure a results file from before it was kept does not have: not measured. */
        @Override
        public Object getAbsentValue(DeserializationContext context) {
            return Double.NaN;
        }
    }

    private static final class NullsAsNaN extends JsonDeserializer<double[]> {
        @Override
        public double[] deserialize(JsonParser in, DeserializationContext context) throws IOException {
            if (!in.isExpectedStartArrayToken()) {
                return (double[]) context.handleUnexpectedToken(double[].class, in);
            }
            java.util.List<Double> values = new java.util.ArrayList<>();
            for (JsonToken token = in.nextToken(); token != JsonToken.END_ARRAY; token = in.nextToken()) {
                values.add(token == JsonToken.VALUE_NULL ? Double.NaN : in.getValueAsDouble(Double.NaN));
            }
            return values.stream().mapToDouble(Double::doubleValue).toArray();
        }
    }
}
