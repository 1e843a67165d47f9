package dev.tributary.tiering.job;

import dev.tributary.common.config.Configuration;
import dev.tributary.tiering.service.TieringServiceFactory;
import dev.tributary.tiering.source.TieringSource;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * Builds the tiering job graph: the tiering source (enumerator + readers; the enumerator also
 * requests the rounds' commits) into a discarding sink. The one code path behind the embedded
 * runner and the cluster entry point.
 */
public final class TieringJob {
    /** Fixed so a restarted job's source keeps its identity. */
    public static final String SOURCE_UID = "tributary-tiering-source";

    private TieringJob() {}

    /**
     * Adds the tiering pipeline to {@code env}.
     *
     * @param config tiering options ({@link TieringOptions}) and lake settings ({@code
     *     datalake.format}, {@code datalake.<format>.*})
     * @return the job id the pipeline registers with
     */
    public static String build(
            StreamExecutionEnvironment env, TieringServiceFactory services, Configuration config) {
        config.validate(TieringOptions.all());
        String jobId =
                config.getOptional(TieringOptions.JOB_ID)
                        .orElseGet(() -> "tiering-" + UUID.randomUUID());
        Map<String, String> settings = config.toMap();
        keepRunningAfterFailures(env);
        checkpointToForgetAssignedSplits(env, config.get(TieringOptions.CHECKPOINT_INTERVAL));
        env.fromSource(
                        new TieringSource(services, settings, jobId),
                        WatermarkStrategy.noWatermarks(),
                        "tiering-source",
                        Types.VOID)
                .uid(SOURCE_UID)
                .sinkTo(new DiscardingSink<>())
                .name("discard");
        return jobId;
    }

    /**
     * Per-table failures never reach Flink (T22); what does is a bug or a lost task manager, and a
     * job that ended on one would leave every table it serves to go stale. Without checkpoints
     * Flink's default is not to restart, so the job asks for exponential-delay restarts unless the
     * user's Flink configuration chose a strategy.
     */
    static void keepRunningAfterFailures(StreamExecutionEnvironment env) {
        if (env.getConfiguration().getOptional(RestartStrategyOptions.RESTART_STRATEGY).isEmpty()) {
            org.apache.flink.configuration.Configuration restart =
                    new org.apache.flink.configuration.Configuration();
            restart.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
            env.configure(restart);
        }
    }

    /**
     * The job's checkpointed state is empty (rounds live at the coordinator, T22), but Flink's
     * source coordinator keeps every split it assigned until a checkpoint completes: without
     * checkpoints a job that runs for weeks holds every split it ever ran (one per bucket per
     * round). So the job checkpoints, unless the user's Flink configuration chose an interval, and
     * a failed checkpoint never fails the job: there is nothing in it to lose, and a restart would
     * fail every round in flight.
     */
    static void checkpointToForgetAssignedSplits(
            StreamExecutionEnvironment env, Duration interval) {
        ReadableConfig user = env.getConfiguration();
        org.apache.flink.configuration.Configuration checkpoints =
                new org.apache.flink.configuration.Configuration();
        if (user.getOptional(CheckpointingOptions.CHECKPOINTING_INTERVAL).isEmpty()) {
            checkpoints.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, interval);
        }
        if (user.getOptional(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER).isEmpty()) {
            checkpoints.set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, Integer.MAX_VALUE);
        }
        env.configure(checkpoints);
    }
}
