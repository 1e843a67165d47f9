package dev.tributary.server.replica;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class MoveThrottleTest {
    private final ManualClock clock = new ManualClock(5_000);
    private final MoveThrottle throttle = new MoveThrottle(1_000, clock);

    @Test
    void aSecondOfBytesPassesAtOnceThenFetchesWaitForTheRate() {
        assertThat(throttle.take(600)).isZero();
        assertThat(throttle.take(400)).isZero();
        assertThat(throttle.take(500)).as("500 bytes in debt at 1000 B/s").isEqualTo(500);
        assertThat(throttle.take(250)).as("the debts of all moving replicas add up").isEqualTo(750);

        clock.advance(Duration.ofMillis(750));
        assertThat(throttle.take(0)).isZero();
        clock.advance(Duration.ofSeconds(10));
        assertThat(throttle.take(1_000)).as("idle time saves at most one second").isZero();
        assertThat(throttle.take(1)).isEqualTo(1);
    }
}
