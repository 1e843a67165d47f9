package dev.tributary.tiering.soak;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/** What a {@link FaultSoak} found. */
public record SoakResult(
        long seed,
        String format,
        int faults,
        Map<FaultKind, Integer> faultsByKind,
        Map<FaultKind, long[]> recoveryMillis,
        long rowsWritten,
        StoreAudit.Result store,
        long lakeRowsChecked,
        List<String> problems,
        Duration took,
        long[] failoverToCoordinatorMillis,
        long[] failoverToRoundMillis) {
    public boolean clean() {
        return problems.isEmpty() && store.clean();
    }

    /** The final line. */
    public String summary() {
        StringBuilder kinds = new StringBuilder();
        StringBuilder rec = new StringBuilder();
        faultsByKind()
                .forEach(
                        (k, n) -> {
                            kinds.append(kinds.length() == 0 ? "" : ", ")
                                    .append(k)
                                    .append('=')
                                    .append(n);
                            long[] v = recoveryMillis().getOrDefault(k, new long[0]);
                            rec.append(rec.length() == 0 ? "" : ", ")
                                    .append(k)
                                    .append('=')
                                    .append(percentile(v, 50))
                                    .append('/')
                                    .append(percentile(v, 99));
                        });
        StoreAudit.Result s = store();
        return String.format(
                "SOAK %s seed=%d format=%s faults=%d [%s] rows written=%d (acknowledged %d, in"
                        + " doubt %d of which in the store %d) duplicates=%d losses=%d"
                        + " unknown=%d lake rows checked=%d problems=%d recovery ms p50/p99 [%s]"
                        + "%s took %s",
                clean() ? "PASSED" : "FAILED",
                seed(),
                format(),
                faults(),
                kinds,
                rowsWritten(),
                s.acked(),
                s.inDoubt(),
                s.inDoubtPresent(),
                s.duplicates(),
                s.losses(),
                s.strangers(),
                lakeRowsChecked(),
                problems().size() + s.problems().size(),
                rec,
                failoverSummary(failoverToCoordinatorMillis(), failoverToRoundMillis()),
                took().withNanos(0));
    }

    /**
     * The coordinator failovers (T49) as one line part, empty when there were none.
     *
     * @param toCoordinator kill to another coordinator, ms, sorted
     * @param toRound kill to the next round in the lake, ms, sorted
     */
    public static String failoverSummary(long[] toCoordinator, long[] toRound) {
        if (toCoordinator.length == 0) {
            return "";
        }
        return String.format(
                " coordinator failovers=%d kill->coordinator ms p50/p99/max %d/%d/%d"
                        + " kill->next round in the lake ms p50/p99/max %d/%d/%d",
                toCoordinator.length,
                percentile(toCoordinator, 50),
                percentile(toCoordinator, 99),
                toCoordinator[toCoordinator.length - 1],
                percentile(toRound, 50),
                percentile(toRound, 99),
                toRound[toRound.length - 1]);
    }

    static long percentile(long[] sorted, int p) {
        if (sorted.length == 0) {
            return -1;
        }
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }
}
