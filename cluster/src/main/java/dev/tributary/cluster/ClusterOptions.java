package dev.tributary.cluster;

import dev.tributary.common.config.ConfigOption;
import dev.tributary.common.config.ConfigOptions;
import dev.tributary.common.config.MemorySize;
import java.time.Duration;
import java.util.List;

/**
 * Options of a server of a cluster (T49): one of its voters, or an observer added later. Read them
 * with {@link ClusterConfig#from}, which validates them together.
 */
public final class ClusterOptions {
    private ClusterOptions() {}

    public static final ConfigOption<String> CLUSTER_ID =
            ConfigOptions.key("cluster.id")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "Name of the cluster this server belongs to; every voter uses the"
                                    + " same one (it names the replicated metadata group)."
                                    + " Empty: no cluster, the single embedded server.");

    public static final ConfigOption<Integer> SERVER_ID =
            ConfigOptions.key("cluster.server-id")
                    .intType()
                    .check(i -> i >= 0, "a non-negative integer")
                    .noDefaultValue()
                    .withDescription(
                            "This server's id: one of cluster.voters, or for an observer"
                                    + " (cluster.observer-address) an id no voter has; required"
                                    + " when cluster.id is set.");

    public static final ConfigOption<String> OBSERVER_ADDRESS =
            ConfigOptions.key("cluster.observer-address")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "host:raftPort of this server when it is not one of cluster.voters:"
                                    + " a server added to a running cluster. It holds replicas"
                                    + " like any server (move some onto it with tributary"
                                    + " cluster rebalance) and follows the metadata as a"
                                    + " non-voting member of the quorum, which it joins at its"
                                    + " start; it never coordinates. Empty: this server is a"
                                    + " voter.");

    public static final ConfigOption<String> VOTERS =
            ConfigOptions.key("cluster.voters")
                    .stringType()
                    .defaultValue("")
                    .withDescription(
                            "The servers that replicate the cluster metadata, as"
                                    + " id@host:raftPort separated by commas, e.g."
                                    + " 1@10.0.0.1:9301,2@10.0.0.2:9301,3@10.0.0.3:9301. Every"
                                    + " voter lists the same set; an odd count (3 or 5) survives"
                                    + " the loss of (count-1)/2 servers.");

    public static final ConfigOption<Duration> ELECTION_TIMEOUT =
            ConfigOptions.key("cluster.election-timeout")
                    .durationType()
                    .check(d -> d.toMillis() >= 100, "at least 100ms")
                    .defaultValue(Duration.ofSeconds(2))
                    .withDescription(
                            "How long a follower waits without hearing from the leader before"
                                    + " it stands for election: a random wait between this and"
                                    + " twice this. A leader that hears from no majority for"
                                    + " twice this steps down (an isolated coordinator stops"
                                    + " acting). 2s survives GC pauses and CPU starvation on a"
                                    + " loaded small machine while keeping failover within a"
                                    + " few seconds.");

    public static final ConfigOption<Duration> REQUEST_TIMEOUT =
            ConfigOptions.key("cluster.request-timeout")
                    .durationType()
                    .check(d -> d.toMillis() >= 100, "at least 100ms")
                    .defaultValue(Duration.ofSeconds(10))
                    .withDescription(
                            "Longest a metadata write (or a read barrier) waits for a majority of"
                                    + " the voters before it fails as retriable; the write may"
                                    + " still be applied later.");

    public static final ConfigOption<Long> SNAPSHOT_THRESHOLD =
            ConfigOptions.key("cluster.snapshot.threshold")
                    .longType()
                    .check(n -> n >= 1, "at least 1")
                    .defaultValue(10_000L)
                    .withDescription(
                            "Metadata log entries applied since the last snapshot that make a"
                                    + " server write a new snapshot of the metadata; log segments"
                                    + " wholly below a snapshot are then deleted.");

    public static final ConfigOption<MemorySize> LOG_SEGMENT_SIZE =
            ConfigOptions.key("cluster.log.segment-size")
                    .memoryType()
                    .check(m -> m.bytes() >= 64 * 1024, "at least 64kb")
                    .defaultValue(MemorySize.ofMebiBytes(8))
                    .withDescription(
                            "Size at which the metadata log starts a new segment; only whole"
                                    + " segments are deleted after a snapshot.");

    public static List<ConfigOption<?>> all() {
        return List.of(
                CLUSTER_ID,
                SERVER_ID,
                VOTERS,
                OBSERVER_ADDRESS,
                ELECTION_TIMEOUT,
                REQUEST_TIMEOUT,
                SNAPSHOT_THRESHOLD,
                LOG_SEGMENT_SIZE);
    }
}
