package dev.tributary.server.metrics;

import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.store.MetadataListener;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.coordinator.store.StoredState;
import dev.tributary.coordinator.store.TieringRecord;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Map;
import java.util.Optional;

/**
 * The coordinator's metadata store, with the latency of every durable write published as {@code
 * tributary.metadata.write} by operation (p50, p99): one fsync on a lone server, a quorum's commit
 * on a cluster (T49). A commit's record ({@code put_tiering_record}) sits on every round's path to
 * the next one, so its latency is part of the freshness a table can reach. Reads are not timed.
 */
public final class TimedMetadataStore implements MetadataStore {
    private final MetadataStore store;
    private final Timer putDatabase;
    private final Timer removeDatabase;
    private final Timer putTable;
    private final Timer removeTable;
    private final Timer putTieringRecord;
    private final Timer putPartition;
    private final Timer removePartition;
    private final Timer putServer;
    private final Timer removeServer;
    private final Timer setDraining;
    private final Timer putAssignment;
    private final Timer startIncarnation;

    public TimedMetadataStore(MetadataStore store, MeterRegistry registry) {
        this.store = store;
        this.putDatabase = timer(registry, "put_database");
        this.removeDatabase = timer(registry, "remove_database");
        this.putTable = timer(registry, "put_table");
        this.removeTable = timer(registry, "remove_table");
        this.putTieringRecord = timer(registry, "put_tiering_record");
        this.putPartition = timer(registry, "put_partition");
        this.removePartition = timer(registry, "remove_partition");
        this.putServer = timer(registry, "put_server");
        this.removeServer = timer(registry, "remove_server");
        this.setDraining = timer(registry, "set_draining");
        this.putAssignment = timer(registry, "put_assignment");
        this.startIncarnation = timer(registry, "start_incarnation");
    }

    private static Timer timer(MeterRegistry registry, String operation) {
        return Timer.builder("tributary.metadata.write")
                .description("Latency of a durable write of the coordinator's metadata")
                .tag("operation", operation)
                .publishPercentiles(0.5, 0.99)
                .register(registry);
    }

    @Override
    public StoredState load() {
        return store.load();
    }

    @Override
    public long startIncarnation() {
        return startIncarnation.record(() -> store.startIncarnation());
    }

    @Override
    public void putDatabase(DatabaseInfo database) {
        putDatabase.record(() -> store.putDatabase(database));
    }

    @Override
    public void removeDatabase(String name) {
        removeDatabase.record(() -> store.removeDatabase(name));
    }

    @Override
    public void putTable(TableInfo table) {
        putTable.record(() -> store.putTable(table));
    }

    @Override
    public void removeTable(long tableId) {
        removeTable.record(() -> store.removeTable(tableId));
    }

    @Override
    public boolean putTieringRecord(TieringRecord record) {
        return putTieringRecord.record(() -> store.putTieringRecord(record));
    }

    @Override
    public void putPartition(PartitionInfo partition) {
        putPartition.record(() -> store.putPartition(partition));
    }

    @Override
    public void removePartition(long tableId, long partitionId) {
        removePartition.record(() -> store.removePartition(tableId, partitionId));
    }

    @Override
    public void putServer(ServerRegistration server) {
        putServer.record(() -> store.putServer(server));
    }

    @Override
    public void removeServer(int serverId) {
        removeServer.record(() -> store.removeServer(serverId));
    }

    @Override
    public void setDraining(int serverId, boolean draining) {
        setDraining.record(() -> store.setDraining(serverId, draining));
    }

    @Override
    public Map<Integer, ServerRegistration> servers() {
        return store.servers();
    }

    @Override
    public boolean putAssignment(BucketAssignment assignment) {
        return putAssignment.record(() -> store.putAssignment(assignment));
    }

    @Override
    public void setListener(MetadataListener listener) {
        store.setListener(listener);
    }

    @Override
    public Optional<TieringRecord> tieringRecord(long tableId) {
        return store.tieringRecord(tableId);
    }

    @Override
    public void close() {
        store.close();
    }

    @Override
    public long lastLogIndex() {
        return store.lastLogIndex();
    }

    @Override
    public long appliedIndex() {
        return store.appliedIndex();
    }
}
