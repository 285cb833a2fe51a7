package org.spice.bench.samples;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Apache JMeter's per-request log (a JTL in CSV with its header row, the default) as samples: one row per
 * sample with its time stamp, elapsed ms, response code, thread and bytes. Read by the JMeter engine and by
 * {@code spice import jmeter} alike.
 */
public final class Jtl {

    private static final List<String> NEEDED = List.of("timeStamp", "elapsed", "responseCode", "threadName", "bytes");

    private Jtl() {
    }

    /** The samples of one JTL (CSV with a header row; time stamps in ms since the epoch). */
    public static List<Sample> samples(Path file) throws ImportException {
        List<Table.Row> rows = Table.read(file, ',');
        if (rows.isEmpty()) {
            throw new ImportException(file + ": empty");
        }
        List<String> header = Arrays.asList(rows.get(0).cells());
        int[] at = new int[NEEDED.size()];
        for (int i = 0; i < at.length; i++) {
            at[i] = header.indexOf(NEEDED.get(i));
            if (at[i] < 0) {
                throw new ImportException(file + ":1: a JTL in CSV needs a header row with " + NEEDED
                        + " (jmeter.save.saveservice.print_field_names=true); this one has " + header);
            }
        }
        int success = header.indexOf("success");
        int message = header.indexOf("responseMessage");
        List<Sample> samples = new ArrayList<>(rows.size());
        for (Table.Row row : rows.subList(1, rows.size())) {
            if (row.cells().length != header.size()) {
                throw row.bad(row.cells().length + " columns where the header has " + header.size() + " (truncated?)");
            }
            long stamp = row.whole(at[0], "timeStamp (set jmeter.save.saveservice.timestamp_format=ms)");
            long elapsed = row.whole(at[1], "elapsed");
            String code = row.cell(at[2]);
            int status = code.matches("\\d{3}") ? Integer.parseInt(code) : 0;
            boolean ok = success < 0 || Boolean.parseBoolean(row.cell(success));
            String error = ok ? null : message >= 0 ? row.cell(message) : code;
            samples.add(new Sample(stamp, elapsed, status, row.whole(at[4], "bytes"), row.cell(at[3]),
                    status == 0 && error == null ? code : error));
        }
        return samples;
    }
}
