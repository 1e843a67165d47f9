package dev.tributary.storage.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class GroupCommitterTest {
    /** A log whose first fsync blocks until released. */
    private static final class BlockingTarget implements GroupCommitter.Target {
        final CountDownLatch inFirstSync = new CountDownLatch(1);
        final CountDownLatch releaseFirstSync = new CountDownLatch(1);
        final AtomicInteger syncs = new AtomicInteger();
        volatile long written;

        @Override
        public long writtenEndOffset() {
            return written;
        }

        @Override
        public void sync() {
            if (syncs.incrementAndGet() == 1) {
                inFirstSync.countDown();
                try {
                    releaseFirstSync.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    @Test
    void appendsArrivingDuringAnFsyncShareTheNextOne() throws Exception {
        BlockingTarget log = new BlockingTarget();
        GroupCommitter committer = new GroupCommitter(log, FlushPolicy.FSYNC, 0);
        log.written = 1;
        CompletableFuture<CompletableFuture<Void>> leader = new CompletableFuture<>();
        Thread t = new Thread(() -> leader.complete(committer.awaitDurable(1)));
        t.start();
        assertThat(log.inFirstSync.await(30, TimeUnit.SECONDS)).isTrue();

        // followers register and return at once while the leader is inside fsync
        List<CompletableFuture<Void>> followers = new ArrayList<>();
        for (long end = 2; end <= 9; end++) {
            log.written = end;
            followers.add(committer.awaitDurable(end));
        }
        assertThat(followers).allMatch(f -> !f.isDone());
        assertThat(committer.durableOffset()).isZero();

        log.releaseFirstSync.countDown();
        t.join(30_000);
        assertThat(leader.get().isDone()).isTrue();
        assertThat(followers).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
        // one fsync for the leader's append, one for all eight followers
        assertThat(log.syncs.get()).isEqualTo(2);
        assertThat(committer.durableOffset()).isEqualTo(9);
    }

    @Test
    void aCutLogFailsTheWaitersPastTheCutAndAnFsyncThatBeganBeforeItDoesNotPassIt()
            throws Exception {
        BlockingTarget log = new BlockingTarget();
        GroupCommitter committer = new GroupCommitter(log, FlushPolicy.FSYNC, 0);
        log.written = 10;
        CompletableFuture<CompletableFuture<Void>> leader = new CompletableFuture<>();
        Thread t = new Thread(() -> leader.complete(committer.awaitDurable(10)));
        t.start();
        assertThat(log.inFirstSync.await(30, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<Void> below = committer.awaitDurable(4);

        // the log is cut at 4 while the fsync covering 10 runs
        log.written = 4;
        IllegalStateException cause = new IllegalStateException("cut");
        committer.truncate(4, cause);
        log.releaseFirstSync.countDown();
        t.join(30_000);

        assertThat(leader.get()).isCompletedExceptionally();
        assertThat(below.get(30, TimeUnit.SECONDS)).isNull();
        assertThat(committer.durableOffset()).isEqualTo(4);
        assertThat(log.syncs.get()).as("the round after the cut fsyncs again").isEqualTo(2);
    }

    @Test
    void alreadyDurableOffsetsCompleteWithoutAnFsync() {
        BlockingTarget log = new BlockingTarget();
        log.releaseFirstSync.countDown();
        GroupCommitter committer = new GroupCommitter(log, FlushPolicy.FSYNC, 5);
        assertThat(committer.awaitDurable(5)).isCompleted();
        assertThat(log.syncs.get()).isZero();
    }

    @Test
    void osCachePolicyAcknowledgesWithoutFsync() {
        BlockingTarget log = new BlockingTarget();
        GroupCommitter committer = new GroupCommitter(log, FlushPolicy.OS_CACHE, 0);
        log.written = 3;
        assertThat(committer.awaitDurable(3)).isCompleted();
        assertThat(committer.durableOffset()).isEqualTo(3);
        assertThat(log.syncs.get()).isZero();
    }

    @Test
    void aFailedFsyncFailsTheWaitersAndLaterAppends() {
        GroupCommitter.Target broken =
                new GroupCommitter.Target() {
                    @Override
                    public long writtenEndOffset() {
                        return 1;
                    }

                    @Override
                    public void sync() throws java.io.IOException {
                        throw new java.io.IOException("disk gone");
                    }
                };
        GroupCommitter committer = new GroupCommitter(broken, FlushPolicy.FSYNC, 0);
        assertThat(committer.awaitDurable(1)).isCompletedExceptionally();
        assertThat(committer.awaitDurable(1)).isCompletedExceptionally();
        assertThat(committer.durableOffset()).isZero();
    }

    @Test
    void withAFlushExecutorAppendersNeverBlockAndBatchesInFlightShareAnFsync() {
        BlockingTarget log = new BlockingTarget();
        log.releaseFirstSync.countDown();
        java.util.ArrayDeque<Runnable> queued = new java.util.ArrayDeque<>();
        GroupCommitter committer = new GroupCommitter(log, FlushPolicy.FSYNC, 0, queued::add);
        List<CompletableFuture<Void>> inFlight = new ArrayList<>();
        for (long end = 1; end <= 4; end++) {
            log.written = end;
            inFlight.add(committer.awaitDurable(end));
        }
        // one writer, four batches in flight, no fsync yet on its thread
        assertThat(log.syncs.get()).isZero();
        assertThat(inFlight).noneMatch(CompletableFuture::isDone);
        assertThat(queued).hasSize(1);
        queued.poll().run();
        assertThat(log.syncs.get()).isEqualTo(1);
        assertThat(inFlight).allMatch(f -> f.isDone() && !f.isCompletedExceptionally());
    }
}
