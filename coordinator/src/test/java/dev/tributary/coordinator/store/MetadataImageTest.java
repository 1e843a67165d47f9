package dev.tributary.coordinator.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.PartitionBucket;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
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
    @DisplayName("server registrations apply by id (a later one replaces) and survive a checkpoint")
    void serverRegistrations() {
        MetadataImage image = new MetadataImage();
        image.apply(MetadataRecords.putServer(new ServerRegistration(2, "h2:9123", "", 5)));
        image.apply(MetadataRecords.putServer(new ServerRegistration(1, "h1:9123", "h1:8080", 6)));
        ServerRegistration moved = new ServerRegistration(2, "h2:9200", "h2:8081", 7);
        assertThat(image.apply(MetadataRecords.putServer(moved))).isZero();

        StoredState s = image.snapshot();
        assertThat(s.servers()).containsOnlyKeys(1, 2);
        assertThat(s.servers().get(2)).isEqualTo(moved);
        assertThat(s.servers().get(1).hasHttp()).isTrue();
        assertThat(image.servers()).isEqualTo(s.servers());

        byte[] cp = image.toCheckpoint(9);
        MetadataImage back = MetadataImage.fromCheckpoint(cp, "test");
        assertThat(back.snapshot()).isEqualTo(s);
        assertThat(back.snapshot().servers().get(2)).isEqualTo(moved);
        assertThat(back.toCheckpoint(9)).isEqualTo(cp);
    }

    @Test
    @DisplayName(
            "a drain mark outlives the server's re-registration, goes with its removal, and is in"
                    + " a checkpoint (of the newer layout only while a server drains)")
    void drainMarks() {
        MetadataImage image = new MetadataImage();
        image.apply(MetadataRecords.putServer(new ServerRegistration(1, "h1:9123", "", 5)));
        image.apply(MetadataRecords.putServer(new ServerRegistration(2, "h2:9123", "", 5)));
        byte[] before = image.toCheckpoint(3);
        assertThat(checkpointVersion(before)).as("no drains: the layout before them").isEqualTo(6);

        image.apply(MetadataRecords.setDraining(2, true));
        image.apply(MetadataRecords.setDraining(7, true)); // not registered: nothing
        assertThat(image.servers()).containsOnlyKeys(1, 2);
        image.apply(MetadataRecords.putServer(new ServerRegistration(2, "h2:9200", "", 6, "d")));
        ServerRegistration two = image.servers().get(2);
        assertThat(two.draining()).as("kept across a restart").isTrue();
        assertThat(two.rpcAddress()).isEqualTo("h2:9200");
        assertThat(image.servers().get(1).draining()).isFalse();

        byte[] cp = image.toCheckpoint(4);
        assertThat(checkpointVersion(cp)).isEqualTo(7);
        MetadataImage back = MetadataImage.fromCheckpoint(cp, "test");
        assertThat(back.snapshot()).isEqualTo(image.snapshot());
        assertThat(MetadataImage.fromCheckpoint(before, "test").servers().get(2).draining())
                .isFalse();

        back.apply(MetadataRecords.setDraining(2, false));
        assertThat(back.servers().get(2).draining()).isFalse();
        image.apply(MetadataRecords.removeServer(2));
        image.apply(MetadataRecords.putServer(new ServerRegistration(2, "h2:9123", "", 8)));
        assertThat(image.servers().get(2).draining()).as("removed, then new").isFalse();

        byte[] damaged = MetadataRecords.setDraining(1, true);
        damaged[damaged.length - 1] = 2;
        assertThatThrownBy(() -> image.apply(damaged))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("flag");
    }

    private static int checkpointVersion(byte[] checkpoint) {
        dev.tributary.common.io.BinaryReader r =
                new dev.tributary.common.io.BinaryReader(checkpoint);
        r.readInt(); // magic
        return r.readInt();
    }

    @Test
    @DisplayName(
            "T53 a server's storage id round-trips through records and checkpoints; a registration"
                    + " record from before storage ids still applies, with none")
    void storageIds() {
        MetadataImage image = new MetadataImage();
        ServerRegistration withId = new ServerRegistration(3, "h3:9123", "", 5, "disk-a");
        image.apply(MetadataRecords.putServer(withId));
        BinaryWriter old = new BinaryWriter(64);
        old.writeByte(MetadataRecords.PUT_SERVER);
        old.writeVarInt(4);
        old.writeString("h4:9123");
        old.writeString("");
        old.writeLong(6);
        image.apply(old.toByteArray());

        StoredState s = image.snapshot();
        assertThat(s.servers().get(3).storageId()).isEqualTo("disk-a");
        assertThat(s.servers().get(4).storageId()).isEmpty();
        MetadataImage back = MetadataImage.fromCheckpoint(image.toCheckpoint(3), "test");
        assertThat(back.snapshot().servers()).isEqualTo(s.servers());
        assertThatThrownBy(() -> withId.withStorageId("x".repeat(65)))
                .isInstanceOf(dev.tributary.common.exception.InvalidInputException.class);
    }

    @Test
    @DisplayName(
            "bucket assignments apply only for existing tables and partitions, go with them and"
                    + " survive a checkpoint")
    void bucketAssignments() {
        MetadataImage image = new MetadataImage();
        image.apply(MetadataRecords.putTable(table(1, "partitioned")));
        image.apply(
                MetadataRecords.putPartition(
                        PartitionInfo.create(1, 5, PartitionSpec.of("dt", "x"), 3)));
        image.apply(
                MetadataRecords.putPartition(
                        PartitionInfo.create(1, 6, PartitionSpec.of("dt", "y"), 3)));
        TableInfo plain =
                TableInfo.create(
                        2,
                        TablePath.of("db", "plain"),
                        TableDescriptor.builder(
                                        Schema.newBuilder().column("id", DataTypes.INT()).build())
                                .bucketCount(3)
                                .build(),
                        10);
        image.apply(MetadataRecords.putTable(plain));
        BucketAssignment p5 = BucketAssignment.ofServers(1, 5, List.of(1, 2));
        BucketAssignment p6 = BucketAssignment.ofServers(1, 6, List.of(2, 1));
        BucketAssignment t2 =
                BucketAssignment.ofServers(2, TableBucket.NO_PARTITION, List.of(1, 2, 1));
        assertThat(image.apply(MetadataRecords.putAssignment(p5))).isEqualTo(1);
        assertThat(image.apply(MetadataRecords.putAssignment(p6))).isEqualTo(1);
        assertThat(image.apply(MetadataRecords.putAssignment(t2))).isEqualTo(1);
        assertThat(
                        image.apply(
                                MetadataRecords.putAssignment(
                                        BucketAssignment.ofServers(9, -1, List.of(1)))))
                .as("unknown table")
                .isZero();
        assertThat(
                        image.apply(
                                MetadataRecords.putAssignment(
                                        BucketAssignment.ofServers(2, 5, List.of(1)))))
                .as("a partition of another table")
                .isZero();
        assertThat(image.snapshot().assignments().values()).containsExactly(p5, p6, t2);

        byte[] cp = image.toCheckpoint(3);
        MetadataImage back = MetadataImage.fromCheckpoint(cp, "test");
        assertThat(back.snapshot()).isEqualTo(image.snapshot());
        assertThat(back.toCheckpoint(3)).isEqualTo(cp);

        back.apply(MetadataRecords.removePartition(1, 5));
        assertThat(back.snapshot().assignments().values()).containsExactly(p6, t2);
        back.apply(MetadataRecords.removeTable(1));
        assertThat(back.snapshot().assignments().values()).containsExactly(t2);
        assertThatThrownBy(() -> BucketAssignment.ofServers(2, -1, List.of()))
                .isInstanceOf(dev.tributary.common.exception.InvalidInputException.class);
    }

    @Test
    @DisplayName(
            "replicas, leaders and in-sync sets round-trip through records and checkpoints; the"
                    + " single-replica layout before them is still read")
    void replicatedAssignments() {
        MetadataImage image = new MetadataImage();
        image.apply(MetadataRecords.putTable(table(1, "t1")));
        image.apply(MetadataRecords.putTable(table(2, "t2")));
        BucketAssignment replicated =
                new BucketAssignment(
                        1,
                        TableBucket.NO_PARTITION,
                        List.of(
                                new BucketReplicas(List.of(1, 2, 3), 2, 7, List.of(1, 2)),
                                new BucketReplicas(
                                        List.of(3, 1, 2),
                                        BucketReplicas.NO_LEADER,
                                        2,
                                        List.of(3))));
        assertThat(image.apply(MetadataRecords.putAssignment(replicated))).isEqualTo(1);

        // a record written before T50: type 13, one server id per bucket
        BinaryWriter w = new BinaryWriter(64);
        w.writeByte(MetadataRecords.PUT_ASSIGNMENT);
        w.writeLong(2);
        w.writeLong(TableBucket.NO_PARTITION);
        w.writeVarInt(2);
        w.writeVarInt(4);
        w.writeVarInt(5);
        assertThat(image.apply(w.toByteArray())).isEqualTo(1);
        BucketAssignment old =
                BucketAssignment.ofServers(2, TableBucket.NO_PARTITION, List.of(4, 5));
        assertThat(image.snapshot().assignments().values()).containsExactly(replicated, old);
        assertThat(old.replicasOf(1)).isEqualTo(BucketReplicas.single(5));

        MetadataImage back = MetadataImage.fromCheckpoint(image.toCheckpoint(8), "test");
        assertThat(back.snapshot()).isEqualTo(image.snapshot());
        assertThat(back.snapshot().assignments().values().iterator().next().serverOf(1))
                .isEqualTo(BucketReplicas.NO_LEADER);
    }

    @Test
    @DisplayName(
            "a moving bucket's target round-trips through records and checkpoints; a group without"
                    + " moves is written in the layout before moves")
    void moveTargets() {
        MetadataImage image = new MetadataImage();
        image.apply(MetadataRecords.putTable(table(1, "t1")));
        BucketAssignment still =
                new BucketAssignment(
                        1,
                        TableBucket.NO_PARTITION,
                        List.of(
                                BucketReplicas.initial(List.of(1, 2)),
                                BucketReplicas.initial(List.of(2, 1))));
        byte[] plain = MetadataRecords.putAssignment(still);
        assertThat(plain[0]).isEqualTo(MetadataRecords.PUT_ASSIGNMENT_V2);
        BucketAssignment moving = still.withBucket(1, still.replicasOf(1).moveTo(List.of(3, 1)));
        byte[] record = MetadataRecords.putAssignment(moving);
        assertThat(record[0]).isEqualTo(MetadataRecords.PUT_ASSIGNMENT_V3);
        assertThat(image.apply(record)).isEqualTo(1);
        BucketReplicas back =
                image.snapshot().assignments().values().iterator().next().replicasOf(1);
        assertThat(back.replicas()).containsExactly(2, 1, 3);
        assertThat(back.target()).containsExactly(3, 1);
        assertThat(back.isr()).containsExactly(2, 1);

        MetadataImage restored = MetadataImage.fromCheckpoint(image.toCheckpoint(3), "test");
        assertThat(restored.snapshot()).isEqualTo(image.snapshot());
    }

    @Test
    @DisplayName("a version 3 checkpoint (one replica per bucket) is still read")
    void versionThreeCheckpointStillRead() {
        TableInfo t = table(3, "v3");
        BinaryWriter w = new BinaryWriter(1024);
        w.writeInt(0x54524d43);
        w.writeInt(3);
        w.writeLong(11); // sequence
        w.writeLong(5); // incarnation
        w.writeLong(3); // max table id
        w.writeVarInt(1);
        MetadataCodec.writeDatabase(w, new DatabaseInfo("db", null, 1));
        w.writeVarInt(1);
        MetadataCodec.writeTable(w, t, 3);
        w.writeVarInt(0); // tiering records
        w.writeVarInt(0); // partitions
        w.writeLong(0); // max partition id
        w.writeVarInt(1); // a server, in the layout before T53
        w.writeVarInt(1);
        w.writeString("localhost:1");
        w.writeString("");
        w.writeLong(2);
        w.writeVarInt(1); // assignments, in the layout before T50
        w.writeLong(3);
        w.writeLong(TableBucket.NO_PARTITION);
        w.writeVarInt(3);
        w.writeVarInt(1);
        w.writeVarInt(1);
        w.writeVarInt(1);
        CRC32C crc = new CRC32C();
        crc.update(w.buffer(), 0, w.position());
        w.writeInt((int) crc.getValue());

        StoredState s = MetadataImage.fromCheckpoint(w.toByteArray(), "v3").snapshot();
        assertThat(s.servers().get(1)).isEqualTo(new ServerRegistration(1, "localhost:1", "", 2));
        assertThat(s.assignments().values())
                .containsExactly(
                        BucketAssignment.ofServers(3, TableBucket.NO_PARTITION, List.of(1, 1, 1)));
    }

    @Test
    @DisplayName("a malformed registration is corrupt data, not applied")
    void malformedServerRegistration() {
        BinaryWriter w = new BinaryWriter(64);
        w.writeByte(MetadataRecords.PUT_SERVER);
        w.writeVarInt(1);
        w.writeString("no-port");
        w.writeString("");
        w.writeLong(1);
        MetadataImage image = new MetadataImage();
        assertThatThrownBy(() -> image.apply(w.toByteArray()))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("server registration");
        assertThat(image.snapshot().servers()).isEmpty();
        assertThatThrownBy(() -> new ServerRegistration(-1, "h:1", "", 0))
                .isInstanceOf(dev.tributary.common.exception.InvalidInputException.class);
        assertThatThrownBy(() -> new ServerRegistration(1, "h:1", "h:", 0))
                .isInstanceOf(dev.tributary.common.exception.InvalidInputException.class);
    }

    @Test
    @DisplayName("a version 2 checkpoint (before server registrations) is still read")
    void versionTwoCheckpointStillRead() {
        TableInfo t = table(3, "v2");
        PartitionInfo p = PartitionInfo.create(3, 4, PartitionSpec.of("dt", "x"), 3);
        BinaryWriter w = new BinaryWriter(1024);
        w.writeInt(0x54524d43);
        w.writeInt(2); // the layout before server registrations
        w.writeLong(11); // sequence
        w.writeLong(5); // incarnation
        w.writeLong(3); // max table id
        w.writeVarInt(1);
        MetadataCodec.writeDatabase(w, new DatabaseInfo("db", null, 1));
        w.writeVarInt(1);
        MetadataCodec.writeTable(w, t, 2);
        w.writeVarInt(1);
        MetadataCodec.writeTiering(w, record(3, 10), 2);
        w.writeVarInt(1);
        MetadataCodec.writePartition(w, p);
        w.writeLong(4); // max partition id
        CRC32C crc = new CRC32C();
        crc.update(w.buffer(), 0, w.position());
        w.writeInt((int) crc.getValue());

        MetadataImage image = MetadataImage.fromCheckpoint(w.toByteArray(), "v2");
        StoredState s = image.snapshot();
        assertThat(image.checkpointSeq()).isEqualTo(11);
        assertThat(s.incarnation()).isEqualTo(5);
        assertThat(s.tables()).containsEntry(3L, t);
        assertThat(s.partitions()).containsEntry(4L, p);
        assertThat(s.tiering()).containsEntry(3L, record(3, 10));
        assertThat(s.maxPartitionId()).isEqualTo(4);
        assertThat(s.servers()).isEmpty();
        // the next checkpoint is written in the current layout and holds servers from then on
        image.apply(MetadataRecords.putServer(new ServerRegistration(0, "localhost:1", "", 2)));
        MetadataImage back = MetadataImage.fromCheckpoint(image.toCheckpoint(12), "v3");
        assertThat(back.snapshot()).isEqualTo(image.snapshot());
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
