package dev.tributary.coordinator.store;

import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;

/**
 * Durable coordinator metadata: databases, tables, partitions, per-table tiering records, the table
 * and partition id high marks, the coordinator incarnation and the registered servers. Every
 * mutating call is durable when it returns, and atomic: after a crash at any point the store holds
 * either the state before or after the call. Implementations are thread safe (lake commits record
 * their outcome from the commit pool).
 *
 * <p>{@link FileMetadataStore} is the embedded implementation; the cluster module replicates the
 * same records ({@link MetadataRecords}) through a Raft log. Both apply them to a {@link
 * MetadataImage}.
 */
public interface MetadataStore extends MetadataLog, AutoCloseable {

    /** Everything currently stored. */
    StoredState load();

    /**
     * Durably increments and returns the incarnation number; called once per coordinator start.
     * Epochs handed out in incarnation {@code n} are at least {@code n << 32}, so they stay
     * strictly increasing across restarts without a write per epoch (T17).
     */
    long startIncarnation();

    void putDatabase(DatabaseInfo database);

    void removeDatabase(String name);

    /** Creates or replaces a table; raises the table id high mark to at least its id. */
    void putTable(TableInfo table);

    /** Removes a table, its partitions and its tiering record; the id is never reused. */
    void removeTable(long tableId);

    /**
     * Writes a table's tiering record if the table still exists (atomically with that check, so a
     * commit finishing after a DROP cannot resurrect the table's record).
     *
     * @return false if the table no longer exists and nothing was written
     */
    boolean putTieringRecord(TieringRecord record);

    /**
     * Creates or replaces a partition (T30) if its table still exists; raises the partition id high
     * mark to at least its id either way, so the id is never handed out again.
     */
    void putPartition(PartitionInfo partition);

    /**
     * Removes a partition and, atomically with it, its offsets from the table's tiering record
     * (T33); the id is never reused. A no-op for an unknown partition.
     */
    void removePartition(long tableId, long partitionId);

    /**
     * Registers a server (T49), replacing any earlier registration with the same server id (a
     * restart on other ports). Whether a server is alive is not stored: a registration stays until
     * {@link #removeServer}.
     */
    void putServer(ServerRegistration server);

    /**
     * Removes a server's registration (issue 23: a drained, stopped server taken out of the
     * cluster); nothing if it is not registered. The caller checks that no bucket names it.
     */
    void removeServer(int serverId);

    /**
     * Marks a registered server draining or not (issue 23): while it drains, new buckets and
     * rebalances place no replica on it. The mark outlives the server's restarts ({@link
     * #putServer} keeps it) and goes with its registration; nothing if it is not registered.
     */
    void setDraining(int serverId, boolean draining);

    /**
     * The registered servers by server id, as an immutable copy: the same as {@code
     * load().servers()} without copying the rest of the metadata, for status pages polled often. A
     * replicated store answers from its applied state (which may lag the leader on a follower).
     */
    java.util.Map<Integer, ServerRegistration> servers();

    /**
     * Writes the servers of a table's or a partition's buckets (T49), replacing an earlier
     * assignment of the same buckets, if the table (and partition) still exists, atomically with
     * that check; removed with the table or partition.
     *
     * @return false if the table or partition no longer exists and nothing was written
     */
    boolean putAssignment(BucketAssignment assignment);

    /**
     * Makes {@code listener} follow the applied metadata (T49): it is told the current state at
     * once ({@link MetadataListener#onReset}), then every table each later applied record changes,
     * in log order, on the store's apply thread. One listener per store; a later call replaces it.
     *
     * @throws UnsupportedOperationException if the store does not publish what it applies
     */
    default void setListener(MetadataListener listener) {
        throw new UnsupportedOperationException(
                getClass().getSimpleName() + " does not publish its applied metadata");
    }

    /** 0 for a store that keeps no log of changes: it never applies one twice. */
    @Override
    default long lastLogIndex() {
        return 0;
    }

    /** 0 for a store that keeps no log of changes. */
    @Override
    default long appliedIndex() {
        return 0;
    }

    /** The table's tiering record, if the table exists and has one. */
    java.util.Optional<TieringRecord> tieringRecord(long tableId);

    @Override
    void close();
}
