package org.spice.tools;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** The load tools whose output {@code spice import} reads. */
public enum Tools {
    AB, H2LOAD, WRK, JMETER, OHA;

    /** The name on the command line and in results: ab, h2load, wrk, jmeter. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public Imported read(List<Path> files, String probe, int clients, long expectedBytes) throws ImportException {
        for (Path file : files) {
            if (!Files.isReadable(file)) {
                throw new ImportException(file + ": cannot read it");
            }
        }
        return switch (this) {
            case AB -> AbImport.read(files, probe, clients, expectedBytes);
            case H2LOAD -> H2loadImport.read(files, probe, clients, expectedBytes);
            case WRK -> WrkImport.read(files, probe, clients, expectedBytes);
            case JMETER -> JtlImport.read(files, probe, clients, expectedBytes);
            case OHA -> OhaImport.read(files, probe, clients, expectedBytes);
        };
    }

    /** The first 4 KiB of a file, to tell which of a tool's files it is. */
    static String head(Path file) throws ImportException {
        try (var in = Files.newInputStream(file)) {
            return new String(in.readNBytes(4096), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ImportException(file + ": cannot read it (" + e.getMessage() + ")");
        }
    }

    static String read(Path file) throws ImportException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ImportException(file + ": cannot read it (" + e.getMessage() + ")");
        }
    }
}
