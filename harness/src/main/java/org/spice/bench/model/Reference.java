package org.spice.bench.model;

/** The workloads the others are measured against: the single static file, or the static fileset. */
public final class Reference {

    /** The single-file static workload, the reference unless another is named. */
    public static final String STATIC = "static";

    /** The static fileset's workload (the mix file spice fileset writes is named fileset.mix). */
    public static final String FILESET = "fileset";

    private Reference() {
    }
}
