package dev.tributary.cli.command;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.apache.flink.api.dag.Pipeline;
import org.apache.flink.client.deployment.executors.PipelineExecutorUtils;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;
import org.apache.flink.core.execution.PipelineExecutorServiceLoader;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.minicluster.MiniClusterJobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.graph.StreamGraph;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;

/**
 * The MiniClusters the jobs of one {@code tributary query} run on: like Flink's local executor, one
 * per job with a slot per parallel instance, but each kept running until {@link #close} (after the
 * command has read its result). Flink's local executor shuts a job's cluster down as soon as the
 * job ends, while the result iterator still asks that job for its status; the iterator then logs
 * "Failed to get job status so we assume that the job has terminated. Some data might be lost."
 * with two stack traces, although every row was delivered.
 */
final class QueryClusters implements PipelineExecutor, AutoCloseable {
    private static final String EXECUTOR = "tributary-query";

    private final List<MiniCluster> clusters = new ArrayList<>();
    private boolean closed;

    /** A table environment whose jobs run on these clusters. */
    TableEnvironment tableEnvironment(boolean streaming, int parallelism) {
        Configuration conf = new Configuration();
        conf.set(DeploymentOptions.TARGET, EXECUTOR);
        conf.set(DeploymentOptions.ATTACHED, true);
        conf.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        StreamExecutionEnvironment env =
                new StreamExecutionEnvironment(
                        new OnlyExecutor(this), conf, QueryClusters.class.getClassLoader());
        return StreamTableEnvironment.create(
                env,
                streaming
                        ? EnvironmentSettings.inStreamingMode()
                        : EnvironmentSettings.inBatchMode());
    }

    @Override
    public CompletableFuture<JobClient> execute(
            Pipeline pipeline, Configuration configuration, ClassLoader classLoader)
            throws Exception {
        StreamGraph graph = PipelineExecutorUtils.getStreamGraph(pipeline, configuration);
        graph.serializeUserDefinedInstances();
        MiniCluster cluster = start(configuration, Math.max(1, graph.getMaximumParallelism()));
        return cluster.submitJob(graph)
                .thenApply(
                        submitted ->
                                new MiniClusterJobClient(
                                        submitted.getJobID(),
                                        cluster,
                                        classLoader,
                                        // the cluster outlives its job until close()
                                        MiniClusterJobClient.JobFinalizationBehavior.NOTHING));
    }

    private synchronized MiniCluster start(Configuration jobConf, int slots) throws Exception {
        if (closed) {
            throw new IllegalStateException("the query's clusters are closed");
        }
        Configuration conf = new Configuration(jobConf);
        // its REST endpoint (always started) on a free loopback port, never a fixed public one
        conf.set(RestOptions.BIND_ADDRESS, "127.0.0.1");
        conf.set(RestOptions.BIND_PORT, "0");
        MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(conf)
                                .setNumTaskManagers(1)
                                .setNumSlotsPerTaskManager(slots)
                                .build());
        clusters.add(cluster);
        cluster.start();
        return cluster;
    }

    /** Stops every cluster (cancelling what still runs, e.g. a streaming query cut by --limit). */
    @Override
    public synchronized void close() throws Exception {
        closed = true;
        Exception failed = null;
        for (MiniCluster c : clusters) {
            try {
                c.close();
            } catch (Exception e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        clusters.clear();
        if (failed != null) {
            throw failed;
        }
    }

    /** Hands every pipeline of the environment to the one executor. */
    private record OnlyExecutor(PipelineExecutor executor)
            implements PipelineExecutorServiceLoader, PipelineExecutorFactory {
        @Override
        public PipelineExecutorFactory getExecutorFactory(Configuration configuration) {
            return this;
        }

        @Override
        public Stream<String> getExecutorNames() {
            return Stream.of(EXECUTOR);
        }

        @Override
        public String getName() {
            return EXECUTOR;
        }

        @Override
        public boolean isCompatibleWith(Configuration configuration) {
            return true;
        }

        @Override
        public PipelineExecutor getExecutor(Configuration configuration) {
            return executor;
        }
    }
}
