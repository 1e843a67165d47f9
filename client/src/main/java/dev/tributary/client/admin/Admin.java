package dev.tributary.client.admin;

import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.TableDescriptor;
import java.util.List;
import java.util.Set;

/**
 * Creates, alters, lists and drops databases and tables, and reads the tiering status. Obtained
 * from {@link dev.tributary.client.Connection#admin()}; thread safe. Every method is a blocking
 * call and throws the typed exception the server raised, e.g. {@link
 * dev.tributary.common.exception.NotFoundException} for an unknown table or {@link
 * dev.tributary.common.exception.InvalidInputException} for an invalid property.
 */
public interface Admin {

    void createDatabase(String name, boolean ignoreIfExists);

    /**
     * Drops a database.
     *
     * @param cascade also drop its tables; without it a non-empty database is refused
     */
    void dropDatabase(String name, boolean ignoreIfNotExists, boolean cascade);

    List<String> listDatabases();

    /** Creates a table and returns its description (with the assigned table id). */
    TableInfo createTable(TablePath path, TableDescriptor descriptor, boolean ignoreIfExists);

    /** Applies the alteration atomically and returns the new description. */
    TableInfo alterTable(TablePath path, TableAlteration alteration);

    /** Drops a table; its lake table (if any) stays, readable by lake engines. */
    default void dropTable(TablePath path, boolean ignoreIfNotExists) {
        dropTable(path, ignoreIfNotExists, false);
    }

    /**
     * Drops a table.
     *
     * @param dropLakeTable also drop its lake table and the lake data; without it the lake table
     *     stays, and a table created later under the same name that tiers to the same format
     *     continues it only if the schemas match (otherwise its creation is refused)
     */
    void dropTable(TablePath path, boolean ignoreIfNotExists, boolean dropLakeTable);

    /** Table names (without the database) of one database, sorted. */
    List<String> listTables(String database);

    TableInfo describeTable(TablePath path);

    /**
     * Adds a partition to a partitioned table (T30).
     *
     * @param partition its values, e.g. {@code PartitionSpec.parse("dt=2026-12-01")}
     * @return the partition (the existing one with {@code ignoreIfExists})
     * @throws dev.tributary.common.exception.InvalidInputException when the values do not fit the
     *     partition columns, the table is not partitioned, or the partition is still being dropped
     */
    PartitionInfo createPartition(TablePath path, PartitionSpec partition, boolean ignoreIfExists);

    /**
     * Drops a partition. A partition of a lake-enabled table goes only once it is tiered to its end
     * (T33): until then it is {@code DROPPING}, refuses writes and is still tiered; the result says
     * which.
     *
     * @param dropLakePartition also drop the lake table's partition when the partition goes; by
     *     default the lake keeps it
     * @return the drop's outcome; empty if the partition did not exist and {@code
     *     ignoreIfNotExists}
     */
    java.util.Optional<PartitionDrop> dropPartition(
            TablePath path,
            PartitionSpec partition,
            boolean ignoreIfNotExists,
            boolean dropLakePartition);

    /**
     * Each bucket's leader, replicas, in-sync set and leader epoch (T50), by ascending bucket, as
     * the coordinator's metadata records them. A bucket that no server holds yet is absent.
     *
     * @param partition for a partitioned table, the partition's name (e.g. {@code dt=2026-12-01});
     *     {@code null} for an unpartitioned table
     * @throws dev.tributary.common.exception.NotFoundException if the table does not exist
     * @throws dev.tributary.common.exception.PartitionNotFoundException if the partition does not
     * @throws dev.tributary.common.exception.InvalidInputException if a partition is named for an
     *     unpartitioned table or none for a partitioned one
     */
    List<BucketReplicaInfo> describeBuckets(TablePath path, String partition);

    /** The partitions of a table, by name (empty for an unpartitioned table). */
    List<PartitionInfo> listPartitions(TablePath path);

    /** Tiering status of every lake-enabled table (T28), without the lag of each partition. */
    default TieringOverview tieringStatus() {
        return tieringStatus(false);
    }

    /**
     * Tiering status of every lake-enabled table (T28).
     *
     * @param withPartitions also the lag of each partition of partitioned tables (T35)
     */
    TieringOverview tieringStatus(boolean withPartitions);

    /** Tiering status of one table (T28), without the lag of each partition. */
    default TableTieringStatus tieringStatus(TablePath path) {
        return tieringStatus(path, false);
    }

    /**
     * Tiering status of one table (T28).
     *
     * @param withPartitions also the lag of each of its partitions if it is partitioned (T35)
     * @throws dev.tributary.common.exception.NotFoundException if the table does not exist or is
     *     not lake-enabled
     */
    TableTieringStatus tieringStatus(TablePath path, boolean withPartitions);

    /**
     * The lake the server tiers into: its format and the format's settings, for readers that open
     * the lake themselves (union read, T40).
     */
    LakeInfo describeLake();

    /**
     * The servers registered in the cluster metadata and which one is the coordinator (T49). A lone
     * server answers with itself, server 0, as coordinator and an empty cluster id.
     */
    ClusterInfo describeCluster();

    /**
     * Moves replicas between servers (what {@code tributary cluster rebalance} does): the servers
     * in {@code drain} are marked draining and those in {@code undrain} no longer; every replica on
     * a draining server moves to another server, then replicas move from the servers holding most
     * to those holding fewest until every alive server that is not draining holds within one of the
     * others. A draining server stays so, across its restarts, until undrained or removed: new
     * tables and later rebalances place no replica on it ({@link ClusterInfo.Server#draining}).
     * Each move starts at once and ends on its own: the new replicas copy the bucket's log from its
     * leader (throttled by their servers' {@code replica.move.max-bytes-per-second}), and once all
     * are in sync they replace the old ones; writes and reads go on meanwhile, and a leader that
     * moves away hands over to a new replica. {@code table describe} shows the buckets still
     * moving.
     *
     * @param drain servers to empty (e.g. before removing them); empty to only even out
     * @param undrain servers drained before that may receive replicas again
     * @param dryRun plan only, mark and start nothing
     * @return the moves planned (and started), one per bucket
     * @throws dev.tributary.common.exception.InvalidInputException if a server named is not
     *     registered or named in both sets, or a bucket has no other server to go to
     */
    List<ReplicaMove> moveReplicas(Set<Integer> drain, Set<Integer> undrain, boolean dryRun);

    /**
     * Cancels the replica moves under way (what {@code tributary cluster rebalance --cancel} does):
     * each moving bucket goes back to the replicas it held before its move, and the copies its move
     * added go (a copy that had caught up stays until the old replicas are all in sync again).
     * Servers stay marked draining: undrain them ({@link #moveReplicas(Set, Set, boolean)}) or the
     * next rebalance moves replicas off them again.
     *
     * @param dryRun list the moves only, cancel nothing
     * @return one per bucket that was moving: {@link ReplicaMove#from()} the target it was moving
     *     to, {@link ReplicaMove#to()} the replicas it goes back to
     */
    List<ReplicaMove> cancelReplicaMoves(boolean dryRun);

    /** {@link #moveReplicas(Set, Set, boolean)} undraining no server. */
    default List<ReplicaMove> moveReplicas(Set<Integer> drain, boolean dryRun) {
        return moveReplicas(drain, Set.of(), dryRun);
    }

    /**
     * Takes a server out of the cluster (what {@code tributary cluster remove-server} does): out of
     * the metadata quorum's configuration and out of the registered servers, so {@link
     * #describeCluster} no longer lists it. Only a server added to the running cluster (an
     * observer) can go, once it holds no replica ({@link #moveReplicas} with it in {@code drain})
     * and is stopped. Its data directory is left alone; started again, it joins again.
     *
     * @throws dev.tributary.common.exception.InvalidInputException naming what to do first: the
     *     server is not registered, is a voter, still heartbeats or still holds replicas
     */
    void removeServer(int serverId);
}
