package dev.tributary.tieringjob;

import java.nio.file.Path;
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
    // The soak's types stay out of this class (they are in FlinkClusterSoak): the job-jar
    // execution keeps the tiering classes off its class path and still loads every ITCase to
    // read its tags, which failed with NoClassDefFoundError whenever -Dit.test was given.
    @TempDir Path dir;

    // measured 43-80 s on the shared two-core machine, most of it starting the cluster
    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void t18_t19_t21_t42_theJobJarOnAFlinkSessionClusterSurvivesClusterFaults() throws Exception {
        FlinkClusterSoak.runAndCheck(dir);
    }
}
