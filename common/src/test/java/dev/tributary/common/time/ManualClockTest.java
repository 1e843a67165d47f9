package dev.tributary.common.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ManualClockTest {
    @Test
    void movesOnlyWhenTold() {
        ManualClock clock = new ManualClock(1_000);
        assertThat(clock.currentTimeMillis()).isEqualTo(1_000);
        clock.advance(Duration.ofSeconds(2));
        assertThat(clock.currentTimeMillis()).isEqualTo(3_000);
        assertThat(clock.nanoTime()).isEqualTo(2_000_000_000L);
    }

    @Test
    void wallTimeMayJumpBackButMonotonicTimeMayNot() {
        ManualClock clock = new ManualClock(10_000);
        clock.advanceMillis(5);
        clock.setCurrentTimeMillis(0);
        assertThat(clock.currentTimeMillis()).isZero();
        assertThat(clock.nanoTime()).isEqualTo(5_000_000L);
        assertThatThrownBy(() -> clock.advance(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
