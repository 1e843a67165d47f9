package dev.tributary.coordinator.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.time.ManualClock;
import dev.tributary.coordinator.TieringHarness;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.store.FileMetadataStore;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.RoundPlan;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RestartTest {
    @TempDir Path dir;

    @Test
    @DisplayName(
            "T12 T17 tables, offsets, epochs and last tiered times survive a restart of the file store")
    void survivesRestartOnDisk() {
        FileMetadataStore store = FileMetadataStore.open(dir);
        TieringHarness h =
                new TieringHarness(TieringConfig.defaults(), store, new ManualClock(5_000_000L));
        TableInfo a = h.lakeTable("a", 2, Duration.ofMinutes(2));
        TableInfo b = h.lakeTable("b", 1, Duration.ofMinutes(10));
        h.advance(Duration.ofMinutes(2));
        h.writeAll(a, 7);
        RoundPlan p = h.request("job");
        long snap = h.commitAll("job", p).join();
        long tieredAt = h.clock.currentTimeMillis();
        h.advance(Duration.ofMinutes(1));
        h.writeAll(a, 3);
        store.close(); // crash: nothing else is flushed
        h.restart(FileMetadataStore.open(dir));
        var rec = h.tiering().record(a.tableId()).orElseThrow();
        assertThat(rec.tieredOffsets()).containsEntry(0, 7L).containsEntry(1, 7L);
        assertThat(rec.lastTieredTimeMillis()).isEqualTo(tieredAt);
        assertThat(rec.lakeSnapshotId()).isEqualTo(snap);
        assertThat(rec.epoch()).isEqualTo(p.epoch());
        h.assertState(a, TieringState.SCHEDULED);
        h.assertState(b, TieringState.SCHEDULED);
        h.advance(Duration.ofMinutes(1)); // a: the remaining minute of its 2-min freshness
        h.assertState(a, TieringState.PENDING);
        assertThat(h.epoch(a)).isGreaterThan(p.epoch());
        RoundPlan next = h.request("job");
        assertThat(next.buckets())
                .containsExactly(BucketPlan.log(0, 7, 10), BucketPlan.log(1, 7, 10));
        h.advance(Duration.ofMinutes(6).minusMillis(1));
        h.assertState(b, TieringState.SCHEDULED); // b was created at minute 0: due at minute 10
        h.advanceMillis(1);
        h.assertState(b, TieringState.PENDING);
        h.store.close();
    }
}
