package dev.tributary.server.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The leader's held fetches: answered once, by new records, the deadline or a stop. */
class DelayedFetchesTest {
    private static final long LONG = 600_000;

    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(1);
    private final DelayedFetches delayed = new DelayedFetches(executor);
    private final List<String> answered = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private Runnable answer(String name) {
        return () -> answered.add(name);
    }

    @Test
    void aFetchIsAnsweredOnceWhenRecordsPastItsOffsetAreDurable() {
        assertThat(delayed.hold(10, LONG, answer("at 10"), 10)).isTrue();
        assertThat(delayed.hold(12, LONG, answer("at 12"), 10)).isTrue();
        assertThat(delayed.size()).isEqualTo(2);

        delayed.onDurable(10); // nothing past 10 yet
        delayed.onDurable(11);
        await().atMost(Duration.ofSeconds(30)).until(() -> answered.size() == 1);
        assertThat(answered).containsExactly("at 10");
        assertThat(delayed.size()).isEqualTo(1);

        delayed.onDurable(20);
        delayed.onDurable(30);
        delayed.releaseAll();
        await().atMost(Duration.ofSeconds(30)).until(() -> answered.size() == 2);
        assertThat(answered).containsExactly("at 10", "at 12");
        assertThat(delayed.size()).isZero();
    }

    @Test
    void recordsDurableBeforeTheHoldAnswerAtOnce() {
        assertThat(delayed.hold(10, LONG, answer("late"), 11)).isTrue();
        await().atMost(Duration.ofSeconds(30)).until(() -> answered.size() == 1);
        assertThat(delayed.size()).isZero();
    }

    @Test
    void theDeadlineAnswersAndAStopAnswersTheRest() {
        delayed.hold(5, 1, answer("deadline"), 5);
        await().atMost(Duration.ofSeconds(30)).until(() -> answered.size() == 1);
        delayed.hold(5, LONG, answer("stop"), 5);
        delayed.releaseAll();
        await().atMost(Duration.ofSeconds(30)).until(() -> answered.size() == 2);
        assertThat(answered).containsExactly("deadline", "stop");
    }

    @Test
    void aFetchThatReachesAStoppedLeaderIsAnsweredAtOnce() {
        delayed.releaseAll();
        assertThat(delayed.hold(5, LONG, answer("after the stop"), 5)).isTrue();
        // on this thread, now: the executor stops right after its leader, and a deadline on it
        // would never fire
        assertThat(answered).containsExactly("after the stop");
        assertThat(delayed.size()).isZero();
    }

    @Test
    void theHeldFetchesAreBounded() {
        for (int i = 0; i < DelayedFetches.MAX_HELD; i++) {
            assertThat(delayed.hold(5, LONG, answer("f" + i), 5)).isTrue();
        }
        assertThat(delayed.hold(5, LONG, answer("one too many"), 5)).isFalse();
        delayed.releaseAll();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> answered.size() == DelayedFetches.MAX_HELD);
        assertThat(answered).doesNotContain("one too many");
    }
}
