package org.spice.bench.samples;

/** A tool's file that cannot be imported: the message names the file and, where it can, the line. */
public final class ImportException extends Exception {

    private static final long serialVersionUID = 1L;

    public ImportException(String message) {
        super(message);
    }
}
