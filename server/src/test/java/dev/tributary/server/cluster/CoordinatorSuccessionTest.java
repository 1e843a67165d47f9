package dev.tributary.server.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.cluster.MetadataLeadership;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.NotCoordinatorException;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.time.ManualClock;
import dev.tributary.coordinator.Coordinator;
import dev.tributary.coordinator.store.FileMetadataStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a fault of the running coordinator means for its server (T49): a real coordinator on a file
 * metadata store, its fault reported through the handler it was started with, and the quorum's
 * leadership recorded.
 */
class CoordinatorSuccessionTest {
    @TempDir Path dir;

    private final CoordinatorRole role =
            new CoordinatorRole(() -> new RetriableException("no coordinator here"));
    private final AtomicReference<Consumer<Throwable>> faults = new AtomicReference<>();
    private final List<Throwable> serverStops = new ArrayList<>();
    private Coordinator started;

    @AfterEach
    void closeCoordinator() {
        if (started != null) {
            started.close();
        }
    }

    private CoordinatorSuccession succession(MetadataLeadership quorum) {
        ManualClock clock = new ManualClock(1_000_000);
        FileMetadataStore store = FileMetadataStore.open(dir);
        return new CoordinatorSuccession(
                role,
                onFault -> {
                    faults.set(onFault);
                    started =
                            Coordinator.start(
                                    new Configuration(),
                                    clock,
                                    store,
                                    (tableId, path, buckets) -> List.of(),
                                    null,
                                    onFault);
                    return started;
                },
                quorum,
                serverStops::add,
                clock);
    }

    /** The quorum's leader: records a yield and whether the coordinator still ran then. */
    private final class Leader implements MetadataLeadership {
        final CompletableFuture<Boolean> yieldedWhileCoordinatorRan = new CompletableFuture<>();

        @Override
        public void yieldLeadership() {
            yieldedWhileCoordinatorRan.complete(!failsNow(started));
        }
    }

    private static boolean failsNow(Coordinator c) {
        try {
            c.status().get(5, TimeUnit.SECONDS);
            return false;
        } catch (Exception e) {
            return true;
        }
    }

    @Test
    @DisplayName(
            "t49: a coordinator stopped by a metadata write the quorum did not confirm steps down,"
                    + " and only then gives the leadership to an election; the server serves on")
    void t49_aRetriableFaultStepsDownAndYieldsTheLeadershipInsteadOfStoppingTheServer()
            throws Exception {
        Leader quorum = new Leader();
        CoordinatorSuccession succession = succession(quorum);
        role.took(succession.start());

        faults.get()
                .accept(
                        new RetriableException(
                                "cannot record the tiering of table 7 now"
                                        + " (LeaderSteppingDownException); retry"));

        assertThat(role.running()).isEmpty();
        assertThat(quorum.yieldedWhileCoordinatorRan.get(30, TimeUnit.SECONDS))
                .as("the leadership is given up only once the coordinator is closed")
                .isFalse();
        assertThat(serverStops).isEmpty();
    }

    @Test
    @DisplayName("t49: a write refused because the server no longer leads steps down, no stop")
    void t49_aNotCoordinatorFaultStepsDown() throws Exception {
        Leader quorum = new Leader();
        CoordinatorSuccession succession = succession(quorum);
        role.took(succession.start());

        faults.get().accept(new NotCoordinatorException("server 2 leads now", "2"));

        assertThat(role.running()).isEmpty();
        assertThat(quorum.yieldedWhileCoordinatorRan.get(30, TimeUnit.SECONDS)).isFalse();
        assertThat(serverStops).isEmpty();
    }

    @Test
    @DisplayName("t49: any other coordinator fault stops the server, which gives nothing up itself")
    void t49_anyOtherFaultStopsTheServer() {
        Leader quorum = new Leader();
        CoordinatorSuccession succession = succession(quorum);
        role.took(succession.start());

        IllegalStateException bug = new IllegalStateException("a broken invariant");
        faults.get().accept(bug);

        assertThat(serverStops).containsExactly(bug);
        assertThat(quorum.yieldedWhileCoordinatorRan).isNotDone();
    }

    @Test
    @DisplayName("t49: a lone server (no quorum) stops on a retriable coordinator fault too")
    void t49_aLoneServerStopsOnARetriableFault() {
        CoordinatorSuccession succession = succession(null);
        role.took(succession.start());

        RetriableException fault = new RetriableException("the metadata disk is full");
        faults.get().accept(fault);

        assertThat(serverStops).containsExactly(fault);
        assertThat(role.running()).contains(started);
    }
}
