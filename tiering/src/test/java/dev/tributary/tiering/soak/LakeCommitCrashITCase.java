package dev.tributary.tiering.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * T21 end to end, against a real lake and a real server process: the server SIGKILLs itself right
 * after a lake commit, before the coordinator records it; the restarted coordinator finds the
 * snapshot in the lake and adopts it (the soak checks the ADOPTED round of exactly that epoch)
 * instead of tiering the same offsets again, and the lake ends exact. Twice, on the format {@code
 * -Dsoak.format} names (Paimon by default).
 */
class LakeCommitCrashITCase {
    @TempDir Path dir;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void t21_aServerKilledBetweenLakeCommitAndRecordHasItsCommitAdoptedNotRepeated()
            throws Exception {
        long seed = Long.getLong("soak.seed", System.nanoTime());
        FaultSoak.Result r;
        try (FaultSoak soak =
                new FaultSoak(
                        FaultSoak.Options.of(
                                        seed, 2, System.getProperty("soak.format", "paimon"), dir)
                                .withKinds(EnumSet.of(FaultKind.SERVER_KILL_AFTER_LAKE_COMMIT))
                                .quick())) {
            r = soak.run();
        }
        assertThat(r.problems()).as("seed %d: %s", seed, FaultSoak.summary(r)).isEmpty();
        assertThat(r.faultsByKind()).containsEntry(FaultKind.SERVER_KILL_AFTER_LAKE_COMMIT, 2);
        assertThat(r.store().duplicates()).isZero();
        assertThat(r.store().losses()).isZero();
    }
}
