package org.spice.bench.engine;

import java.util.ArrayList;
import java.util.List;

import org.spice.bench.mix.Mix;
import org.spice.bench.model.Cpu;
import org.spice.bench.model.CpuSlice;
import org.spice.bench.model.Failure;
import org.spice.bench.model.RunRecord;
import org.spice.bench.model.RunRecordBuilder;
import org.spice.bench.model.Slice;
import org.spice.bench.model.Tally;
import org.spice.bench.net.ErrorClass;

/** Turns what the clients and loops of one mix counted into its {@link RunRecord}, through the one {@link Tally}. */
final class RunMetrics {

    private static final int STATUSES = 600;

    private RunMetrics() {
    }

    /**
     * @param durationS the measured window (or the part of it the server was alive for)
     * @param failed    why the mix does not count, or null
     */
    static RunRecord build(String probe, int repeat, List<ClientCounts> clients, List<LoopStats> loops,
            double durationS, long expectedBodyBytes, Cpu cpu, Failure failed) {
        Tally tally = new Tally(clients.size());
        for (int i = 0; i < clients.size(); i++) {
            ClientCounts c = clients.get(i);
            tally.client(i, c.requests(), c.latencySumNanos(), c.errors());
        }
        for (LoopStats loop : loops) {
            long[] failures = new long[ErrorClass.count()];
            for (ErrorClass error : ErrorClass.values()) {
                failures[error.ordinal()] = loop.errors(error);
            }
            tally.loop(loop.histogram(), loop.headerBytes(), loop.bodyBytes(), failures, loop.serverKeptOpen(),
                    loop.reconnects());
            tally.completedAfterWindow(loop.completedAfterWindow());
            for (int status = 0; status < STATUSES; status++) {
                tally.status(status, loop.statusCount(status));
            }
        }
        RunRecordBuilder record = tally.record(probe, clients.size(), repeat, durationS)
                .expectedBodyBytes(expectedBodyBytes).cpu(cpu);
        return (failed != null ? record.failed(failed) : record).build();
    }

    /**
     * The window's slices: the loops' counts per second added up, with the CPU between the readings at the
     * slices' edges. A slice the CPU was not read for (the window cut short) gets NaN CPU.
     */
    static List<Slice> slices(List<LoopStats> loops, List<CpuReading> edges, long windowStart) {
        int n = loops.stream().mapToInt(l -> l.sliceRequests().length).max().orElse(0);
        List<Slice> slices = new ArrayList<>(n);
        for (int i = 0; i < n && i + 1 < edges.size(); i++) {
            long requests = 0;
            long errors = 0;
            long bytes = 0;
            long latencyNanos = 0;
            for (LoopStats loop : loops) {
                if (i < loop.sliceRequests().length) {
                    requests += loop.sliceRequests()[i];
                    errors += loop.sliceErrors()[i];
                    bytes += loop.sliceBodyBytes()[i];
                    latencyNanos += loop.sliceLatencyNanos()[i];
                }
            }
            CpuReading from = edges.get(i);
            CpuReading to = edges.get(i + 1);
            Cpu cpu = to.since(from);
            slices.add(new Slice((from.at() - windowStart) / 1e9, (to.at() - from.at()) / 1e9, requests, errors, bytes,
                    latencyNanos / 1e6, cpu.serverS(), cpu.machineS()));
        }
        return slices;
    }

    /**
     * A CPU round's slices, one per mix of {@code order}: the round's window slices ({@link #slices}), each named for
     * its mix, with the client's and the server's JIT's CPU between the readings at its edges. A slice the CPU was
     * not read for (the round cut short) is left out. Where servers ran side by side ({@code arms}, the names the
     * mixes carry; arm i's server is the edges' reading {@code residentOf[i]}), a slice's CPU is its own server's, and
     * the others' is kept beside it.
     */
    static List<CpuSlice> taken(List<Mix> order, List<Slice> slices, List<CpuReading> edges,
            List<String> arms, int[] residentOf) {
        List<CpuSlice> taken = new ArrayList<>(order.size());
        for (int i = 0; i < order.size() && i < slices.size(); i++) {
            Slice slice = slices.get(i);
            CpuReading from = edges.get(i);
            CpuReading to = edges.get(i + 1);
            Mix mix = order.get(i);
            int arm = mix.server() == null ? -1 : arms.indexOf(mix.server());
            if (arm < 0) {
                taken.add(new CpuSlice(null, mix.name(), slice.requests(), slice.errors(), slice.durationS(),
                        slice.serverCpuS(), slice.machineCpuS(), to.since(from).clientS(), to.jitSince(from), Double.NaN,
                        to.stealSince(from)));
                continue;
            }
            int own = residentOf[arm];
            double others = 0;
            for (int k = 0; k < to.residentsS().length; k++) {
                others += k == own ? 0 : to.residentSince(from, k);
            }
            taken.add(new CpuSlice(mix.server(), mix.name(), slice.requests(), slice.errors(), slice.durationS(),
                    to.residentSince(from, own), slice.machineCpuS(), to.since(from).clientS(), to.jitSince(from),
                    others, to.stealSince(from)));
        }
        return taken;
    }

}
