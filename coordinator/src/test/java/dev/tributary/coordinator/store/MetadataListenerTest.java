package dev.tributary.coordinator.store;

import static dev.tributary.coordinator.store.MetadataImageTest.record;
import static dev.tributary.coordinator.store.MetadataImageTest.table;
import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.PartitionSpec;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.ServerRegistration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** T49: every server learns its tables from the applied metadata, in log order. */
class MetadataListenerTest {
    @TempDir Path dir;

    /** What a listener was told, as text, in order. */
    static final class Recorder implements MetadataListener {
        final List<String> events = new ArrayList<>();
        final List<StoredState> resets = new ArrayList<>();
        boolean fail;

        @Override
        public void onReset(StoredState state) {
            resets.add(state);
            events.add("reset " + state.tables().keySet());
        }

        @Override
        public void onTableChanged(long tableId, Optional<AppliedTable> table) {
            events.add(
                    table.map(
                                    t ->
                                            "table "
                                                    + tableId
                                                    + " schema "
                                                    + t.table().schemaId()
                                                    + " partitions "
                                                    + t.partitions().stream()
                                                            .map(PartitionInfo::partitionId)
                                                            .toList()
                                                    + " assigned "
                                                    + new java.util.TreeMap<>(t.assignments())
                                                            .keySet())
                            .orElse("removed " + tableId));
            if (fail) {
                throw new IllegalStateException("a listener that fails");
            }
        }
    }

    @Test
    @DisplayName(
            "T49: tables, partitions and assignments are told with the table as it is now; tiering"
                    + " records, databases and servers are not")
    void tellsTheTablesARecordChanged() {
        MetadataImage image = new MetadataImage();
        Recorder r = new Recorder();
        image.listener(r);
        image.apply(MetadataRecords.putDatabase(new DatabaseInfo("db", null, 1)));
        image.apply(MetadataRecords.putServer(new ServerRegistration(1, "h:1", "", 1)));
        image.apply(MetadataRecords.putTable(table(1, "a")));
        image.apply(
                MetadataRecords.putPartition(
                        PartitionInfo.create(1, 5, PartitionSpec.of("dt", "x"), 3)));
        image.apply(MetadataRecords.putAssignment(BucketAssignment.ofServers(1, 5, List.of(1, 2))));
        image.apply(MetadataRecords.putTieringRecord(record(1, 10)));
        image.apply(MetadataRecords.nextIncarnation());
        // records about a table that is gone change nothing and tell nothing
        image.apply(
                MetadataRecords.putPartition(
                        PartitionInfo.create(9, 6, PartitionSpec.of("dt", "y"), 3)));
        image.apply(
                MetadataRecords.putAssignment(BucketAssignment.ofServers(9, -1, List.of(1, 2))));
        image.apply(MetadataRecords.removePartition(1, 5));
        image.apply(MetadataRecords.removeTable(1));

        assertThat(r.events)
                .containsExactly(
                        "table 1 schema 1 partitions [] assigned []",
                        "table 1 schema 1 partitions [5] assigned []",
                        "table 1 schema 1 partitions [5] assigned [5]",
                        "table 1 schema 1 partitions [] assigned []",
                        "removed 1");
    }

    @Test
    @DisplayName(
            "T49: a failing listener never undoes a record; the file store tells the whole state"
                    + " when the listener is set, then each change, also after a restart")
    void fileStoreResetThenChanges() {
        try (FileMetadataStore store = FileMetadataStore.open(dir)) {
            store.putDatabase(new DatabaseInfo("db", null, 1));
            store.putTable(table(1, "a"));
            Recorder r = new Recorder();
            store.setListener(r);
            r.fail = true;
            store.putTable(table(2, "b"));
            store.removeTable(1);
            assertThat(r.events)
                    .containsExactly(
                            "reset [1]", "table 2 schema 1 partitions [] assigned []", "removed 1");
            assertThat(store.load().tables()).containsOnlyKeys(2L);
        }
        try (FileMetadataStore store = FileMetadataStore.open(dir)) {
            Recorder r = new Recorder();
            store.setListener(r);
            assertThat(r.events).containsExactly("reset [2]");
            assertThat(r.resets.get(0)).isEqualTo(store.load());
        }
    }

    @Test
    @DisplayName(
            "T49: a reset's tables pick their own partitions and assignments, the same as one"
                    + " table at a time")
    void allOfGroupsPartitionsByTable() {
        var t1 = table(1, "a");
        var t2 = table(2, "b");
        List<PartitionInfo> partitions =
                List.of(
                        PartitionInfo.create(2, 12, PartitionSpec.of("dt", "y"), 3),
                        PartitionInfo.create(1, 11, PartitionSpec.of("dt", "x"), 3),
                        PartitionInfo.create(2, 10, PartitionSpec.of("dt", "z"), 3),
                        PartitionInfo.create(7, 13, PartitionSpec.of("dt", "w"), 3));
        var assignments = new java.util.HashMap<BucketAssignment.Group, BucketAssignment>();
        for (BucketAssignment a :
                List.of(
                        BucketAssignment.ofServers(2, 10, List.of(1)),
                        BucketAssignment.ofServers(1, -1, List.of(2)),
                        BucketAssignment.ofServers(7, 13, List.of(3)))) {
            assignments.put(a.group(), a);
        }
        List<AppliedTable> all = AppliedTable.allOf(List.of(t1, t2), partitions, assignments);
        assertThat(all)
                .containsExactly(
                        AppliedTable.of(t1, partitions, assignments),
                        AppliedTable.of(t2, partitions, assignments));
        assertThat(all.get(1).partitions())
                .extracting(PartitionInfo::partitionId)
                .containsExactly(10L, 12L);
        assertThat(all.get(1).assignments()).containsOnlyKeys(10L);
        assertThat(all.get(0).assignments()).containsOnlyKeys(-1L);
    }
}
