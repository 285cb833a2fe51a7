package org.spice.bench.samples;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;

/** The rows of a tool's CSV or tab-separated log, each with its line number for error messages. */
public final class Table {

    private static final CsvMapper MAPPER = new CsvMapper().enable(CsvParser.Feature.WRAP_AS_ARRAY);

    public record Row(Path file, int line, String[] cells) {

        public ImportException bad(String what) {
            return new ImportException(file + ":" + line + ": " + what);
        }

        public String cell(int index) throws ImportException {
            if (index >= cells.length) {
                throw bad("expected at least " + (index + 1) + " columns, found " + cells.length);
            }
            return cells[index];
        }

        public long whole(int index, String what) throws ImportException {
            try {
                return Long.parseLong(cell(index).trim());
            } catch (NumberFormatException e) {
                throw bad(what + " is not a whole number: \"" + cell(index) + "\"");
            }
        }

        public double number(int index, String what) throws ImportException {
            try {
                return Double.parseDouble(cell(index).trim());
            } catch (NumberFormatException e) {
                throw bad(what + " is not a number: \"" + cell(index) + "\"");
            }
        }
    }

    private Table() {
    }

    public static List<Row> read(Path file, char separator) throws ImportException {
        CsvSchema schema = CsvSchema.emptySchema().withColumnSeparator(separator).withoutQuoteChar();
        if (separator == ',') {
            schema = schema.withQuoteChar('"');
        }
        List<Row> rows = new ArrayList<>();
        try (MappingIterator<String[]> it = MAPPER.readerFor(String[].class).with(schema).readValues(file.toFile())) {
            while (true) {
                int line;
                String[] cells;
                try {
                    if (!it.hasNextValue()) {
                        break;
                    }
                    line = it.getCurrentLocation().getLineNr();   // the row's first cell, before it is read
                    cells = it.nextValue();
                } catch (RuntimeException | IOException e) {
                    throw new ImportException(file + ":" + it.getCurrentLocation().getLineNr() + ": not " + (separator == ','
                            ? "CSV" : "tab-separated") + " (" + e.getMessage().lines().findFirst().orElse("") + ")");
                }
                if (cells.length == 1 && cells[0].isBlank()) {
                    continue;
                }
                rows.add(new Row(file, line, cells));
            }
        } catch (IOException e) {
            throw new ImportException(file + ": cannot read it (" + e.getMessage() + ")");
        }
        return rows;
    }
}
