package dev.tributary.coordinator.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.TableInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetadataImageTest {
    @TempDir Path dir;

    static TableInfo table(long id, String name) {
        Schema s =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("dt", DataTypes.STRING())
                        .primaryKey("id", "dt")
                        .build();
        return TableInfo.create(
                id,
                TablePath.of("db", name),
                TableDescriptor.builder(s).partitionKeys("dt").bucketCount(2).build(),
                10);
    }

    static TieringRecord record(long tableId, long offset) {
        return TieringRecord.initial(tableId, 1)
                .afterRound(
                        Map.of(new PartitionBucket(5, 0), offset, new PartitionBucket(5, 1), 3L),
                        100,
                        9,
                        (2L << 32) + 1,
                        1,
                        false,
                        null);
    }

    @Test
    @DisplayName("records apply with their results; the checkpoint round-trips the whole image")
    void applyAndCheckpointRoundTrip() {
        MetadataImage image = new MetadataImage();
        assertThat(image.apply(MetadataRecords.nextIncarnation())).isEqualTo(1);
        assertThat(image.apply(MetadataRecords.nextIncarnation())).isEqualTo(2);
        image.apply(MetadataRecords.putDatabase(new DatabaseInfo("db", "c", 1)));
        image.apply(MetadataRecords.putDatabase(new DatabaseInfo("gone", null, 1)));
        image.apply(MetadataRecords.removeDatabase("gone"));
        image.apply(MetadataRecords.putTable(table(1, "a")));
        image.apply(MetadataRecords.putTable(table(7, "b")));
        PartitionInfo p = PartitionInfo.create(1, 5, PartitionSpec.of("dt", "x"), 3);
        assertThat(image.apply(MetadataRecords.putPartition(p))).isEqualTo(1);
        assertThat(image.apply(MetadataRecords.putTieringRecord(record(1, 10)))).isEqualTo(1);
        assertThat(image.apply(MetadataRecords.putTieringRecord(record(7, 10)))).isEqualTo(1);
        image.apply(MetadataRecords.removeTable(7));
        // a commit finishing after the DROP must not resurrect the table's record
        assertThat(image.apply(MetadataRecords.putTieringRecord(record(7, 11)))).isZero();
        PartitionInfo orphan = PartitionInfo.create(7, 9, PartitionSpec.of("dt", "y"), 3);
        assertThat(image.apply(MetadataRecords.putPartition(orphan))).isZero();

        StoredState s = image.snapshot();
        assertThat(s.incarnation()).isEqualTo(2);
        assertThat(s.databases()).containsOnlyKeys("db");
        assertThat(s.tables()).containsOnlyKeys(1L);
        assertThat(s.maxTableId()).isEqualTo(7);
        assertThat(s.maxPartitionId()).isEqualTo(9);
        assertThat(s.partitions()).containsOnlyKeys(5L);
        assertThat(s.tiering()).containsOnlyKeys(1L);
        assertThat(image.tieringRecord(1)).contains(record(1, 10));

        byte[] cp = image.toCheckpoint(42);
        MetadataImage back = MetadataImage.fromCheckpoint(cp, "test");
        assertThat(back.snapshot()).isEqualTo(s);
        assertThat(back.checkpointSeq()).isEqualTo(42);
        assertThat(back.toCheckpoint(42)).isEqualTo(cp);

        // removing the partition drops its offsets from the record too (T33)
        back.apply(MetadataRecords.removePartition(1, 5));
        assertThat(back.snapshot().partitions()).isEmpty();
        assertThat(back.tieringRecord(1).orElseThrow().offsets().partitionIds()).isEmpty();
        assertThat(back.apply(MetadataRecords.nextIncarnation())).isEqualTo(3);
    }

    @Test
    @DisplayName("the file store writes the same record bytes and reads the same checkpoint")
    void fileStoreSharesTheEncoding() throws IOException {
        TableInfo t = table(3, "c");
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            s.putTable(t);
        }
        byte[] log = Files.readAllBytes(dir.resolve(FileMetadataStore.LOG_FILE));
        byte[] rec = MetadataRecords.putTable(t);
        // length, crc, sequence number, then the record itself
        assertThat(Arrays.copyOfRange(log, 16, log.length)).isEqualTo(rec);

        MetadataImage image = new MetadataImage();
        image.apply(rec);
        StoredState expected;
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            expected = s.load();
            s.checkpoint();
        }
        assertThat(image.snapshot()).isEqualTo(expected);
        byte[] cp = Files.readAllBytes(dir.resolve(FileMetadataStore.CHECKPOINT_FILE));
        assertThat(cp).isEqualTo(image.toCheckpoint(1));
    }

    @Test
    @DisplayName("unknown, truncated, padded or damaged bytes are corrupt data; the image is kept")
    void corruptInput() {
        MetadataImage image = new MetadataImage();
        image.apply(MetadataRecords.putTable(table(1, "a")));
        StoredState before = image.snapshot();
        byte[] table = MetadataRecords.putTable(table(2, "b"));

        assertThatThrownBy(() -> image.apply(new byte[] {99}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("unknown coordinator log record type 99");
        assertThatThrownBy(() -> image.apply(new byte[0])).isInstanceOf(CorruptDataException.class);
        assertThatThrownBy(() -> image.apply(Arrays.copyOf(table, table.length - 3)))
                .isInstanceOf(CorruptDataException.class);
        assertThatThrownBy(() -> image.apply(Arrays.copyOf(table, table.length + 1)))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("unexpected bytes");
        // a count far beyond what the bytes can hold is refused before anything is allocated
        byte[] hugeCount = {MetadataRecords.PUT_DB, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x7F};
        assertThatThrownBy(() -> image.apply(hugeCount)).isInstanceOf(CorruptDataException.class);
        assertThat(image.snapshot()).isEqualTo(before);

        byte[] cp = image.toCheckpoint(1);
        cp[10] ^= 1;
        assertThatThrownBy(() -> MetadataImage.fromCheckpoint(cp, "cp-file"))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("cp-file")
                .hasMessageContaining("checksum");
        assertThatThrownBy(() -> MetadataImage.fromCheckpoint(new byte[3], "x"))
                .isInstanceOf(CorruptDataException.class);
    }
}
