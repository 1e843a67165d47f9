package dev.tributary.coordinator.maintenance;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import java.time.Duration;
import java.util.List;

/** Server options of lake maintenance; the coordinator hands the job-facing ones to jobs. */
public final class MaintenanceOptions {
    private MaintenanceOptions() {}

    public static final ConfigOption<Integer> THREADS =
            ConfigOptions.key("tiering.maintenance.threads")
                    .intType()
                    .check(n -> n >= 1 && n <= 64, "between 1 and 64")
                    .defaultValue(1)
                    .withDescription(
                            "Server threads for maintenance lake I/O (statistics, compaction"
                                    + " plans and commits, snapshot expiry), apart from the"
                                    + " tiering commit threads, so tiering commits never queue"
                                    + " behind maintenance.");

    public static final ConfigOption<Integer> JOB_SLOTS =
            ConfigOptions.key("tiering.maintenance.job-slots")
                    .intType()
                    .check(n -> n >= 0 && n <= 256, "between 0 and 256")
                    .defaultValue(1)
                    .withDescription(
                            "Readers of a tiering job that may compact at the same time, each"
                                    + " in the background of its tiering work; 0: jobs take no"
                                    + " compaction. A job told this when it registers.");

    public static final ConfigOption<Duration> TIMEOUT =
            ConfigOptions.key("tiering.maintenance.timeout")
                    .durationType()
                    .check(d -> !d.isNegative() && !d.isZero(), "must be > 0")
                    .defaultValue(Duration.ofMinutes(10))
                    .withDescription(
                            "A compaction not committed this long after it was granted is given"
                                    + " up (its files are deleted by the table's next commit);"
                                    + " also the longest a maintenance lake call may run.");

    public static List<ConfigOption<?>> all() {
        return List.of(THREADS, JOB_SLOTS, TIMEOUT);
    }
}
