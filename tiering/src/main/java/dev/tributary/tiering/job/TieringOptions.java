package dev.tributary.tiering.job;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.common.config.Configuration;
import dev.tributary.tiering.enumerate.SchedulerSettings;
import java.time.Duration;
import java.util.List;

/**
 * Options of the tiering job. Lake settings ({@code datalake.*}) travel in the same map. Settings
 * the coordinator owns (heartbeat interval and timeout, commit order and timeout) are not options
 * of the job: it learns them when it registers, so a job can never disagree with its server.
 */
public final class TieringOptions {
    private TieringOptions() {}

    public static final ConfigOption<Long> SPLIT_MAX_RECORDS =
            ConfigOptions.key("tiering.split.max-records")
                    .longType()
                    .check(n -> n >= 1, "must be >= 1")
                    .defaultValue(1_000_000L)
                    .withDescription(
                            "A log bucket with more pending records than this is cut into several"
                                    + " offset-range splits so several readers share it (T5).");

    public static final ConfigOption<Duration> REQUEST_MAX_WAIT =
            ConfigOptions.key("tiering.request.max-wait")
                    .durationType()
                    .defaultValue(Duration.ofSeconds(5))
                    .withDescription(
                            "How long one table request may wait at the coordinator for a table to"
                                    + " become pending (long poll, T3); the coordinator caps it at"
                                    + " its heartbeat interval.");

    public static final ConfigOption<Duration> REQUEST_MIN_INTERVAL =
            ConfigOptions.key("tiering.request.min-interval")
                    .durationType()
                    .defaultValue(Duration.ofMillis(200))
                    .withDescription(
                            "Least time between two table requests when the previous one found no"
                                    + " pending table.");

    public static final ConfigOption<Duration> TICK_INTERVAL =
            ConfigOptions.key("tiering.enumerator.tick")
                    .durationType()
                    .check(d -> !d.isNegative() && !d.isZero(), "must be positive")
                    .defaultValue(Duration.ofMillis(100))
                    .withDescription(
                            "How often the enumerator checks round ceilings, heartbeats and"
                                    + " deferred table requests.");

    public static final ConfigOption<Duration> STUCK_AFTER =
            ConfigOptions.key("tiering.force-finish.stuck-after")
                    .durationType()
                    .check(d -> !d.isNegative() && !d.isZero(), "must be positive")
                    .defaultValue(Duration.ofSeconds(30))
                    .withDescription(
                            "How long after a round's force-finish a log split may still be open"
                                    + " (its reader closing lake files) before the round is failed"
                                    + " as stuck and retried; the table's freshness if longer.");

    public static final ConfigOption<Integer> READER_STEP_RECORDS =
            ConfigOptions.key("tiering.reader.step-records")
                    .intType()
                    .check(n -> n >= 1, "must be >= 1")
                    .defaultValue(2048)
                    .withDescription(
                            "Records a reader writes between two checks for force-finish and"
                                    + " abort events.");

    public static final ConfigOption<String> JOB_ID =
            ConfigOptions.key("tiering.job.id")
                    .stringType()
                    .noDefaultValue()
                    .withDescription(
                            "Id the job registers with; default a random one. Several jobs may"
                                    + " serve one coordinator (T26).");

    public static final ConfigOption<String> JOB_GROUP =
            ConfigOptions.key("tiering.job.group")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "The table.datalake.tiering.group this job serves; empty for the"
                                    + " default group (T26).");

    public static final ConfigOption<Long> SHUFFLE_SEED =
            ConfigOptions.key("tiering.split.shuffle-seed")
                    .longType()
                    .noDefaultValue()
                    .withDescription(
                            "Seed of the split shuffle (T2); default a random seed, logged at"
                                    + " start.");

    public static final ConfigOption<Integer> EMBEDDED_PARALLELISM =
            ConfigOptions.key("tiering.embedded.parallelism")
                    .intType()
                    .check(n -> n >= 1, "must be >= 1")
                    .defaultValue(Runtime.getRuntime().availableProcessors())
                    .withDescription(
                            "Readers of the embedded tiering job; default the number of cores.");

    public static final ConfigOption<Duration> CHECKPOINT_INTERVAL =
            ConfigOptions.key("tiering.job.checkpoint-interval")
                    .durationType()
                    .check(d -> d.toMillis() >= 10, "must be >= 10ms")
                    .defaultValue(Duration.ofMinutes(1))
                    .withDescription(
                            "How often the job checkpoints. Its checkpointed state is empty (rounds"
                                    + " live at the coordinator); Flink's source coordinator keeps"
                                    + " every split it assigned until a checkpoint completes, so"
                                    + " without checkpoints a job holds every split it ever ran."
                                    + " An execution.checkpointing.interval in the user's Flink"
                                    + " configuration wins.");

    public static List<ConfigOption<?>> all() {
        return List.of(
                SPLIT_MAX_RECORDS,
                REQUEST_MAX_WAIT,
                REQUEST_MIN_INTERVAL,
                TICK_INTERVAL,
                STUCK_AFTER,
                READER_STEP_RECORDS,
                JOB_ID,
                JOB_GROUP,
                SHUFFLE_SEED,
                EMBEDDED_PARALLELISM,
                CHECKPOINT_INTERVAL);
    }

    public static SchedulerSettings schedulerSettings(Configuration conf) {
        return new SchedulerSettings(
                conf.get(REQUEST_MIN_INTERVAL), conf.get(SPLIT_MAX_RECORDS), conf.get(STUCK_AFTER));
    }
}
