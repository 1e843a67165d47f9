package dev.tributary.storage.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.LogBatch;
import dev.tributary.common.record.LogBatchBuilder;
import dev.tributary.common.record.LogBatches;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.storage.log.LeaderEpochCache.Divergence;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A follower's copy of a leader's log (T50): appends that keep the leader's offsets, a divergent
 * tail cut through leader epochs, and the idempotent writer state that travels with the log (T51),
 * on real segment files.
 */
class FollowerLogTest {
    private static final TableBucket TB = new TableBucket(1, 0);
    private static final Schema SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("s", DataTypes.STRING())
                    .build();
    private static final RowCodec CODEC = RowCodec.of(SCHEMA);
    private static final LogBucket.Config CONFIG =
            new LogBucket.Config(512, 128, FlushPolicy.FSYNC); // a few batches per segment

    @TempDir Path dir;

    /** One replica: its log and its epochs, side by side as a server keeps them. */
    private record Replica(LogBucket log, LeaderEpochCache epochs) {}

    private Replica open(String name) {
        Path d = dir.resolve(name);
        return new Replica(
                LogBucket.open(TB, d, CONFIG), LeaderEpochCache.open(d.resolve("leader-epochs")));
    }

    private static byte[] batch(long writer, long sequence, int rows) {
        LogBatchBuilder b = new LogBatchBuilder(0, rows * 24);
        for (int i = 0; i < rows; i++) {
            b.add(
                    ChangeType.APPEND_ONLY,
                    1_000 + i,
                    Row.of(writer * 1_000 + sequence, "r" + i),
                    CODEC);
        }
        return b.writer(writer, sequence).build();
    }

    private static void lead(Replica r, long writer, long sequence, int rows) {
        r.log().append(batch(writer, sequence, rows)).durable().join();
    }

    /** Copies the leader's records from the follower's end to {@code upTo}, as fetches do. */
    private static void copy(Replica leader, Replica follower, long upTo) {
        while (follower.log().writtenEndOffset() < upTo) {
            long from = follower.log().writtenEndOffset();
            byte[] fetched = leader.log().read(from, 200).records();
            ByteArrayOutputStream kept = new ByteArrayOutputStream();
            for (LogBatch b : LogBatches.of(fetched)) {
                if (b.baseOffset() >= upTo) {
                    break;
                }
                // a fetch carries the epochs of what it returns: the follower records them first
                follower.epochs().assign(epochOf(leader.epochs(), b.baseOffset()), b.baseOffset());
                kept.writeBytes(b.toBytes());
            }
            follower.log().appendAsFollower(kept.toByteArray()).durable().join();
        }
    }

    private static int epochOf(LeaderEpochCache epochs, long offset) {
        int epoch = -1;
        for (LeaderEpochCache.EpochStart e : epochs.entries()) {
            if (e.startOffset() <= offset) {
                epoch = e.epoch();
            }
        }
        return epoch;
    }

    private static byte[] all(LogBucket log) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long at = log.startOffset();
        while (at < log.endOffset()) {
            LogBucket.Read r = log.read(at, 1 << 20);
            out.writeBytes(r.records());
            at = r.nextOffset();
        }
        return out.toByteArray();
    }

    @Test
    void aReturningLeaderCutsTheTailNoReplicaHadAndCopiesTheNewLeadersLog() {
        Replica a = open("a");
        Replica b = open("b");
        a.epochs().assign(1, 0);
        for (long seq = 0; seq < 5; seq++) {
            lead(a, 7, seq, 10); // writer 7's batches 0..4 at offsets 0..49
        }
        copy(a, b, 30); // the follower has batches 0..2; 3 and 4 were never replicated
        assertThat(b.log().writtenEndOffset()).isEqualTo(30);
        assertThat(b.log().duplicateOf(7, 2))
                .hasValueSatisfying(d -> assertThat(d.baseOffset()).isEqualTo(20));

        // a dies; b leads epoch 2 from its end. Writer 7 retries batch 3, which b never had: it
        // is appended, not answered as a duplicate, and writer 9 writes after it
        b.epochs().assign(2, b.log().writtenEndOffset());
        LogBucket.Appended retried = b.log().append(batch(7, 3, 10));
        assertThat(retried.duplicate()).isFalse();
        assertThat(retried.baseOffset()).isEqualTo(30);
        retried.durable().join();
        lead(b, 9, 0, 15); // offsets 40..54

        // a returns as a follower and compares its latest epoch with the leader's
        int latest = a.epochs().latest().orElseThrow().epoch();
        Divergence d =
                a.epochs()
                        .divergence(
                                b.epochs().endOffsetFor(latest, b.log().endOffset()),
                                a.log().writtenEndOffset(),
                                30);
        assertThat(d).isEqualTo(new Divergence(30, true));
        assertThat(a.log().truncateTo(d.cutAt(), new NotLeaderForBucketException("cut")))
                .isEqualTo(30);
        a.epochs().truncateFromEnd(30);
        // what a answered writer 7 for batch 3 is gone with its tail: a retry is new again
        assertThat(a.log().duplicateOf(7, 3)).isEmpty();
        assertThat(a.log().duplicateOf(7, 2)).isPresent();

        copy(b, a, b.log().endOffset());
        assertThat(all(a.log())).isEqualTo(all(b.log()));
        assertThat(a.epochs().entries()).isEqualTo(b.epochs().entries());
        assertThat(a.log().duplicateOf(7, 3))
                .hasValueSatisfying(x -> assertThat(x.baseOffset()).isEqualTo(30));
        assertThat(a.log().duplicateOf(9, 0))
                .hasValueSatisfying(x -> assertThat(x.endOffset()).isEqualTo(55));

        // and all of it survives a restart
        byte[] before = all(a.log());
        a.log().close();
        Replica reopened = open("a");
        assertThat(reopened.log().endOffset()).isEqualTo(55);
        assertThat(all(reopened.log())).isEqualTo(before);
        assertThat(reopened.epochs().entries()).isEqualTo(b.epochs().entries());
        assertThat(reopened.log().duplicateOf(7, 3))
                .hasValueSatisfying(x -> assertThat(x.baseOffset()).isEqualTo(30));
        reopened.log().close();
        b.log().close();
    }

    @Test
    void aCutInsideABatchKeepsTheWholeBatchesBelowItAcrossSegments() {
        Replica a = open("a");
        for (long seq = 0; seq < 20; seq++) {
            lead(a, 3, seq, 5); // 100 offsets over several small segments
        }
        int segmentsBefore = a.log().sealedSegments().size();
        assertThat(segmentsBefore).isGreaterThan(3);

        long end = a.log().truncateTo(32, new NotLeaderForBucketException("cut"));
        assertThat(end).as("batches are never split").isEqualTo(30);
        assertThat(a.log().endOffset()).isEqualTo(30);
        assertThat(a.log().sealedSegments().size()).isLessThan(segmentsBefore);
        // batch 5 (offsets 25..29) is the writer's last one left; batch 6 is new again
        assertThat(a.log().duplicateOf(3, 5)).isPresent();
        assertThat(a.log().duplicateOf(3, 6)).isEmpty();

        // the log takes appends at its new end, and a reopened log is the same
        lead(a, 3, 6, 5);
        assertThat(a.log().endOffset()).isEqualTo(35);
        byte[] before = all(a.log());
        a.log().close();
        LogBucket reopened = LogBucket.open(TB, dir.resolve("a"), CONFIG);
        assertThat(reopened.endOffset()).isEqualTo(35);
        assertThat(all(reopened)).isEqualTo(before);
        List<Long> offsets = new ArrayList<>();
        for (LogBatch b : LogBatches.of(before)) {
            offsets.add(b.baseOffset());
        }
        assertThat(offsets).containsExactly(0L, 5L, 10L, 15L, 20L, 25L, 30L);

        assertThatThrownBy(() -> reopened.truncateTo(-1, new NotLeaderForBucketException("x")))
                .isInstanceOf(InvalidInputException.class);
        reopened.close();
    }

    @Test
    void fetchedBatchesThatAreDamagedOrDoNotContinueTheLogAreRefusedWhole() {
        Replica leader = open("leader");
        for (long seq = 0; seq < 3; seq++) {
            lead(leader, 5, seq, 4);
        }
        byte[] fetched = leader.log().read(0, 1 << 20).records();
        Replica f = open("f");

        byte[] later = leader.log().read(4, 1 << 20).records();
        assertThatThrownBy(() -> f.log().appendAsFollower(later))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("start at offset 4 but this replica's log ends at 0");

        byte[] flipped = fetched.clone();
        flipped[flipped.length - 1] ^= 1;
        assertThatThrownBy(() -> f.log().appendAsFollower(flipped))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("fails its checksum");

        byte[] gap = new byte[fetched.length];
        System.arraycopy(fetched, 0, gap, 0, fetched.length);
        LogBatch.setBaseOffset(gap, LogBatch.sizeAt(gap, 0), 5); // the second batch claims 5
        assertThatThrownBy(() -> f.log().appendAsFollower(gap))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("follows one that ends at 4");

        byte[] cutShort = java.util.Arrays.copyOf(fetched, fetched.length - 3);
        assertThatThrownBy(() -> f.log().appendAsFollower(cutShort))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("truncated");

        assertThat(f.log().writtenEndOffset()).as("nothing was written").isZero();
        f.log().appendAsFollower(fetched).durable().join();
        assertThat(all(f.log())).isEqualTo(fetched);
        f.log().close();
        leader.log().close();
    }

    @Test
    void aFollowerBelowTheLeadersLogStartEmptiesItsLogAndStartsAgainThere() {
        Replica leader = open("leader");
        Replica follower = open("follower");
        leader.epochs().assign(1, 0);
        for (long seq = 0; seq < 10; seq++) {
            lead(leader, 7, seq, 10); // offsets 0..99 over several segments
        }
        copy(leader, follower, 20);
        follower.log().leaderEpochs().assign(1, 0);
        assertThat(follower.log().duplicateOf(7, 1)).isPresent();

        // retention on the leader deletes past the follower's end
        List<LogBucket.SegmentInfo> sealed = leader.log().sealedSegments();
        long start = sealed.get(sealed.size() - 1).nextOffset();
        leader.log().deleteSegmentsBefore(start);
        assertThat(leader.log().startOffset()).isEqualTo(start).isGreaterThan(20);

        assertThatThrownBy(() -> follower.log().restartAt(20, new NotLeaderForBucketException("x")))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("restarts only past its end 20");
        follower.log().restartAt(start, new NotLeaderForBucketException("restarted"));
        assertThat(follower.log().startOffset()).isEqualTo(start);
        assertThat(follower.log().writtenEndOffset()).isEqualTo(start);
        assertThat(follower.log().durableEndOffset()).isEqualTo(start);
        assertThat(follower.log().leaderEpochs().entries()).isEmpty();
        // the records that held writer 7's state are gone, and so is the state
        assertThat(follower.log().duplicateOf(7, 1)).isEmpty();

        copy(leader, follower, 100);
        assertThat(all(follower.log())).isEqualTo(all(leader.log()));
        follower.log().close();

        // reopened, it is the copy it was: no gap, no old segment, the writer state replayed
        LogBucket reopened = LogBucket.open(TB, dir.resolve("follower"), CONFIG);
        assertThat(reopened.startOffset()).isEqualTo(start);
        assertThat(reopened.endOffset()).isEqualTo(100);
        assertThat(all(reopened)).isEqualTo(all(leader.log()));
        assertThat(reopened.duplicateOf(7, 9))
                .hasValueSatisfying(d -> assertThat(d.baseOffset()).isEqualTo(90));
        reopened.close();
        leader.log().close();
    }

    @Test
    void aReaderPastTheHighWatermarkButInsideTheLogWaitsInsteadOfBeingRefused() {
        Replica leader = open("new-leader");
        for (long seq = 0; seq < 3; seq++) {
            lead(leader, 7, seq, 10); // offsets 0..29
        }
        // a new leader whose high watermark has not caught up with the old leader's yet
        java.util.concurrent.atomic.AtomicLong hw = new java.util.concurrent.atomic.AtomicLong(10);
        leader.log().replicate(new FixedHighWatermark(hw::get));
        LogBucket.Read early = leader.log().read(20, 1 << 20);
        assertThat(early.records()).isEmpty();
        assertThat(early.nextOffset()).isEqualTo(20);
        assertThat(early.highWatermark()).isEqualTo(10);
        assertThatThrownBy(() -> leader.log().read(31, 1024))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("beyond the end");
        hw.set(30);
        assertThat(leader.log().read(20, 1 << 20).nextOffset()).isEqualTo(30);
        leader.log().close();
    }
}
