package org.spice.bench.run;

import org.spice.bench.mix.Mix;
import org.spice.bench.model.LoadEngine;
import org.spice.bench.model.RunRecord;
import org.spice.bench.proc.JitCpu;
import org.spice.bench.proc.ServerCpu;

/**
 * One slice of the warm-up or the CPU rounds, with what the server's JIT compiler threads took while it ran.
 *
 * @param slice the slice as the engine measured it
 * @param jitS  the compiler threads' CPU seconds over it; NaN where the JIT is not read (no JVM, a server elsewhere)
 */
record JitSlice(RunRecord slice, double jitS) {

    /** {@code mix} at {@code clients} for {@code seconds}, the JIT read at its edges when {@code readsJit}. */
    static JitSlice run(LoadEngine.Windowed engine, ServerCpu serverCpu, boolean readsJit, Mix mix, int clients,
            double seconds) throws InterruptedException {
        JitCpu.Reading before = readsJit ? serverCpu.jit() : JitCpu.Reading.NONE;
        RunRecord slice = engine.slice(mix, clients, seconds);
        return new JitSlice(slice, readsJit ? serverCpu.jit().secondsSince(before) : Double.NaN);
    }
}
