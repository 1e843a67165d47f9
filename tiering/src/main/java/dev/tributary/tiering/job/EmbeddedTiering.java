package dev.tributary.tiering.job;

import dev.tributary.common.config.Configuration;
import dev.tributary.tiering.service.TieringServiceFactory;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the tiering job on an in-process Flink MiniCluster, the server's default deployment. Same
 * job graph as on a cluster ({@link TieringJob}); the caller must have Flink (flink-streaming-java,
 * flink-clients) on its runtime class path.
 */
public final class EmbeddedTiering implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedTiering.class);

    private final JobClient job;
    private final String tieringJobId;

    private EmbeddedTiering(JobClient job, String tieringJobId) {
        this.job = job;
        this.tieringJobId = tieringJobId;
    }

    /**
     * Starts the job with {@link TieringOptions#EMBEDDED_PARALLELISM} readers.
     *
     * @param config tiering options and lake settings ({@code datalake.*})
     */
    public static EmbeddedTiering start(TieringServiceFactory services, Configuration config)
            throws Exception {
        int parallelism = config.get(TieringOptions.EMBEDDED_PARALLELISM);
        org.apache.flink.configuration.Configuration flink =
                new org.apache.flink.configuration.Configuration();
        flink.set(TaskManagerOptions.NUM_TASK_SLOTS, parallelism);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createLocalEnvironment(parallelism, flink);
        String id = TieringJob.build(env, services, config);
        JobClient client = env.executeAsync("Tributary tiering (embedded)");
        LOG.info("embedded tiering job {} started with {} readers", id, parallelism);
        return new EmbeddedTiering(client, id);
    }

    /** The id the job registered with at the coordinator. */
    public String tieringJobId() {
        return tieringJobId;
    }

    public JobStatus status() throws ExecutionException, InterruptedException {
        return job.getJobStatus().get();
    }

    /** Cancels the job and waits (bounded) until the MiniCluster has stopped it. */
    @Override
    public void close() throws Exception {
        try {
            job.cancel().get(30, TimeUnit.SECONDS);
            // cancel() returns once the request is accepted; wait until the job, whose enumerator
            // is a client of the server, has really stopped before the server goes away
            job.getJobExecutionResult().handle((r, e) -> null).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("embedded tiering job did not cancel cleanly", e);
        }
    }
}
