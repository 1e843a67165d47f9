package dev.tributary.storage.lakeindex;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.id.TableBucket;
import dev.tributary.storage.lakeindex.LakeRowIndex.IndexedSnapshot;
import dev.tributary.storage.lakeindex.LakeRowIndex.RowLocation;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The store's lake row index (T48): what it answers, and what it never claims. */
class LakeRowIndexTest {
    private static final TableBucket B0 = new TableBucket(7, 0);
    private static final TableBucket B1 = new TableBucket(7, 1);
    private static final TableBucket P3 = new TableBucket(7, 3, 0);

    @TempDir Path dir;

    private static byte[] key(String k) {
        return k.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void t48_answersTheCommittedRowsOfEachBucketAndSurvivesReopening() {
        try (LakeRowIndex index = LakeRowIndex.open(dir)) {
            assertThat(index.indexed(B0)).isEmpty();
            try (LakeRowIndex.Update u = index.beginUpdate(B0, true)) {
                u.put(key("a"), "f1", 0);
                u.put(key("b"), "f1", 1);
                u.put(key("a"), "f2", 7); // a later row of the same key wins
                u.commit(10, List.of("f1", "f2"));
            }
            try (LakeRowIndex.Update u = index.beginUpdate(B1, true)) {
                u.put(key("a"), "g1", 3);
                u.commit(10, List.of("g1"));
            }
        }
        try (LakeRowIndex index = LakeRowIndex.open(dir)) {
            assertThat(index.indexed(B0)).contains(new IndexedSnapshot(10, List.of("f1", "f2")));
            assertThat(index.indexedSnapshotId(B0)).hasValue(10);
            assertThat(index.indexedSnapshotId(P3)).isEmpty();
            assertThat(index.lookup(B0, List.of(key("a"), key("b"), key("c"))))
                    .containsExactly(new RowLocation("f2", 7), new RowLocation("f1", 1), null);
            assertThat(index.lookup(B1, List.of(key("a"), key("b"))))
                    .containsExactly(new RowLocation("g1", 3), null);
            assertThat(index.lookup(P3, List.of(key("a")))).containsOnlyNulls();
        }
    }

    @Test
    void t48_anIncrementalUpdateAddsNewFilesAndEntriesOfRemovedFilesReadAsAbsent() {
        try (LakeRowIndex index = LakeRowIndex.open(dir)) {
            try (LakeRowIndex.Update u = index.beginUpdate(B0, true)) {
                u.put(key("a"), "f1", 0);
                u.put(key("b"), "f1", 1);
                u.put(key("c"), "f2", 0);
                u.commit(10, List.of("f1", "f2"));
            }
            // a compaction rewrote f1 into f3 (b was deleted meanwhile); c's f2 stays
            try (LakeRowIndex.Update u = index.beginUpdate(B0, false)) {
                u.put(key("a"), "f3", 0);
                u.commit(11, List.of("f2", "f3"));
            }
            assertThat(index.indexed(B0)).contains(new IndexedSnapshot(11, List.of("f2", "f3")));
            assertThat(index.lookup(B0, List.of(key("a"), key("b"), key("c"))))
                    .containsExactly(new RowLocation("f3", 0), null, new RowLocation("f2", 0));
        }
    }

    @Test
    void t48_anUpdateCutOffBeforeItsCommitLeavesNoIndexEvenAfterACrash() {
        try (LakeRowIndex index = LakeRowIndex.open(dir)) {
            try (LakeRowIndex.Update u = index.beginUpdate(B0, true)) {
                u.put(key("a"), "f1", 0);
                u.commit(10, List.of("f1"));
            }
            LakeRowIndex.Update cut = index.beginUpdate(B0, false);
            cut.put(key("a"), "f2", 5);
            for (int i = 0; i < LakeRowIndex.BATCH_ENTRIES; i++) {
                cut.put(key("k" + i), "f2", i); // more than a batch: entries are written
            }
            assertThat(index.indexedSnapshotId(B0))
                    .as("status while the update runs: being rebuilt, no snapshot")
                    .isEmpty();
            cut.close(); // the round's update died here
            assertThat(index.indexed(B0)).isEmpty();
            assertThat(index.lookup(B0, List.of(key("a")))).containsOnlyNulls();
            assertThatThrownBy(() -> index.beginUpdate(B0, false))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("rebuild");
        }
        try (LakeRowIndex index = LakeRowIndex.open(dir)) {
            assertThat(index.indexed(B0)).isEmpty();
            // a rebuild starts from nothing: the cut update's entry is gone too
            try (LakeRowIndex.Update u = index.beginUpdate(B0, true)) {
                u.put(key("b"), "f9", 2);
                u.commit(12, List.of("f9", "f1"));
            }
            assertThat(index.lookup(B0, List.of(key("a"), key("b"))))
                    .containsExactly(null, new RowLocation("f9", 2));
        }
    }

    @Test
    void t48_anUpdateCutOffBeforeItWroteAnythingLeavesTheIndexedSnapshot() {
        try (LakeRowIndex index = LakeRowIndex.open(dir)) {
            try (LakeRowIndex.Update u = index.beginUpdate(B0, true)) {
                u.put(key("a"), "f1", 0);
                u.commit(10, List.of("f1"));
            }
            try (LakeRowIndex.Update cut = index.beginUpdate(B0, false)) {
                cut.put(key("a"), "f2", 5); // still in the update's first batch
            }
            try (LakeRowIndex.Update cut = index.beginUpdate(B0, true)) {
                cut.put(key("b"), "f3", 1);
            }
        }
        try (LakeRowIndex index = LakeRowIndex.open(dir)) {
            assertThat(index.indexed(B0)).contains(new IndexedSnapshot(10, List.of("f1")));
            assertThat(index.lookup(B0, List.of(key("a"), key("b"))))
                    .containsExactly(new RowLocation("f1", 0), null);
        }
    }

    @Test
    void t48_droppingATableOrPartitionDropsItsBucketsOnly() {
        try (LakeRowIndex index = LakeRowIndex.open(dir)) {
            TableBucket other = new TableBucket(8, 0);
            for (TableBucket b : List.of(B0, P3, other)) {
                try (LakeRowIndex.Update u = index.beginUpdate(b, true)) {
                    u.put(key("a"), "f", 1);
                    u.commit(1, List.of("f"));
                }
            }
            index.dropPartition(7, 3);
            assertThat(index.indexed(P3)).isEmpty();
            assertThat(index.indexed(B0)).isPresent();
            index.dropTable(7);
            assertThat(index.indexed(B0)).isEmpty();
            assertThat(index.lookup(other, List.of(key("a"))))
                    .containsExactly(new RowLocation("f", 1));
        }
    }

    @Test
    void t48_manyEntriesSpanSeveralBatchesAndLargePositionsRoundTrip() {
        try (LakeRowIndex index = LakeRowIndex.open(dir)) {
            try (LakeRowIndex.Update u = index.beginUpdate(B0, true)) {
                for (int i = 0; i < 25_000; i++) {
                    u.put(key("k" + i), "f" + (i % 3), (long) i << 33);
                }
                u.commit(5, List.of("f0", "f1", "f2"));
            }
            assertThat(index.lookup(B0, List.of(key("k0"), key("k24999"))))
                    .containsExactly(
                            new RowLocation("f0", 0), new RowLocation("f0", 24_999L << 33));
            assertThat(index.approximateBytes()).isPositive();
        }
    }
}
