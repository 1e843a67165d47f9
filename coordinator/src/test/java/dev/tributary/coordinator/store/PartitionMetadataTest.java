package dev.tributary.coordinator.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.PartitionState;
import dev.tributary.coordinator.metadata.TableInfo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Partitions and per-(partition, bucket) offsets in the durable metadata (T30, T32, T33). */
class PartitionMetadataTest {
    @TempDir Path dir;

    private static TableInfo partitioned(long id) {
        Schema s =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("dt", DataTypes.DATE())
                        .primaryKey("id", "dt")
                        .build();
        return TableInfo.create(
                id,
                TablePath.of("db", "orders"),
                TableDescriptor.builder(s).partitionKeys("dt").bucketCount(4).build(),
                10);
    }

    @Test
    void t30_partitionsAndPartitionedOffsetsSurviveTheLogAndACheckpoint() {
        TableInfo t = partitioned(3);
        PartitionInfo p1 = PartitionInfo.create(3, 1, PartitionSpec.of("dt", "2026-12-01"), 5);
        PartitionInfo p2 = PartitionInfo.create(3, 2, PartitionSpec.of("dt", "2026-12-02"), 6);
        TieringRecord r =
                TieringRecord.initial(3, 1)
                        .afterRound(
                                Map.of(
                                        new PartitionBucket(1, 0), 10L,
                                        new PartitionBucket(1, 3), 4L,
                                        new PartitionBucket(2, 1), 7L),
                                100,
                                9,
                                2_000_000_001L,
                                1,
                                false,
                                null);
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            s.putDatabase(new DatabaseInfo("db", null, 1));
            s.putTable(t);
            s.putPartition(p1);
            s.putPartition(p2);
            s.putPartition(p1.dropping(50, true));
            s.putTieringRecord(r);
        }
        for (int pass = 0; pass < 2; pass++) {
            try (FileMetadataStore s = FileMetadataStore.open(dir)) {
                StoredState st = s.load();
                assertThat(st.tables().get(3L).descriptor().partitionKeys()).containsExactly("dt");
                assertThat(st.partitions()).containsOnlyKeys(1L, 2L);
                assertThat(st.partitions().get(1L).state()).isEqualTo(PartitionState.DROPPING);
                assertThat(st.partitions().get(1L).dropLakePartition()).isTrue();
                assertThat(st.partitions().get(2L)).isEqualTo(p2);
                assertThat(st.maxPartitionId()).isEqualTo(2);
                assertThat(st.tiering().get(3L).offsets()).isEqualTo(r.offsets());
                s.checkpoint(); // the second pass reads the checkpoint instead of the log
            }
        }
    }

    @Test
    void t33_removingAPartitionRemovesItsOffsetsAtomicallyAndItsIdIsNeverReused() {
        TableInfo t = partitioned(3);
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            s.putDatabase(new DatabaseInfo("db", null, 1));
            s.putTable(t);
            s.putPartition(PartitionInfo.create(3, 1, PartitionSpec.of("dt", "2026-12-01"), 5));
            s.putTieringRecord(
                    TieringRecord.initial(3, 1)
                            .afterRound(
                                    Map.of(new PartitionBucket(1, 0), 10L),
                                    100,
                                    9,
                                    1,
                                    1,
                                    false,
                                    null));
            s.removePartition(3, 1);
        }
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            StoredState st = s.load();
            assertThat(st.partitions()).isEmpty();
            assertThat(st.tiering().get(3L).offsets().isEmpty()).isTrue();
            assertThat(st.maxPartitionId()).as("the id stays used").isEqualTo(1);
            s.removeTable(3);
            s.checkpoint();
        }
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            assertThat(s.load().maxPartitionId()).isEqualTo(1);
        }
    }

    @Test
    void aCheckpointOfTheLayoutBeforePartitionsIsStillRead() throws Exception {
        Schema s = Schema.newBuilder().column("id", DataTypes.BIGINT()).primaryKey("id").build();
        TableInfo t =
                TableInfo.create(
                        4,
                        TablePath.of("db", "old"),
                        TableDescriptor.builder(s).bucketCount(2).build(),
                        9);
        TieringRecord r =
                new TieringRecord(
                        4, new TreeMap<>(Map.of(0, 5L, 1, 8L)), 10, 1, 3, 1, 2, false, null);
        BinaryWriter w = new BinaryWriter(1024);
        w.writeInt(0x54524d43);
        w.writeInt(1); // the layout before T30
        w.writeLong(17); // sequence
        w.writeLong(2); // incarnation
        w.writeLong(4); // max table id
        w.writeVarInt(1);
        MetadataCodec.writeDatabase(w, new DatabaseInfo("db", null, 1));
        w.writeVarInt(1);
        MetadataCodec.writeTable(w, t, 1);
        w.writeVarInt(1);
        MetadataCodec.writeTiering(w, r, 1);
        CRC32C crc = new CRC32C();
        crc.update(w.buffer(), 0, w.position());
        w.writeInt((int) crc.getValue());
        Files.createDirectories(dir);
        Files.write(
                dir.resolve(FileMetadataStore.CHECKPOINT_FILE),
                java.util.Arrays.copyOf(w.buffer(), w.position()));
        try (FileMetadataStore store = FileMetadataStore.open(dir)) {
            StoredState st = store.load();
            assertThat(st.tables().get(4L)).isEqualTo(t);
            assertThat(st.tiering().get(4L).tieredOffsets())
                    .containsExactly(Map.entry(0, 5L), Map.entry(1, 8L));
            assertThat(st.incarnation()).isEqualTo(2);
            assertThat(st.partitions()).isEmpty();
        }
    }
}
