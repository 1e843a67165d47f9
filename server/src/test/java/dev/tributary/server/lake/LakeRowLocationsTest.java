package dev.tributary.server.lake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.lake.api.index.LakeRowLocation;
import dev.tributary.lake.api.index.LakeRowScanner;
import dev.tributary.server.store.TableCatalog;
import dev.tributary.storage.lakeindex.LakeRowIndex;
import dev.tributary.storage.lakeindex.LakeRowIndex.IndexedSnapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the server keeps a bucket's lake row index on the writer's snapshot (T48): the logic around a
 * scripted lake (which files a snapshot has, what rows they hold, which snapshots descend from
 * which); the Iceberg scanner and the RPC are proven end to end elsewhere.
 */
class LakeRowLocationsTest {
    private static final long TABLE = 3;
    private static final TableBucket B0 = new TableBucket(TABLE, 0);

    @TempDir Path dir;
    private LakeRowIndex index;
    private final FakeLake lake = new FakeLake();
    private LakeRowLocations locations;

    @BeforeEach
    void setUp() {
        index = LakeRowIndex.open(dir);
        TableCatalog catalog = new TableCatalog();
        TableDescriptor d =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.BIGINT())
                                        .column("v", DataTypes.STRING())
                                        .primaryKey("id")
                                        .build())
                        .bucketCount(2)
                        .property("table.datalake.enabled", "true")
                        .build();
        catalog.put(TableInfo.create(TABLE, TablePath.of("db", "t"), d, 0));
        locations =
                new LakeRowLocations(
                        () -> index,
                        (path, table) -> Optional.of(lake.scanner()),
                        catalog,
                        t -> List.of(),
                        new ManualClock(0));
    }

    @AfterEach
    void tearDown() {
        index.close();
    }

    private static byte[] key(String k) {
        return k.getBytes(StandardCharsets.UTF_8);
    }

    private LakeRowLocation[] locate(long snapshot, String... keys) {
        List<byte[]> k = new ArrayList<>();
        for (String s : keys) {
            k.add(key(s));
        }
        return locations.locate(B0, snapshot, k).orElseThrow();
    }

    @Test
    void t48_followsDescendingSnapshotsByReadingOnlyTheirNewFiles() {
        lake.snapshot(1, -1, Map.of("f1", List.of("a", "b")));
        assertThat(locate(1, "a", "b", "c"))
                .containsExactly(new LakeRowLocation("f1", 0), new LakeRowLocation("f1", 1), null);
        assertThat(lake.scanned).containsExactly("f1");

        // the same snapshot again: answered from the index alone
        locate(1, "a");
        assertThat(lake.scanned).containsExactly("f1");

        // a round updated a (its new row in f2) and inserted c
        lake.snapshot(2, 1, Map.of("f1", List.of("a", "b"), "f2", List.of("a", "c")));
        lake.deleted.put("f1", 0L); // a's old row carries a deletion vector now
        assertThat(locate(2, "a", "b", "c"))
                .containsExactly(
                        new LakeRowLocation("f2", 0),
                        new LakeRowLocation("f1", 1),
                        new LakeRowLocation("f2", 1));
        assertThat(lake.scanned).containsExactly("f1", "f2");

        // a compaction rewrote f1 and f2 into f3: positions move with the rows
        lake.snapshot(3, 2, Map.of("f3", List.of("b", "a", "c")));
        assertThat(locate(3, "a", "b", "c"))
                .containsExactly(
                        new LakeRowLocation("f3", 1),
                        new LakeRowLocation("f3", 0),
                        new LakeRowLocation("f3", 2));
        assertThat(lake.scanned).containsExactly("f1", "f2", "f3");
    }

    @Test
    void t48_rebuildsWhenTheSnapshotDoesNotDescendFromTheIndexedOne() {
        lake.snapshot(1, -1, Map.of("f1", List.of("a")));
        lake.snapshot(2, 1, Map.of("f1", List.of("a"), "f2", List.of("b")));
        locate(2, "a");
        // another engine rolled the table back to snapshot 1 and wrote snapshot 5 from there
        lake.snapshot(5, 1, Map.of("f1", List.of("a"), "f9", List.of("b")));
        lake.scanned.clear();
        assertThat(locate(5, "a", "b"))
                .containsExactly(new LakeRowLocation("f1", 0), new LakeRowLocation("f9", 0));
        assertThat(lake.scanned).containsExactlyInAnyOrder("f1", "f9");
    }

    @Test
    void t48_anUpdateThatFailsHalfwayIsRebuiltOnTheNextCall() {
        lake.snapshot(1, -1, Map.of("f1", List.of("a", "b")));
        locate(1, "a");
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 25_000; i++) {
            many.add("k" + i);
        }
        lake.snapshot(2, 1, Map.of("f1", List.of("a", "b"), "f2", many));
        // the update dies after more rows than the index writes in one batch
        lake.failAfterRows = 20_000;
        assertThatThrownBy(() -> locate(2, "k1")).isInstanceOf(StorageException.class);
        assertThat(index.indexed(B0)).as("a cut update leaves no index").isEmpty();
        lake.failAfterRows = -1;
        lake.scanned.clear();
        assertThat(locate(2, "k1", "b"))
                .containsExactly(new LakeRowLocation("f2", 1), new LakeRowLocation("f1", 1));
        assertThat(lake.scanned).containsExactlyInAnyOrder("f1", "f2");
    }

    @Test
    void t48_anUpdateThatFailsBeforeItWroteAnythingLeavesTheIndexToCatchUpNextCall() {
        lake.snapshot(1, -1, Map.of("f1", List.of("a", "b")));
        locate(1, "a");
        lake.snapshot(2, 1, Map.of("f1", List.of("a", "b"), "f2", List.of("a")));
        lake.deleted.put("f1", 0L);
        lake.failAfterRows = 0;
        assertThatThrownBy(() -> locate(2, "a")).isInstanceOf(StorageException.class);
        assertThat(index.indexed(B0))
                .as("nothing was written: the index still describes snapshot 1")
                .contains(new IndexedSnapshot(1, List.of("f1")));
        lake.failAfterRows = -1;
        lake.scanned.clear();
        assertThat(locate(2, "a", "b"))
                .containsExactly(new LakeRowLocation("f2", 0), new LakeRowLocation("f1", 1));
        assertThat(lake.scanned).containsExactly("f2");
    }

    @Test
    void t48_refusesTooManyKeysAndBucketsOutsideTheTable() {
        List<byte[]> many = new ArrayList<>();
        for (int i = 0; i <= LakeRowLocations.MAX_KEYS; i++) {
            many.add(key("k" + i));
        }
        assertThatThrownBy(() -> locations.locate(B0, 1, many))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("at most");
        assertThatThrownBy(() -> locations.locate(new TableBucket(TABLE, 7), 1, List.of()))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("no bucket 7");
    }

    /**
     * A scripted lake: per snapshot its parent and its files' rows (a key per position); rows in
     * {@link #deleted} are not live.
     */
    private static final class FakeLake {
        final Map<Long, Long> parents = new HashMap<>();
        final Map<Long, Map<String, List<String>>> files = new HashMap<>();
        final Map<String, Long> deleted = new HashMap<>();
        final List<String> scanned = new ArrayList<>();
        int failAfterRows = -1;

        void snapshot(long id, long parent, Map<String, List<String>> rows) {
            parents.put(id, parent);
            files.put(id, new LinkedHashMap<>(rows));
        }

        boolean descends(long id, long since) {
            for (long s = id; s >= 0; s = parents.getOrDefault(s, -1L)) {
                if (s == since) {
                    return true;
                }
            }
            return false;
        }

        LakeRowScanner scanner() {
            return new LakeRowScanner() {
                @Override
                public BucketFiles bucketFiles(
                        long snapshotId, PartitionSpec partition, int bucket, long since) {
                    return new BucketFiles(
                            List.copyOf(files.get(snapshotId).keySet()),
                            since >= 0 && descends(snapshotId, since));
                }

                @Override
                public void scan(
                        long snapshotId,
                        PartitionSpec partition,
                        int bucket,
                        Collection<String> which,
                        RowSink sink) {
                    int rows = 0;
                    for (String f : which) {
                        scanned.add(f);
                        List<String> keys = files.get(snapshotId).get(f);
                        for (int p = 0; p < keys.size(); p++) {
                            if (failAfterRows >= 0 && rows++ >= failAfterRows) {
                                throw new StorageException("lake read failed");
                            }
                            if (Long.valueOf(p).equals(deleted.get(f))) {
                                continue;
                            }
                            sink.accept(key(keys.get(p)), new LakeRowLocation(f, p));
                        }
                    }
                }

                @Override
                public void close() {}
            };
        }
    }
}
