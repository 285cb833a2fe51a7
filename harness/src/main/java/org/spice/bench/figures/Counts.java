package org.spice.bench.figures;

/** Counts as words, in the singular where there is one: "1 client", "64 clients". */
public final class Counts {

    private Counts() {
    }

    public static String clients(int count) {
        return count + (count == 1 ? " client" : " clients");
    }
}
