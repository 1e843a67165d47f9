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
 * <p>A cluster of one voter is its own quorum and becomes leader, and so coordinator, at start:
 * {@link #open} returns only once it leads, so the coordinator that loads the metadata next sees
 * every committed entry. A server of several voters returns at once and coordinates while it leads
 * (the server follows the quorum's leadership). A data directory keeps the kind of metadata it was
 * created with: moving a lone server's metadata into a quorum (or back) is refused rather than
 * starting empty beside the store's buckets.
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
     * @param onLostLeadership called (on the quorum's event thread) if a cluster of one voter stops
     *     leading after it opened, when it must stop acting as coordinator
     * @throws InvalidConfigException for a data directory holding the other kind of metadata
     * @throws StorageException when a quorum of one does not elect this server in time
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
        if (c.voters().size() > 1 || c.isObserver()) {
            // its server follows the leadership (it coordinates while it leads; an observer
            // never leads)
            return store;
        }
        try {
            awaitLeadership(store, c, onLostLeadership);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
        return store;
    }

    /**
     * Whether a server with this configuration coordinates from its start to its end: a lone server
     * and a cluster of one voter do; a server of several voters coordinates while it leads, an
     * observer never.
     */
    public static boolean coordinatesFromStart(Configuration conf) {
        return ClusterConfig.from(conf)
                .map(c -> !c.isObserver() && c.voters().size() == 1)
                .orElse(true);
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
