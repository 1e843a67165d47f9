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
}
