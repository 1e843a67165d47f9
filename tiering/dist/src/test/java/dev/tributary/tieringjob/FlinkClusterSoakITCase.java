package dev.tributary.tieringjob;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.tiering.soak.FaultKind;
import dev.tributary.tiering.soak.FaultSoak;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fault soak with the tiering job as a production user runs it (issue 14): a Flink session
 * cluster of a JobManager and two TaskManagers started from Flink's own entry points in their own
 * JVMs (only Flink on their class path), this module's job jar submitted with Flink's {@code
 * CliFrontend}, and faults of the cluster (a TaskManager SIGKILLed, the JobManager SIGKILLed and
 * the job submitted again), one of each, in a seeded order. The store and the lake end exact.
 * Server, network and second-job faults with this cluster run in {@code bench}'s {@code
 * FaultSoakBench --flink-faults}; CI keeps to the two faults only a cluster has, to stay short.
 * {@code -Dsoak.seed}, {@code -Dsoak.faults} replay or vary a run.
 */
class FlinkClusterSoakITCase {
    @TempDir Path dir;

    // measured about 90 s on the shared two-core machine, most of it starting the cluster
    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void t18_t19_t21_t42_theJobJarOnAFlinkSessionClusterSurvivesClusterFaults() throws Exception {
        long seed = Long.getLong("soak.seed", System.nanoTime());
        int faults = Integer.getInteger("soak.faults", 2);
        String format = System.getProperty("soak.format", "paimon");
        Path jar = Path.of(System.getProperty("tributary.tiering-job.jar"));
        FaultSoak.Options options =
                FaultSoak.Options.of(seed, faults, format, dir)
                        .withKinds(
                                EnumSet.of(FaultKind.TASKMANAGER_KILL, FaultKind.JOBMANAGER_KILL))
                        .onFlinkCluster(jar)
                        .quick()
                        .everyKindInTurn();
        FaultSoak.Result r;
        try (FaultSoak soak = new FaultSoak(options)) {
            r = soak.run();
        }
        assertThat(r.problems()).as("seed %d: %s", seed, FaultSoak.summary(r)).isEmpty();
        assertThat(r.store().problems()).as("seed %d", seed).isEmpty();
        assertThat(r.store().duplicates()).isZero();
        assertThat(r.store().losses()).isZero();
        assertThat(r.faults()).isEqualTo(faults);
        assertThat(r.lakeRowsChecked()).isPositive();
    }
}
