package org.spice.bench.figures;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * One arm's CPU per request against another's in the same rounds, paired by round (results.json {@code pair_ratios}):
 * what a reader asks of two probes that are not a probe and its static file (cgi against fastcgi, the JSP against
 * the servlet), concluded with the rest of the run's figures so that no reader pairs the rounds itself.
 *
 * @param a      the arm divided
 * @param b      the arm it is divided by
 * @param ratio  a's CPU per request / b's: the Hodges-Lehmann estimate of the rounds' log-ratios
 * @param low    its 95 % interval's lower end (Wilcoxon's signed-rank; NaN under {@link PairedRatio#MIN_FOR_INTERVAL})
 * @param high   its upper end
 * @param rounds the rounds both were measured in
 * @param atRps  the one rate both were offered in the slices paired (the slower one's, where the faster one's slices
 *               ran at it too: --pairs); null where each was taken at its own rate (the same one, or two said apart)
 */
@JsonPropertyOrder({"a", "b", "ratio", "low", "high", "rounds", "at_rps"})
public record ArmRatio(String a, String b, double ratio, double low, double high, int rounds,
        @JsonProperty("at_rps") @JsonInclude(JsonInclude.Include.NON_NULL) Double atRps) {

    /** {@code a} against {@code b} from their paired figures, each at its own rate. */
    public static ArmRatio of(String a, String b, PairedRatio paired) {
        return of(a, b, paired, null);
    }

    /** {@code a} against {@code b} from their paired figures, both at {@code atRps} (null: each at its own). */
    public static ArmRatio of(String a, String b, PairedRatio paired, Double atRps) {
        return new ArmRatio(a, b, paired.ratio(), paired.low(), paired.high(), paired.rounds(), atRps);
    }

    /** The paired figures, as {@link PairedRatio} and {@link Judge} read them. */
    public PairedRatio paired() {
        return new PairedRatio(ratio, low, high, rounds);
    }

    /** b against a: the reciprocal, its interval's ends swapped. */
    public ArmRatio inverse() {
        return of(b, a, paired().inverse(), atRps);
    }
}
