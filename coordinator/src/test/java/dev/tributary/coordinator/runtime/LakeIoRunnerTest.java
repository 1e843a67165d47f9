package dev.tributary.coordinator.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.time.ManualClock;
import dev.tributary.coordinator.ManualExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The one runner of the coordinator's lake I/O (tiering commits, maintenance passes and compaction
 * commits) on virtual time: outcomes reach the loop only, a step past its timeout is abandoned and
 * reported at once but ends only when its I/O returns, and steps of one key never overlap.
 */
class LakeIoRunnerTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private final ManualClock clock = new ManualClock(1_000_000);
    private final ManualLoop loop = new ManualLoop(clock);
    private final ManualExecutor io = new ManualExecutor();
    private final LakeIoRunner runner = new LakeIoRunner(loop, io, loop);

    /** Everything the outcome of each step heard, in order, and on which thread. */
    private final List<String> heard = new ArrayList<>();

    private final List<Throwable> causes = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    private <T> LakeIoRunner.Outcome<T> outcome(String name) {
        return new LakeIoRunner.Outcome<>() {
            @Override
            public void succeeded(T value) {
                threads.add(Thread.currentThread());
                heard.add(name + " succeeded " + value);
            }

            @Override
            public void failed(Throwable cause, boolean outcomeUnknown) {
                threads.add(Thread.currentThread());
                causes.add(cause);
                heard.add(name + " failed " + (outcomeUnknown ? "unknown" : "known"));
            }

            @Override
            public void ended() {
                threads.add(Thread.currentThread());
                heard.add(name + " ended");
            }
        };
    }

    /** Waits like a hung file system call that ignores interrupts; true if it was interrupted. */
    private static boolean awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                if (latch.await(1, TimeUnit.SECONDS)) {
                    // an interrupt racing the count down can let await succeed with the flag set
                    return interrupted || Thread.interrupted();
                }
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
    }

    private void run(Object key, String name, LakeIoRunner.Work<String> work) {
        runner.run(key, TIMEOUT, name + " ran past the timeout", work, outcome(name));
    }

    @Test
    @DisplayName("the outcome of a step is delivered on the loop, right after it ended")
    void theOutcomeIsDeliveredOnTheLoop() throws Exception {
        run(null, "a", abandoned -> "v");
        Thread pool = new Thread(io::runOne, "lake-io");
        pool.start();
        pool.join(30_000);
        assertThat(heard).as("the I/O thread only posts the outcome").isEmpty();

        loop.runReady();
        assertThat(heard).containsExactly("a ended", "a succeeded v");
        assertThat(threads).containsOnly(Thread.currentThread());
    }

    @Test
    @DisplayName("T21 a step that throws in time fails with its cause, its outcome unknown")
    void aStepThatThrowsFailsWithItsCause() {
        run(
                null,
                "a",
                abandoned -> {
                    throw new IllegalStateException("lake down");
                });
        io.runOne();
        loop.runReady();

        assertThat(heard).containsExactly("a ended", "a failed unknown");
        assertThat(causes).singleElement().satisfies(e -> assertThat(e).hasMessage("lake down"));
        loop.advance(TIMEOUT.multipliedBy(2));
        assertThat(heard).as("the timeout was cancelled").hasSize(2);
    }

    @Test
    @DisplayName("T21 a step that never started within its timeout fails as known and never runs")
    void aStepQueuedPastItsTimeoutNeverRuns() {
        AtomicBoolean ran = new AtomicBoolean();
        run(
                null,
                "a",
                abandoned -> {
                    ran.set(true);
                    return "v";
                });
        loop.advance(TIMEOUT.minusMillis(1));
        assertThat(heard).isEmpty();
        loop.advance(Duration.ofMillis(1));

        assertThat(heard).containsExactly("a ended", "a failed known");
        assertThat(causes)
                .singleElement()
                .satisfies(
                        e ->
                                assertThat(e)
                                        .isInstanceOf(TimeoutException.class)
                                        .hasMessage("a ran past the timeout"));
        io.runOne();
        loop.runReady();
        assertThat(ran).isFalse();
        assertThat(heard).hasSize(2);
    }

    @Test
    @DisplayName(
            "T21 a step running past its timeout is abandoned: failed at once, ended when it"
                    + " returns, its late value dropped")
    void aHungStepIsAbandonedAndEndsOnlyWhenItReturns() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        AtomicBoolean sawAbandoned = new AtomicBoolean();
        run(
                "t",
                "a",
                abandoned -> {
                    started.countDown();
                    interrupted.set(awaitUninterruptibly(release));
                    sawAbandoned.set(abandoned.getAsBoolean());
                    return "late";
                });
        Thread pool = new Thread(io::runOne, "lake-io");
        pool.start();
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();

        loop.advance(TIMEOUT);
        assertThat(heard).containsExactly("a failed unknown");
        assertThat(causes).singleElement().isInstanceOf(TimeoutException.class);
        assertThat(runner.busy("t")).as("its I/O may still land").isTrue();

        release.countDown();
        pool.join(30_000);
        loop.runReady();
        assertThat(interrupted).as("the hung thread was interrupted").isTrue();
        assertThat(sawAbandoned).as("the work can tell it was given up").isTrue();
        assertThat(heard).containsExactly("a failed unknown", "a ended");
        assertThat(runner.busy("t")).isFalse();
        assertThat(threads).containsOnly(Thread.currentThread());
    }

    @Test
    @DisplayName("steps of one key run one at a time, in call order; other keys do not wait")
    void stepsOfOneKeyRunOneAtATime() {
        LakeIoRunner.Work<String> work = abandoned -> "v";
        run(1L, "a", work);
        run(1L, "b", work);
        run(1L, "c", work);
        run(2L, "other", work);
        run(null, "free", work);

        assertThat(io.size()).as("a, other and free; b and c wait for a").isEqualTo(3);
        assertThat(runner.waiting(1L)).isEqualTo(2);
        io.runOne(); // a returns
        assertThat(io.size()).as("b waits until the loop heard of a").isEqualTo(2);
        loop.runReady();
        assertThat(io.size()).isEqualTo(3);
        assertThat(heard).containsExactly("a ended", "a succeeded v");

        while (io.runOne()) {
            loop.runReady();
        }
        assertThat(heard)
                .containsSubsequence("a succeeded v", "b succeeded v", "c succeeded v")
                .contains("other succeeded v", "free succeeded v");
        assertThat(runner.busy(1L)).isFalse();
        assertThat(runner.busy(2L)).isFalse();
    }

    @Test
    @DisplayName(
            "a step of a key waits for an abandoned step's I/O; one that waits past its own"
                    + " timeout fails as known and never runs")
    void aStepWaitsBehindAnAbandonedOneAndTimesOutThere() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        run(
                "t",
                "hung",
                abandoned -> {
                    started.countDown();
                    awaitUninterruptibly(release);
                    return "late";
                });
        Thread pool = new Thread(io::runOne, "lake-io");
        pool.start();
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        loop.advance(TIMEOUT);
        assertThat(heard).containsExactly("hung failed unknown");

        AtomicBoolean secondRan = new AtomicBoolean();
        run(
                "t",
                "second",
                abandoned -> {
                    secondRan.set(true);
                    return "v";
                });
        assertThat(io.size()).as("not handed to the pool while the hung one runs").isZero();
        loop.advance(TIMEOUT);
        assertThat(heard).endsWith("second ended", "second failed known");

        run("t", "third", abandoned -> "v");
        release.countDown();
        pool.join(30_000);
        loop.runReady();
        assertThat(heard).endsWith("hung ended");
        assertThat(io.size()).as("third starts once the hung one returned").isEqualTo(1);
        io.runOne();
        loop.runReady();
        assertThat(secondRan).isFalse();
        assertThat(heard).endsWith("third ended", "third succeeded v");
        assertThat(runner.busy("t")).isFalse();
    }

    @Test
    @DisplayName("a step abandoned before it started frees its key at once")
    void aStepAbandonedBeforeItStartedFreesItsKey() {
        run("t", "a", abandoned -> "v");
        loop.advanceMillis(TIMEOUT.toMillis() / 2);
        run("t", "b", abandoned -> "w");
        loop.advanceMillis(TIMEOUT.toMillis() / 2);
        assertThat(heard).containsExactly("a ended", "a failed known");

        io.runOne(); // a: abandoned, does nothing
        io.runOne(); // b
        loop.runReady();
        assertThat(heard).endsWith("b ended", "b succeeded w");
        assertThat(runner.busy("t")).isFalse();
    }
}
