package dev.tributary.storage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.LogBatch;
import dev.tributary.common.record.LogBatches;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.record.WriteBatch;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A log written in format version 1 (before T42; see {@code format-v1/README.md}) still opens,
 * reads, rebuilds its KV state, and takes new version-2 batches after the old ones.
 */
class FormatV1CompatibilityTest {
    private static final Schema LOG =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT().notNull())
                    .column("name", DataTypes.STRING())
                    .build();
    private static final Schema PK =
            Schema.newBuilder()
                    .column("k", DataTypes.INT())
                    .column("v", DataTypes.STRING().notNull())
                    .primaryKey("k")
                    .build();
    private static final TableBucket LOG_BUCKET = new TableBucket(1, 0);
    private static final TableBucket PK_BUCKET = new TableBucket(2, 0);
    private static final Configuration CONF =
            new Configuration()
                    .setString("log.segment.size", "1kb")
                    .setString("log.index.interval", "256b");

    @TempDir Path dir;
    private final ManualClock clock = new ManualClock(1_800_000_000_000L);

    @BeforeEach
    void copyTheOldLog() throws IOException, URISyntaxException {
        Path source = Path.of(getClass().getResource("/format-v1/tables").toURI());
        try (Stream<Path> files = Files.walk(source)) {
            for (Path f : files.toList()) {
                Path target = dir.resolve("tables").resolve(source.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(f, target);
                }
            }
        }
    }

    private BucketStore open() {
        BucketStore store = BucketStore.open(dir, CONF, clock);
        store.openTable(1, TableDescriptor.builder(LOG).bucketCount(1).build(), 0, LOG);
        store.openTable(2, TableDescriptor.builder(PK).bucketCount(1).build(), 0, PK);
        return store;
    }

    /** The PK state after the old writes (see the README). */
    private static Map<Integer, String> oldPkState() {
        TreeMap<Integer, String> m = new TreeMap<>();
        for (int i = 0; i < 30; i++) {
            m.put(i % 7, "v" + i);
            if (i % 5 == 4) {
                m.remove((i + 3) % 7);
            }
        }
        return m;
    }

    @Test
    void t42_version1LogsReadAsBeforeAndWithoutWriters() {
        try (BucketStore store = open()) {
            List<LogRecord> records = StoreTestSupport.readAll(store, LOG_BUCKET, 0, LOG);
            assertThat(records).hasSize(150);
            for (int i = 0; i < 150; i++) {
                LogRecord r = records.get(i);
                assertThat(r.offset()).isEqualTo(i);
                assertThat(r.row()).isEqualTo(Row.of((long) i, "row-" + i));
                assertThat(r.changeType()).isEqualTo(ChangeType.APPEND_ONLY);
                assertThat(r.timestamp()).isEqualTo(1_700_000_000_000L + (i / 5) * 1000L);
            }
            Set<Byte> versions = new HashSet<>();
            for (LogBatch b : LogBatches.of(store.read(LOG_BUCKET, 0, 1 << 20).records())) {
                b.ensureValid();
                versions.add(b.magic());
                assertThat(b.writerId()).isZero();
                assertThat(b.writerSequence()).isEqualTo(-1);
            }
            assertThat(versions).containsExactly(LogBatch.MAGIC_V1);
            for (int k = 0; k < 7; k++) {
                String expected = oldPkState().get(k);
                assertThat(store.lookup(PK_BUCKET, Row.of(k)).map(r -> (String) r.getField(1)))
                        .as("key %s", k)
                        .isEqualTo(java.util.Optional.ofNullable(expected));
            }
        }
    }

    @Test
    void t42_newBatchesFollowTheOldOnesAndEveryVersionReadsAfterARestart() {
        try (BucketStore store = open()) {
            WriteBatch b =
                    WriteBatch.builder(1, 0, 0, LOG)
                            .append(Row.of(150L, "new"))
                            .writer(42, 0)
                            .build();
            assertThat(store.append(b).join().baseOffset()).isEqualTo(150);
            assertThat(store.append(b).join().duplicate()).isTrue();
            WriteBatch pk =
                    WriteBatch.builder(2, 0, 0, PK)
                            .upsert(Row.of(100, "new"))
                            .writer(42, 0)
                            .build();
            store.append(pk).join();
        }
        try (BucketStore store = open()) {
            List<LogRecord> records = StoreTestSupport.readAll(store, LOG_BUCKET, 0, LOG);
            assertThat(records).hasSize(151);
            assertThat(records.get(150).row()).isEqualTo(Row.of(150L, "new"));
            List<Byte> versions = new ArrayList<>();
            long offset = 0;
            while (offset < store.endOffset(LOG_BUCKET)) {
                LogReadResult r = store.read(LOG_BUCKET, offset, 1 << 20);
                for (LogBatch batch : LogBatches.of(r.records())) {
                    versions.add(batch.magic());
                }
                offset = r.nextOffset();
            }
            assertThat(versions.get(versions.size() - 1)).isEqualTo(LogBatch.MAGIC);
            assertThat(versions.subList(0, versions.size() - 1)).containsOnly(LogBatch.MAGIC_V1);
            assertThat(
                            store.append(
                                            WriteBatch.builder(1, 0, 0, LOG)
                                                    .append(Row.of(150L, "new"))
                                                    .writer(42, 0)
                                                    .build())
                                    .join()
                                    .duplicate())
                    .isTrue();
            assertThat(store.lookup(PK_BUCKET, Row.of(100))).contains(Row.of(100, "new"));
            assertThat(store.lookup(PK_BUCKET, Row.of(2)).map(r -> (String) r.getField(1)))
                    .isEqualTo(java.util.Optional.ofNullable(oldPkState().get(2)));
        }
    }
}
