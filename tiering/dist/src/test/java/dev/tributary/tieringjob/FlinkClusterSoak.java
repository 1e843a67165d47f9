package dev.tributary.tieringjob;

import dev.tributary.tiering.soak.FaultKind;
import dev.tributary.tiering.soak.FaultSoak;
import dev.tributary.tiering.soak.SoakChecks;
import dev.tributary.tiering.soak.SoakOptions;
import dev.tributary.tiering.soak.SoakResult;
import java.nio.file.Path;
import java.util.EnumSet;

/** The run and the checks of {@link FlinkClusterSoakITCase}. */
final class FlinkClusterSoak {
    private FlinkClusterSoak() {}

    static void runAndCheck(Path dir) throws Exception {
        long seed = Long.getLong("soak.seed", System.nanoTime());
        int faults = Integer.getInteger("soak.faults", 2);
        String format = System.getProperty("soak.format", "paimon");
        Path jar = Path.of(System.getProperty("tributary.tiering-job.jar"));
        SoakOptions options =
                SoakOptions.of(seed, faults, format, dir)
                        .withKinds(
                                EnumSet.of(FaultKind.TASKMANAGER_KILL, FaultKind.JOBMANAGER_KILL))
                        .onFlinkCluster(jar)
                        .quick()
                        .everyKindInTurn();
        SoakResult r;
        try (FaultSoak soak = new FaultSoak(options)) {
            r = soak.run();
        }
        SoakChecks.assertNothingLostOrDuplicated(r, faults);
    }
}
