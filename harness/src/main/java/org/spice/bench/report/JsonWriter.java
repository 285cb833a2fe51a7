package org.spice.bench.report;

import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Writes a tree of Map (objects, in their iteration order), List, long[], double[], String, Number, Boolean
 * and null as indented JSON. NaN and infinities, which JSON cannot hold, become null. Doubles are written
 * in Java's shortest round-trip form, so reading a file back gives the same numbers.
 */
public final class JsonWriter {

    private final StringBuilder out = new StringBuilder(4096);

    private JsonWriter() {
    }

    public static String write(Object value) {
        JsonWriter writer = new JsonWriter();
        writer.value(value, 0);
        return writer.out.append('\n').toString();
    }

    private void value(Object value, int depth) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String text) {
            string(text);
        } else if (value instanceof Boolean b) {
            out.append(b);
        } else if (value instanceof Double || value instanceof Float) {
            number(((Number) value).doubleValue());
        } else if (value instanceof Number n) {
            out.append(n.longValue());
        } else if (value instanceof Map<?, ?> map) {
            object(map, depth);
        } else if (value instanceof List<?> list) {
            array(list, depth);
        } else if (value instanceof long[] longs) {
            out.append('[');
            for (int i = 0; i < longs.length; i++) {
                out.append(i == 0 ? "" : ", ").append(longs[i]);
            }
            out.append(']');
        } else if (value instanceof double[] doubles) {
            out.append('[');
            for (int i = 0; i < doubles.length; i++) {
                out.append(i == 0 ? "" : ", ");
                number(doubles[i]);
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON");
        }
    }

    private void object(Map<?, ?> map, int depth) {
        if (map.isEmpty()) {
            out.append("{}");
            return;
        }
        out.append('{');
        Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
        while (entries.hasNext()) {
            Map.Entry<?, ?> entry = entries.next();
            newline(depth + 1);
            string(String.valueOf(entry.getKey()));
            out.append(": ");
            value(entry.getValue(), depth + 1);
            if (entries.hasNext()) {
                out.append(',');
            }
        }
        newline(depth);
        out.append('}');
    }

    /** Lists of scalars stay on one line; lists of objects get one element per line. */
    private void array(List<?> list, int depth) {
        boolean scalars = list.stream().noneMatch(v -> v instanceof Map || v instanceof List);
        out.append('[');
        for (int i = 0; i < list.size(); i++) {
            if (scalars) {
                out.append(i == 0 ? "" : ", ");
            } else {
                newline(depth + 1);
            }
            value(list.get(i), depth + 1);
            if (!scalars && i < list.size() - 1) {
                out.append(',');
            }
        }
        if (!scalars && !list.isEmpty()) {
            newline(depth);
        }
        out.append(']');
    }

    private void number(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            out.append("null");
        } else if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            out.append((long) d);
        } else {
            out.append(d);
        }
    }

    private void string(String text) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private void newline(int depth) {
        out.append('\n');
        out.append("  ".repeat(depth));
    }
}
