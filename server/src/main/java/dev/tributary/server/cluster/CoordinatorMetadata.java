package dev.tributary.server.cluster;

import dev.tributary.cluster.ClusterConfig;
import dev.tributary.cluster.ClusterOptions;
import dev.tributary.cluster.LeadershipListener;
import dev.tributary.cluster.RaftMetadataStore;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.coordinator.store.FileMetadataStore;
import dev.tributary.coordinator.store.MetadataStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a server keeps the coordinator metadata (T49): the fsync'd file log under {@code
 * <data.dir>/coordinator} of a lone server, or, with {@code cluster.id} set, the cluster's Raft
 * quorum ({@link RaftMetadataStore}, its log under {@code <data.dir>/raft}).
 *
 * <p>A server's buckets are not yet spread over several servers (issue 22), so a cluster is one
 * voter for now: the server is its own quorum and becomes leader, and so coordinator, at start.
 * {@link #open} returns only once it leads, so the coordinator that loads the metadata next sees
 * every committed entry. A data directory keeps the kind of metadata it was created with: moving a
 * lone server's metadata into a quorum (or back) is refused rather than starting empty beside the
 * store's buckets.
 */
public final class CoordinatorMetadata {
    private static final Logger LOG = LoggerFactory.getLogger(CoordinatorMetadata.class);

    /** The lone server's metadata directory under {@code data.dir}. */
    static final String FILE_DIR = "coordinator";

    /** The Raft log and snapshots under {@code data.dir}. */
    static final String RAFT_DIR = "raft";

    private CoordinatorMetadata() {}

    /**
     * Opens the metadata the configuration asks for, refusing one that does not match what the data
     * directory holds.
     *
     * @param onLostLeadership called (on the quorum's event thread) if the server stops leading
     *     after it opened, when it must stop acting as coordinator
     * @throws InvalidConfigException for a cluster of several voters, or a data directory holding
     *     the other kind of metadata
     * @throws StorageException when the quorum does not elect this server in time
     */
    public static MetadataStore open(Configuration conf, Path dataDir, Runnable onLostLeadership) {
        Optional<ClusterConfig> cluster = ClusterConfig.from(conf);
        Path fileDir = dataDir.resolve(FILE_DIR);
        Path raftDir = dataDir.resolve(RAFT_DIR);
        if (cluster.isEmpty()) {
            if (Files.isDirectory(raftDir)) {
                throw new InvalidConfigException(
                        "the data directory "
                                + dataDir
                                + " keeps its metadata in a cluster's quorum ("
                                + raftDir
                                + ") but '"
                                + ClusterOptions.CLUSTER_ID.key()
                                + "' is not set: start it with the cluster.* options it was"
                                + " created with");
            }
            return FileMetadataStore.open(fileDir);
        }
        ClusterConfig c = cluster.get();
        if (c.voters().size() > 1) {
            throw new InvalidConfigException(
                    "'"
                            + ClusterOptions.VOTERS.key()
                            + "' lists "
                            + c.voters().size()
                            + " voters, but servers cannot share tables yet (each bucket lives on"
                            + " one server, and spreading buckets over a cluster is not built:"
                            + " issue 22); list this server alone ("
                            + c.self()
                            + "), or leave cluster.id unset");
        }
        if (Files.isDirectory(fileDir)) {
            throw new InvalidConfigException(
                    "the data directory "
                            + dataDir
                            + " holds a lone server's metadata ("
                            + fileDir
                            + "); moving it into cluster '"
                            + c.clusterId()
                            + "' is not supported: start it without the cluster.* options, or"
                            + " use an empty data.dir for the cluster");
        }
        RaftMetadataStore store = RaftMetadataStore.start(c, raftDir);
        try {
            awaitLeadership(store, c, onLostLeadership);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        return store;
    }

    private static void awaitLeadership(
            RaftMetadataStore store, ClusterConfig c, Runnable onLostLeadership) {
        CountDownLatch ready = new CountDownLatch(1);
        store.addLeadershipListener(
                new LeadershipListener() {
                    @Override
                    public void onLeaderReady(long term) {
                        ready.countDown();
                    }

                    @Override
                    public void onNotLeader(Optional<String> leaderId) {
                        if (ready.getCount() == 0) {
                            LOG.error(
                                    "server {} of cluster '{}' lost the leadership of its"
                                            + " metadata (leader now {}): it stops",
                                    c.serverId(),
                                    c.clusterId(),
                                    leaderId.orElse("unknown"));
                            onLostLeadership.run();
                        }
                    }
                });
        // an election waits up to two election timeouts; the first entry of the term then commits
        Duration wait = c.electionTimeout().multipliedBy(2).plus(c.requestTimeout());
        try {
            if (!ready.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new StorageException(
                        "server "
                                + c.serverId()
                                + " of cluster '"
                                + c.clusterId()
                                + "' did not become the leader of its metadata within "
                                + wait
                                + "; check that its Raft address "
                                + c.self()
                                + " is this machine's and the log under "
                                + RAFT_DIR
                                + " is readable");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StorageException("interrupted while electing the metadata leader", e);
        }
    }
}
