package org.spice.bench.report;

import java.util.ArrayList;
import java.util.List;

import org.spice.bench.figures.SpiceFigures;
import org.spice.bench.model.Results;
import org.spice.bench.model.RunRecord;

/** What the report's parts look up in a run's results: the mix at each probe's peak. */
final class ReportData {

    private ReportData() {
    }

    /** Per probe that counted, the first repeat that did not fail at its peak's client count, in summary order. */
    static List<RunRecord> peakRuns(Results results) {
        List<RunRecord> peaks = new ArrayList<>();
        for (SpiceFigures.Summary s : results.summary()) {
            if (s.failed()) {
                continue;
            }
            results.runs().stream()
                    .filter(r -> r.probe().equals(s.probe()) && r.clients() == s.peakClients() && !r.failed())
                    .findFirst().ifPresent(peaks::add);
        }
        return peaks;
    }
}
