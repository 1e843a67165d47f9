package dev.tributary.tiering.soak;

import static org.assertj.core.api.Assertions.assertThat;

/** The checks every fault soak test ends with, whatever faults it injected. */
public final class SoakChecks {
    private SoakChecks() {}

    /**
     * The run saw no problem, injected {@code faults} faults, and its audits found every
     * acknowledged write in the store exactly once and checked rows in the lake (each failure names
     * the seed that replays the run).
     */
    public static void assertNothingLostOrDuplicated(SoakResult r, int faults) {
        long seed = r.seed();
        // the problems first, on one line: a CI log may keep only the description's first line
        String brief = String.join(" | ", r.problems()).replace('\n', ' ');
        assertThat(r.problems())
                .as(
                        "seed %d: problems [%s]; %s",
                        seed,
                        brief.length() > 4_000 ? brief.substring(0, 4_000) + "..." : brief,
                        r.summary())
                .isEmpty();
        assertThat(r.store().problems()).as("seed %d", seed).isEmpty();
        assertThat(r.store().duplicates()).as("duplicates (seed %d)", seed).isZero();
        assertThat(r.store().losses()).as("losses (seed %d)", seed).isZero();
        assertThat(r.faults()).as("faults injected (seed %d)", seed).isEqualTo(faults);
        assertThat(r.store().acked()).as("writes acknowledged (seed %d)", seed).isPositive();
        assertThat(r.lakeRowsChecked()).as("lake rows checked (seed %d)", seed).isPositive();
    }
}
