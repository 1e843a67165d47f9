package dev.tributary.tiering.read;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.write.LakeWriteResultSerializer;
import dev.tributary.tiering.event.SplitResultEvent;
import dev.tributary.tiering.split.TieringSplit;
import dev.tributary.tiering.testutil.MemoryBuckets;
import dev.tributary.tiering.testutil.RecordingLakeWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class SplitTiererTest {
    private static final TablePath LOG = TablePath.of("db", "log");
    private static final TablePath PK = TablePath.of("db", "pk");
    private final ManualClock clock = new ManualClock();
    private final List<RecordingLakeWriter> writers = new ArrayList<>();
    private final MemoryBuckets store = new MemoryBuckets(Duration.ofSeconds(10));
    private long logId;
    private long pkId;
    private int failWriteAt = -1;
    private boolean failingFileSystem;
    private boolean failWithErrors;

    @BeforeEach
    void setUp() {
        Schema logSchema =
                Schema.of(
                        List.of(
                                new Column("id", DataTypes.BIGINT(), null),
                                new Column("name", DataTypes.STRING(), null)),
                        List.of());
        logId = store.createTable(LOG, TableDescriptor.builder(logSchema).bucketCount(2).build());
        Schema pkSchema =
                Schema.of(
                        List.of(
                                new Column("id", DataTypes.BIGINT(), null),
                                new Column("name", DataTypes.STRING(), null)),
                        List.of("id"));
        pkId = store.createTable(PK, TableDescriptor.builder(pkSchema).bucketCount(1).build());
        for (int batch = 0; batch < 5; batch++) {
            List<Row> rows = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                rows.add(Row.of((long) (batch * 4 + i), "r" + (batch * 4 + i)));
            }
            store.bucket(logId, 1).appendLog(rows, 1_000 + batch);
        }
    }

    private SplitTierer tierer(TieringSplit split) {
        return new SplitTierer(
                split,
                store,
                ctx -> {
                    RecordingLakeWriter w = new RecordingLakeWriter(ctx, failWriteAt);
                    w.failComplete = failingFileSystem;
                    w.failAbort = failingFileSystem;
                    w.failClose = failingFileSystem;
                    w.failWithErrors = failWithErrors;
                    writers.add(w);
                    return w;
                },
                s -> store.describeTable(s.tablePath(), s.tableId()),
                clock);
    }

    @Test
    void t6_logSplitWritesItsRangeWithSystemFieldsAndReportsTheCutoff() {
        SplitTierer t = tierer(TieringSplit.log(logId, LOG, 2, 3, 1, 5, 17));
        int steps = 0;
        while (!t.step(4)) {
            steps++;
        }
        assertThat(steps).isGreaterThanOrEqualTo(2);
        SplitResultEvent r = t.result();
        assertThat(r.failed()).isFalse();
        assertThat(r.offsetReached()).isEqualTo(17);
        assertThat(r.records()).isEqualTo(12);
        assertThat(r.bytes())
                .as("the encoded bytes of the batches read, not an estimate from the arity")
                .isPositive();
        RecordingLakeWriter w = writers.get(0);
        assertThat(w.offsets()).containsExactlyElementsOf(LongStream.range(5, 17).boxed().toList());
        assertThat(w.written.get(0).row()).isEqualTo(Row.of(5L, "r5"));
        assertThat(w.written).allSatisfy(x -> assertThat(x.bucket()).isEqualTo(1));
        assertThat(w.completed && w.closed).isTrue();
        var result = LakeWriteResultSerializer.INSTANCE.deserialize(r.writeResult());
        assertThat(result.tableId()).isEqualTo(logId);
        assertThat(result.epoch()).isEqualTo(2);
        assertThat(result.roundId()).isEqualTo(3);
    }

    @Test
    void t52_aLogSplitWhoseReadBreaksRetriablyReadsOnAndWritesEachRecordOnce() {
        // the first two reads break after one and two batches (4 records each), as when the
        // bucket's leader stops twice; the split reads on from where it was
        store.breakReads(logId, 1, 1);
        SplitTierer t = tierer(TieringSplit.log(logId, LOG, 2, 3, 1, 0, 20));
        assertThat(t.step(100)).isFalse();
        assertThat(t.reopenDelayNanos()).as("waits before reading on").isPositive();
        assertThat(t.step(100)).as("not before the backoff").isFalse();
        assertThat(writers.get(0).offsets()).hasSize(4);
        store.breakReads(logId, 2, 1);
        clock.advance(Duration.ofSeconds(1));
        assertThat(t.step(100)).isFalse();
        clock.advance(Duration.ofSeconds(1));
        while (!t.step(100)) {
            clock.advance(Duration.ofSeconds(1));
        }
        assertThat(t.result().failed()).isFalse();
        assertThat(t.result().offsetReached()).isEqualTo(20);
        assertThat(writers).hasSize(1);
        assertThat(writers.get(0).offsets())
                .containsExactlyElementsOf(LongStream.range(0, 20).boxed().toList());
    }

    @Test
    void t52_aReadThatKeepsBreakingFailsTheSplitAfterTheLastReopen() {
        store.breakReads(logId, 0, SplitTierer.MAX_REOPENS + 1);
        SplitTierer t = tierer(TieringSplit.log(logId, LOG, 2, 3, 1, 0, 20));
        int steps = 0;
        while (!t.step(100)) {
            clock.advance(Duration.ofSeconds(5));
            steps++;
        }
        assertThat(steps).isEqualTo(SplitTierer.MAX_REOPENS);
        assertThat(t.result().failed()).isTrue();
        assertThat(t.result().error()).contains("NotLeaderForBucketException");
        assertThat(writers).as("nothing was read, so no writer was opened").isEmpty();
    }

    @Test
    void t13_forceFinishedLogSplitStopsAndReportsTheOffsetReached() {
        SplitTierer t = tierer(TieringSplit.log(logId, LOG, 1, 1, 1, 0, 20));
        assertThat(t.step(7)).isFalse();
        assertThat(t.forceFinish()).isTrue();
        assertThat(t.result().offsetReached()).isEqualTo(7);
        assertThat(writers.get(0).offsets()).hasSize(7);
        assertThat(writers.get(0).completed).isTrue();
    }

    @Test
    void t13_forceFinishBeforeAnyRecordReportsTheStartAndCreatesNoWriter() {
        SplitTierer t = tierer(TieringSplit.log(logId, LOG, 1, 1, 1, 4, 20));
        assertThat(t.forceFinish()).isTrue();
        assertThat(t.result().offsetReached()).isEqualTo(4);
        assertThat(t.result().writeResult()).isNull();
        assertThat(writers).isEmpty();
    }

    @Test
    void t14_t9_snapshotSplitIgnoresForceFinishAndHoldsALeaseWhileReading() {
        for (long k = 0; k < 10; k++) {
            store.bucket(pkId, 0).upsert(List.of(Row.of(k, "v" + k)), false, 5);
        }
        store.bucket(pkId, 0).upsert(List.of(Row.of(3L, "changed")), false, 6);
        store.bucket(pkId, 0).upsert(List.of(Row.of(4L, "x")), true, 7);
        var snap = store.bucket(pkId, 0).takeSnapshot();
        SplitTierer t =
                tierer(TieringSplit.snapshot(pkId, PK, 1, 1, 0, snap.id(), snap.logOffset()));
        assertThat(t.step(3)).isFalse();
        assertThat(store.activeLeases()).isEqualTo(1);
        assertThat(t.forceFinish()).as("snapshot splits run to completion").isFalse();
        clock.advance(Duration.ofSeconds(3));
        assertThat(t.step(3)).isFalse();
        assertThat(store.leaseRenewals()).as("not yet").isZero();
        clock.advance(Duration.ofSeconds(1));
        assertThat(t.step(3)).isFalse();
        assertThat(store.leaseRenewals())
                .as("renewed at a third of the server's lease timeout")
                .isEqualTo(1);
        while (!t.step(3)) {}
        assertThat(t.result().offsetReached()).isEqualTo(snap.logOffset());
        assertThat(writers.get(0).written).hasSize(9);
        assertThat(writers.get(0).written)
                .extracting(RecordingLakeWriter.Written::row)
                .contains(Row.of(3L, "changed"))
                .doesNotContain(Row.of(4L, "v4"));
        assertThat(writers.get(0).written)
                .allSatisfy(w -> assertThat(w.type()).isEqualTo(ChangeType.INSERT));
        assertThat(store.activeLeases()).as("released at the end").isZero();
    }

    @Test
    void t52_aSnapshotSplitThatLosesItsSnapshotStartsOverOnTheLeadersNewest() {
        for (long k = 0; k < 10; k++) {
            store.bucket(pkId, 0).upsert(List.of(Row.of(k, "v" + k)), false, 5);
        }
        var planned = store.bucket(pkId, 0).takeSnapshot();
        store.bucket(pkId, 0).upsert(List.of(Row.of(3L, "later")), false, 6);
        // the snapshot the bucket's new leader took since
        store.bucket(pkId, 0).takeSnapshot();
        // the read breaks after 4 rows, as when the bucket's leader stops: the planned snapshot
        // and its lease are gone with it
        store.breakReads(pkId, 4, 1);
        SplitTierer t =
                tierer(TieringSplit.snapshot(pkId, PK, 1, 1, 0, planned.id(), planned.logOffset()));
        assertThat(t.step(100)).isFalse();
        assertThat(writers.get(0).written).hasSize(4);
        assertThat(writers.get(0).aborted).as("what it wrote is deleted").isTrue();
        assertThat(store.activeLeases()).isZero();
        clock.advance(Duration.ofSeconds(1));
        while (!t.step(100)) {
            clock.advance(Duration.ofSeconds(1));
        }
        SplitResultEvent r = t.result();
        assertThat(r.failed()).as("%s", r.error()).isFalse();
        long newest = store.bucket(pkId, 0).latestSnapshot().logOffset();
        assertThat(newest).isGreaterThan(planned.logOffset());
        assertThat(r.offsetReached()).as("the offset of the snapshot read").isEqualTo(newest);
        assertThat(r.records()).as("counted once").isEqualTo(10);
        assertThat(writers).hasSize(2);
        assertThat(writers.get(1).written)
                .extracting(RecordingLakeWriter.Written::row)
                .hasSize(10)
                .contains(Row.of(3L, "later"));
        assertThat(store.activeLeases()).isZero();
    }

    @Test
    void t52_aPlannedSnapshotUnknownAtTheLeaderIsGrantedAgain() {
        store.bucket(pkId, 0).upsert(List.of(Row.of(1L, "a")), false, 5);
        long planned = store.bucket(pkId, 0).endOffset();
        // planned from a snapshot the bucket's new leader does not have (ids are per server)
        SplitTierer t = tierer(TieringSplit.snapshot(pkId, PK, 1, 1, 0, 99, planned));
        while (!t.step(100)) {
            clock.advance(Duration.ofSeconds(1));
        }
        assertThat(t.result().failed()).as("%s", t.result().error()).isFalse();
        assertThat(t.result().offsetReached()).isEqualTo(planned);
        assertThat(writers).hasSize(1);
        assertThat(writers.get(0).written).hasSize(1);
    }

    @Test
    void t22_writeErrorFailsTheSplitAndAbortsItsFiles() {
        failWriteAt = 2;
        SplitTierer t = tierer(TieringSplit.log(logId, LOG, 1, 1, 1, 0, 20));
        assertThat(t.step(10)).isTrue();
        assertThat(t.result().failed()).isTrue();
        assertThat(t.result().error()).contains("injected write failure");
        assertThat(writers.get(0).aborted && writers.get(0).closed).isTrue();
    }

    @Test
    void t22_readErrorFailsTheSplit() {
        store.failReads(logId, 1);
        SplitTierer t = tierer(TieringSplit.log(logId, LOG, 1, 1, 1, 0, 20));
        assertThat(t.step(10)).isTrue();
        assertThat(t.result().error()).contains("injected read failure");
    }

    @Test
    void abortDeletesWhatWasWritten() {
        SplitTierer t = tierer(TieringSplit.log(logId, LOG, 1, 1, 1, 0, 20));
        t.step(5);
        t.abort();
        assertThat(writers.get(0).aborted).isTrue();
        assertThat(writers.get(0).completed).isFalse();
    }

    @Test
    void t22_aFlushFailureWhoseAbortAndCloseFailTooFailsOnlyTheSplit() {
        failingFileSystem = true;
        SplitTierer t = tierer(TieringSplit.log(logId, LOG, 1, 1, 1, 0, 20));
        // before the fix the abort's failure escaped step() and killed the task (every table)
        assertThat(t.step(100)).isTrue();
        assertThat(t.result().failed()).isTrue();
        assertThat(t.result().error()).contains("injected flush failure");
        assertThat(writers.get(0).aborted && writers.get(0).closed).isTrue();
        t.close();
    }

    @Test
    void t22_anAbortWhoseLakeIoFailsDoesNotThrow() {
        failingFileSystem = true;
        SplitTierer t = tierer(TieringSplit.log(logId, LOG, 1, 1, 1, 0, 20));
        t.step(5);
        t.abort();
        assertThat(writers.get(0).aborted && writers.get(0).closed).isTrue();
        t.close();
    }

    @Test
    void t22_aForceFinishWhoseFlushFailsEndsTheSplitFailed() {
        failingFileSystem = true;
        SplitTierer t = tierer(TieringSplit.log(logId, LOG, 1, 1, 1, 0, 20));
        t.step(5);
        assertThat(t.forceFinish()).isTrue();
        assertThat(t.result().failed()).isTrue();
    }

    @Test
    void t22_aLakeLibraryErrorInWriteCompleteAbortAndCloseFailsOnlyTheSplit() {
        // Hadoop's local file system throws FSError, an Error, when a write hits a full disk
        failingFileSystem = true;
        failWithErrors = true;
        SplitTierer t = tierer(TieringSplit.log(logId, LOG, 1, 1, 1, 0, 20));
        assertThat(t.step(100)).isTrue();
        assertThat(t.result().failed()).isTrue();
        assertThat(t.result().error()).contains("injected flush failure");
        assertThat(writers.get(0).aborted && writers.get(0).closed).isTrue();
        t.close();

        failingFileSystem = false;
        failWriteAt = 2;
        SplitTierer w = tierer(TieringSplit.log(logId, LOG, 1, 1, 1, 0, 20));
        assertThat(w.step(10)).isTrue();
        assertThat(w.result().error()).contains("injected write failure");
        assertThat(writers.get(1).aborted && writers.get(1).closed).isTrue();
    }

    @Test
    void t22_aLakeLibraryErrorInAbortOrForceFinishDoesNotEscape() {
        failingFileSystem = true;
        failWithErrors = true;
        SplitTierer t = tierer(TieringSplit.log(logId, LOG, 1, 1, 1, 0, 20));
        t.step(5);
        t.abort();
        assertThat(writers.get(0).aborted && writers.get(0).closed).isTrue();
        t.close();

        SplitTierer f = tierer(TieringSplit.log(logId, LOG, 1, 1, 1, 0, 20));
        f.step(5);
        assertThat(f.forceFinish()).isTrue();
        assertThat(f.result().failed()).isTrue();
        assertThat(writers.get(1).aborted && writers.get(1).closed).isTrue();
    }

    @Test
    void aVirtualMachineErrorIsNotSwallowed() {
        SplitTierer t =
                new SplitTierer(
                        TieringSplit.log(logId, LOG, 1, 1, 1, 0, 20),
                        store,
                        ctx -> {
                            throw new OutOfMemoryError("injected");
                        },
                        s -> store.describeTable(s.tablePath(), s.tableId()),
                        clock);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> t.step(5))
                .isInstanceOf(OutOfMemoryError.class);
    }
}
