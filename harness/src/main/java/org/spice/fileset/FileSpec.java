package org.spice.fileset;

/**
 * One file of a fileset.
 *
 * @param path   relative to the fileset's directory, with {@code /} separators (it is also the URL path
 *               under {@code /spice/fileset/})
 * @param bytes  the file's exact size
 * @param weight its relative access frequency; a whole number so that the mix file states it exactly and
 *               the summary printed here is the one a reader of the mix file computes
 */
public record FileSpec(String path, long bytes, long weight) {

    public FileSpec {
        if (path.isEmpty() || path.startsWith("/") || path.contains("..")) {
            throw new IllegalArgumentException("bad relative path \"" + path + "\"");
        }
        if (bytes < HtmlFiller.MIN_BYTES) {
            throw new IllegalArgumentException(path + ": " + bytes + " bytes is below the smallest HTML page, "
                    + HtmlFiller.MIN_BYTES);
        }
        if (weight <= 0) {
            throw new IllegalArgumentException(path + ": weight must be above 0, not " + weight);
        }
    }
}
