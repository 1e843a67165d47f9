package dev.tributary.tiering.soak;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The short fault soak CI runs (issue 14): a real server process, standalone tiering job processes,
 * idempotent writers through a proxy, and one fault of every kind the machine allows, in a seeded
 * order (server SIGKILL, also between a lake commit and its record, torn log tails, job SIGKILL and
 * SIGSTOP, a second job, network resets and stalls, lake commit errors before and after the lake, a
 * failing lake directory and a full lake disk where root and a loop mount allow), then the store
 * and the lake are checked exactly once with independent readers, for each lake format. Twelve
 * faults by default (one of each of the twelve kinds without a Flink cluster): the suite must stay
 * short; the long, weighted random version is {@code bench}'s {@code FaultSoakBench}. One class per
 * format, so the two run in parallel test forks. Every run has one server SIGKILL right after a
 * lake commit, before the coordinator records it, and checks that the restarted coordinator ADOPTED
 * that epoch's snapshot (T21 against a real lake). {@code -Dsoak.seed}, {@code -Dsoak.faults} and
 * {@code -Dsoak.kinds} (e.g. {@code SERVER_KILL_AFTER_LAKE_COMMIT}) replay or vary a run.
 */
abstract class AbstractFaultSoakITCase {
    @TempDir Path dir;

    /** The lake format this soak tiers into. */
    abstract String format();

    // measured 83-190 s per format on the two-core machine, beside another test fork
    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void t18_t19_t20_t21_t22_t42_oneFaultOfEveryKindLosesAndDuplicatesNothing() throws Exception {
        String format = format();
        long seed = Long.getLong("soak.seed", System.nanoTime());
        int faults = Integer.getInteger("soak.faults", 12);
        SoakResult r;
        try (FaultSoak soak =
                new FaultSoak(
                        SoakOptions.of(seed, faults, format, dir)
                                .withKinds(kinds())
                                .quick()
                                .everyKindInTurn())) {
            r = soak.run();
        }
        SoakChecks.assertNothingLostOrDuplicated(r, faults);
    }

    /** Every kind, or those {@code -Dsoak.kinds} names (comma separated). */
    private static Set<FaultKind> kinds() {
        String names = System.getProperty("soak.kinds", "");
        if (names.isBlank()) {
            return EnumSet.allOf(FaultKind.class);
        }
        Set<FaultKind> kinds = EnumSet.noneOf(FaultKind.class);
        for (String n : names.split(",")) {
            kinds.add(FaultKind.valueOf(n.strip()));
        }
        return kinds;
    }
}
