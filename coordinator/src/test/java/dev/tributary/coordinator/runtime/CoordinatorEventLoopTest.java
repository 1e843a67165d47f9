package dev.tributary.coordinator.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.time.Clock;
import dev.tributary.coordinator.tiering.IllegalTransitionException;
import dev.tributary.coordinator.tiering.TieringState;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CoordinatorEventLoopTest {
    private final CopyOnWriteArrayList<Throwable> fatal = new CopyOnWriteArrayList<>();
    private final CoordinatorEventLoop loop =
            new CoordinatorEventLoop(Clock.system(), "test-loop", fatal::add);

    @AfterEach
    void tearDown() {
        loop.close();
    }

    private static Throwable cause(CompletableFuture<?> f) throws Exception {
        try {
            f.get(10, TimeUnit.SECONDS);
            throw new AssertionError("no failure");
        } catch (java.util.concurrent.ExecutionException e) {
            return e.getCause();
        }
    }

    @Test
    @DisplayName("a caller's typed error goes to the caller and the loop carries on")
    void aTypedErrorIsTheCallersAndTheLoopCarriesOn() throws Exception {
        loop.start();
        CompletableFuture<Object> bad =
                loop.submit(
                        () -> {
                            throw new InvalidInputException("no such bucket");
                        });
        assertThat(cause(bad)).isInstanceOf(InvalidInputException.class);
        assertThat(loop.submit(() -> 42).get(10, TimeUnit.SECONDS)).isEqualTo(42);
        assertThat(fatal).isEmpty();
    }

    @Test
    @DisplayName("T15 an illegal transition stops the loop: never a log line and carry on")
    void anIllegalTransitionStopsTheLoop() throws Exception {
        loop.start();
        CompletableFuture<Object> f =
                loop.submit(
                        () -> {
                            throw new IllegalTransitionException(
                                    7, TieringState.SCHEDULED, TieringState.TIERED);
                        });

        assertThat(cause(f))
                .isInstanceOf(RetriableException.class)
                .hasMessageContaining("stopped after an internal error")
                .hasCauseInstanceOf(IllegalTransitionException.class);
        assertThat(fatal).singleElement().isInstanceOf(IllegalTransitionException.class);
        assertThat(loop.fatalError()).isInstanceOf(IllegalTransitionException.class);
        assertThatThrownBy(() -> loop.submit(() -> 1))
                .isInstanceOf(RetriableException.class)
                .hasMessageContaining("illegal tiering transition");
    }

    @Test
    @DisplayName("an Error in a timer stops the loop too")
    void anErrorInATimerStopsTheLoop() throws Exception {
        loop.start();
        loop.submit(
                        () ->
                                loop.schedule(
                                        0,
                                        () -> {
                                            throw new AssertionError("bug");
                                        }))
                .get(10, TimeUnit.SECONDS);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (fatal.isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(fatal).singleElement().isInstanceOf(AssertionError.class);
        assertThatThrownBy(() -> loop.execute(() -> {})).isInstanceOf(RetriableException.class);
    }

    @Test
    @DisplayName("a plain RuntimeException from a call is a bug, not the caller's error")
    void anUntypedExceptionIsABug() throws Exception {
        loop.start();
        CompletableFuture<Object> f =
                loop.submit(
                        () -> {
                            throw new NullPointerException("state missing");
                        });
        assertThat(cause(f)).isInstanceOf(RetriableException.class);
        assertThat(fatal).singleElement().isInstanceOf(NullPointerException.class);
        assertThatThrownBy(() -> loop.submit(() -> 1).join())
                .isInstanceOfAny(RetriableException.class, CompletionException.class);
    }
}
