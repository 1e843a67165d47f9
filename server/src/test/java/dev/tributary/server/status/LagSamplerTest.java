package dev.tributary.server.status;

import static dev.tributary.server.status.StatusViews.table;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import dev.tributary.common.exception.StorageException;
import dev.tributary.common.time.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LagSamplerTest {
    private final ManualClock clock = new ManualClock(1_000_000);
    private final LagHistory history = new LagHistory(Duration.ofSeconds(5), Duration.ofMinutes(1));
    private final AtomicLong lag = new AtomicLong();
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicBoolean failing = new AtomicBoolean();
    private final LagSource source =
            () -> {
                calls.incrementAndGet();
                if (failing.get()) {
                    throw new StorageException("store closed");
                }
                return List.of(table(1, "db.a", 30_000, lag.get(), lag.get() / 10));
            };
    private final LagSampler sampler =
            new LagSampler(source, history, clock, Duration.ofSeconds(5));

    private long[] times() {
        return history.view().tables().get(0).timeMillis();
    }

    @Test
    void t28SamplesOncePerIntervalOfTheServerClock() {
        sampler.run();
        assertThat(times()).containsExactly(1_000_000);
        // the metronome ticking while the clock stands still takes no sample
        sampler.run();
        sampler.run();
        assertThat(calls).hasValue(1);

        clock.advance(Duration.ofSeconds(5));
        lag.set(5_000);
        sampler.run();
        // a tick a little early still counts (half an interval of tolerance) ...
        clock.advance(Duration.ofMillis(4_900));
        lag.set(9_900);
        sampler.run();
        // ... but not one in the same period
        clock.advance(Duration.ofMillis(2_000));
        sampler.run();
        assertThat(times()).containsExactly(1_000_000, 1_005_000, 1_009_900);
        assertThat(history.view().tables().get(0).lagMillis()).containsExactly(0, 5_000, 9_900);
        assertThat(history.view().tables().get(0).lagRecords()).containsExactly(0, 500, 990);
    }

    @Test
    void t28TheSawtoothOfRoundsIsRecordedAsSampled() {
        // lag grows with the clock and falls back to about one round when a round commits
        List<Long> expected = new ArrayList<>();
        long lagNow = 2_000;
        for (int i = 0; i < 24; i++) {
            lag.set(lagNow);
            expected.add(lagNow);
            sampler.run();
            clock.advance(Duration.ofSeconds(5));
            lagNow = (i % 6 == 5) ? 2_000 : lagNow + 5_000;
        }
        long[] got = history.view().tables().get(0).lagMillis();
        // retention 1min at 5s keeps the newest 13 samples
        assertThat(got).hasSize(13);
        long[] tail =
                expected.subList(expected.size() - 13, expected.size()).stream()
                        .mapToLong(Long::longValue)
                        .toArray();
        assertThat(got).containsExactly(tail);
        assertThat(got).contains(2_000L, 27_000L);
    }

    @Test
    void t28AFailingSourceIsRetriedAtTheNextTickWithoutThrowing() {
        failing.set(true);
        assertThatCode(sampler::run).doesNotThrowAnyException();
        assertThat(history.tableCount()).isZero();
        failing.set(false);
        sampler.run();
        assertThat(times()).containsExactly(1_000_000);
    }

    @Test
    void t28AWallClockStepBackSamplesAtOnce() {
        sampler.run();
        clock.advance(Duration.ofSeconds(5));
        sampler.run();
        clock.setCurrentTimeMillis(1_002_000);
        assertThat(sampler.sampleIfDue()).isTrue();
        assertThat(times()).containsExactly(1_000_000, 1_002_000);
    }
}
