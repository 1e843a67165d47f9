package dev.tributary.coordinator.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TimerQueueTest {

    @Test
    @DisplayName(
            "timers fire in deadline order (ties in scheduling order), on monotonic time, and can be cancelled")
    void orderAndCancel() {
        ManualClock clock = new ManualClock(0);
        ManualLoop loop = new ManualLoop(clock);
        List<String> fired = new ArrayList<>();
        loop.schedule(300, () -> fired.add("c@" + clock.nanoTime() / 1_000_000));
        loop.schedule(100, () -> fired.add("a@" + clock.nanoTime() / 1_000_000));
        loop.schedule(100, () -> fired.add("b@" + clock.nanoTime() / 1_000_000));
        TimerService.Timer cancelled = loop.schedule(200, () -> fired.add("x"));
        loop.schedule(-5, () -> fired.add("now@" + clock.nanoTime() / 1_000_000));
        cancelled.cancel();
        // A wall-clock jump backwards does not stall timers (they run on monotonic time).
        clock.setCurrentTimeMillis(-1_000_000);
        loop.advance(Duration.ofMillis(250));
        assertThat(fired).containsExactly("now@0", "a@100", "b@100");
        loop.advance(Duration.ofMillis(50));
        assertThat(fired).containsExactly("now@0", "a@100", "b@100", "c@300");
        assertThat(loop.nanosToNextTimer()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    @DisplayName("a timer scheduled by a timer for now runs in the same step")
    void chained() {
        ManualClock clock = new ManualClock(0);
        ManualLoop loop = new ManualLoop(clock);
        List<Integer> fired = new ArrayList<>();
        loop.schedule(
                10,
                () -> {
                    fired.add(1);
                    loop.schedule(0, () -> fired.add(2));
                });
        loop.advance(Duration.ofMillis(10));
        assertThat(fired).containsExactly(1, 2);
    }

    @Test
    @DisplayName(
            "a timer cancelled at every round (a commit timeout, a long-poll wait) does not stay"
                    + " in the queue until its deadline: the queue is bounded by the live timers")
    void cancelledTimersDoNotAccumulate() {
        ManualClock clock = new ManualClock(0);
        TimerQueue timers = new TimerQueue(clock);
        // 1,000 tables, each with a live due timer, and per round a 2-minute commit timeout that
        // the commit cancels after 50 ms: 100,000 rounds in ~83 minutes of manual time
        List<TimerService.Timer> due = new ArrayList<>();
        for (int t = 0; t < 1_000; t++) {
            due.add(timers.schedule(36_000_000, () -> {}));
        }
        // and a sweep every second (as the manager's): a live timer always ahead of the dead ones
        Runnable[] sweep = new Runnable[1];
        sweep[0] = () -> timers.schedule(1_000, sweep[0]);
        timers.schedule(1_000, sweep[0]);
        int maxSize = 0;
        for (int round = 0; round < 100_000; round++) {
            TimerService.Timer timeout = timers.schedule(120_000, () -> {});
            clock.advance(Duration.ofMillis(50));
            timeout.cancel();
            timers.runDue();
            maxSize = Math.max(maxSize, timers.size());
        }
        // without the sweep the queue held every timeout of the last 2 minutes (2,400)
        assertThat(maxSize).isLessThanOrEqualTo(2 * (due.size() + 2) + TimerQueue.SWEEP_MIN + 2);
        assertThat(timers.size()).isGreaterThanOrEqualTo(due.size() + 1);
    }

    @Test
    @DisplayName("a cancelled timer drops its task, so what the task captured can be collected")
    void aCancelledTimerHoldsNoTask() {
        ManualClock clock = new ManualClock(0);
        TimerQueue timers = new TimerQueue(clock);
        java.lang.ref.WeakReference<byte[]> captured;
        TimerService.Timer t;
        {
            byte[] payload = new byte[1 << 20];
            captured = new java.lang.ref.WeakReference<>(payload);
            t = timers.schedule(120_000, () -> assertThat(payload).isNotNull());
        }
        t.cancel();
        for (int i = 0; i < 20 && captured.get() != null; i++) {
            System.gc();
        }
        assertThat(captured.get()).isNull();
        assertThat(timers.size()).isEqualTo(1);
    }
}
