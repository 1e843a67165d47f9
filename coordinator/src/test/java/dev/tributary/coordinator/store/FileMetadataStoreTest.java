package dev.tributary.coordinator.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.status.RoundSummary;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileMetadataStoreTest {
    @TempDir Path dir;

    private static TableInfo table(long id, String name) {
        Schema s =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("amount", DataTypes.DECIMAL(10, 2), "money")
                        .column("ts", DataTypes.TIMESTAMP(3))
                        .primaryKey("id")
                        .build();
        TableDescriptor d =
                TableDescriptor.builder(s)
                        .bucketCount(3)
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.freshness", "1min")
                        .comment("orders")
                        .build();
        TableInfo t = TableInfo.create(id, TablePath.of("db", name), d, 42);
        Schema s2 = s.addColumn(new Column("note", DataTypes.STRING()));
        TreeMap<Integer, Schema> schemas = new TreeMap<>(t.schemas());
        schemas.put(2, s2);
        return new TableInfo(id, t.path(), d.withSchema(s2), 2, schemas, 42, 43);
    }

    private static TieringRecord record(long id, long offset) {
        return new TieringRecord(
                id,
                new TreeMap<>(Map.of(0, offset, 2, offset * 2)),
                1000 + offset,
                7,
                offset,
                3_000_000_001L,
                offset,
                offset % 2 == 0,
                new RoundSummary(
                        3_000_000_001L,
                        offset,
                        "job",
                        0,
                        1,
                        2,
                        RoundSummary.Outcome.COMMITTED,
                        3,
                        4,
                        5,
                        6,
                        7,
                        true,
                        offset,
                        null));
    }

    @Test
    @DisplayName("state round-trips through the log and through a checkpoint")
    void roundTrip() {
        StoredState expected;
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            assertThat(s.startIncarnation()).isEqualTo(1);
            s.putDatabase(new DatabaseInfo("db", "a db", 5));
            s.putTable(table(1, "a"));
            s.putTable(table(2, "b"));
            assertThat(s.putTieringRecord(record(1, 10))).isTrue();
            s.removeTable(2);
            assertThat(s.putTieringRecord(record(2, 10))).isFalse();
            expected = s.load();
        }
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            assertThat(s.load()).isEqualTo(expected);
            assertThat(s.load().maxTableId()).isEqualTo(2);
            assertThat(s.startIncarnation()).isEqualTo(2);
            s.checkpoint();
            assertThat(s.logBytes()).isZero();
            expected = s.load();
        }
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            assertThat(s.load()).isEqualTo(expected);
            assertThat(s.load().tables().get(1L).schemas()).hasSize(2);
            assertThat(s.tieringRecord(1)).contains(record(1, 10));
        }
    }

    @Test
    @DisplayName("a registered server is recovered from the log and from a checkpoint")
    void serverRegistrationRecovered() {
        ServerRegistration first = new ServerRegistration(0, "localhost:9123", "localhost:8080", 1);
        ServerRegistration moved = new ServerRegistration(0, "localhost:9200", "", 2);
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            s.putServer(first);
        }
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            assertThat(s.load().servers()).containsExactly(Map.entry(0, first));
            s.putServer(moved);
            s.checkpoint();
            s.putServer(new ServerRegistration(3, "other:1", "", 3));
        }
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            assertThat(s.servers()).isEqualTo(s.load().servers());
            assertThat(s.load().servers())
                    .containsExactly(
                            Map.entry(0, moved),
                            Map.entry(3, new ServerRegistration(3, "other:1", "", 3)));
            s.removeServer(3);
            s.removeServer(9); // not registered: nothing
            s.setDraining(0, true);
            assertThat(s.servers().get(0).draining()).isTrue();
        }
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            assertThat(s.servers()).containsOnlyKeys(0);
            assertThat(s.load().servers()).containsOnlyKeys(0);
            assertThat(s.servers().get(0).draining()).as("from the log").isTrue();
            s.checkpoint();
        }
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            assertThat(s.servers().get(0).draining()).as("from the checkpoint").isTrue();
        }
    }

    @Test
    @DisplayName("a crash at any point of a write or checkpoint leaves the old or the new state")
    void crashAtEveryPoint() {
        List<String> points =
                List.of(
                        "log.before-append",
                        "log.after-write",
                        "checkpoint.tmp-written",
                        "checkpoint.renamed",
                        "checkpoint.log-truncated");
        int i = 0;
        for (String point : points) {
            Path d = dir.resolve("case" + i++);
            StoredState before;
            try (FileMetadataStore s = FileMetadataStore.open(d)) {
                s.putDatabase(new DatabaseInfo("db", null, 1));
                s.putTable(table(1, "a"));
                s.putTieringRecord(record(1, 10));
                before = s.load();
            }
            StoredState after;
            try (FileMetadataStore ref = FileMetadataStore.open(dir.resolve("ref" + i))) {
                ref.putDatabase(new DatabaseInfo("db", null, 1));
                ref.putTable(table(1, "a"));
                ref.putTieringRecord(record(1, 10));
                ref.putTieringRecord(record(1, 20));
                after = ref.load();
            }
            // A tiny checkpoint threshold makes the next write also checkpoint.
            FileMetadataStore crashing =
                    FileMetadataStore.open(
                            d,
                            1,
                            p -> {
                                if (p.equals(point)) {
                                    throw new SimulatedCrash(p);
                                }
                            });
            assertThatThrownBy(() -> crashing.putTieringRecord(record(1, 20)))
                    .isInstanceOf(SimulatedCrash.class);
            crashing.close();
            try (FileMetadataStore s = FileMetadataStore.open(d)) {
                StoredState got = s.load();
                if (point.startsWith("checkpoint")) {
                    assertThat(got).as(point).isEqualTo(after); // the append itself was durable
                } else {
                    assertThat(got).as(point).isIn(before, after);
                }
                s.putTieringRecord(record(1, 30));
            }
            try (FileMetadataStore s = FileMetadataStore.open(d)) {
                assertThat(s.tieringRecord(1)).as(point).contains(record(1, 30));
            }
        }
    }

    @Test
    @DisplayName(
            "an I/O error in a write or a checkpoint fails the store for good with a fault that is"
                    + " no caller's error; a restart recovers every durable record")
    void ioErrorsFailTheStoreForGood() {
        for (String point : List.of("log.after-write", "checkpoint.renamed")) {
            Path d = dir.resolve(point);
            try (FileMetadataStore s = FileMetadataStore.open(d)) {
                s.putDatabase(new DatabaseInfo("db", null, 1));
                s.putTable(table(1, "a"));
                s.putTieringRecord(record(1, 10));
            }
            FileMetadataStore failing =
                    FileMetadataStore.open(
                            d,
                            1,
                            p -> {
                                if (p.equals(point)) {
                                    throw new IOException("disk error at " + p);
                                }
                            });
            assertThatThrownBy(() -> failing.putTieringRecord(record(1, 20)))
                    .as(point)
                    .isInstanceOf(MetadataStoreFailedException.class)
                    .isNotInstanceOf(TributaryException.class)
                    .hasMessageContaining("disk error at " + point)
                    .hasMessageContaining("restart the server");
            // later writes are refused too: the log may end in a partial record
            assertThatThrownBy(() -> failing.putTable(table(2, "b")))
                    .as(point)
                    .isInstanceOf(MetadataStoreFailedException.class)
                    .hasMessageContaining("failed earlier");
            failing.close();
            try (FileMetadataStore s = FileMetadataStore.open(d)) {
                assertThat(s.load().tables().keySet()).as(point).containsExactly(1L);
                if (point.startsWith("checkpoint")) {
                    // the record was in the log before the checkpoint failed
                    assertThat(s.tieringRecord(1)).as(point).contains(record(1, 20));
                } else {
                    assertThat(s.tieringRecord(1).orElseThrow())
                            .as(point)
                            .isIn(record(1, 10), record(1, 20));
                }
            }
        }
    }

    @Test
    @DisplayName(
            "a torn last record (cut at any byte) is cut off on recovery; later writes survive")
    void tornTailAtEveryByte() throws IOException {
        Path src = dir.resolve("src");
        StoredState before;
        long lenBefore;
        try (FileMetadataStore s = FileMetadataStore.open(src)) {
            s.putDatabase(new DatabaseInfo("db", null, 1));
            s.putTable(table(1, "a"));
            before = s.load();
            lenBefore = s.logBytes();
            s.putTieringRecord(record(1, 10));
        }
        byte[] full = Files.readAllBytes(src.resolve(FileMetadataStore.LOG_FILE));
        for (long cut = lenBefore; cut < full.length; cut++) {
            Path d = dir.resolve("cut" + cut);
            Files.createDirectories(d);
            Files.write(d.resolve(FileMetadataStore.LOG_FILE), full);
            try (RandomAccessFile f =
                    new RandomAccessFile(d.resolve(FileMetadataStore.LOG_FILE).toFile(), "rw")) {
                f.setLength(cut);
            }
            try (FileMetadataStore s = FileMetadataStore.open(d)) {
                assertThat(s.load()).as("cut at %d", cut).isEqualTo(before);
                s.putTieringRecord(record(1, 11));
            }
            try (FileMetadataStore s = FileMetadataStore.open(d)) {
                assertThat(s.tieringRecord(1)).contains(record(1, 11));
            }
        }
    }

    @Test
    @DisplayName("a flipped byte in the last record is detected by its CRC")
    void corruptTailDetected() throws IOException {
        StoredState before;
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            s.putDatabase(new DatabaseInfo("db", null, 1));
            before = s.load();
            s.putDatabase(new DatabaseInfo("db2", null, 1));
        }
        Path log = dir.resolve(FileMetadataStore.LOG_FILE);
        byte[] b = Files.readAllBytes(log);
        b[b.length - 3] ^= 0x40;
        Files.write(log, b);
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            assertThat(s.load()).isEqualTo(before);
        }
    }

    @Test
    @DisplayName("a damaged checkpoint is reported, never silently ignored")
    void corruptCheckpoint() throws IOException {
        try (FileMetadataStore s = FileMetadataStore.open(dir)) {
            s.putDatabase(new DatabaseInfo("db", null, 1));
            s.checkpoint();
        }
        Path cp = dir.resolve(FileMetadataStore.CHECKPOINT_FILE);
        byte[] b = Files.readAllBytes(cp);
        b[10] ^= 1;
        Files.write(cp, b);
        assertThatThrownBy(() -> FileMetadataStore.open(dir))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("checksum");
    }

    private static final class SimulatedCrash extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SimulatedCrash(String point) {
            super("simulated crash at " + point);
        }
    }
}
