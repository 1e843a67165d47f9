package dev.tributary.coordinator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.coordinator.metadata.TableChange;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.store.FileMetadataStore;
import dev.tributary.coordinator.tiering.TieringState;
import dev.tributary.tiering.api.HeartbeatRequest;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.api.RoundStats;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The threaded facade: event loop + commit pool + file store, on a manual clock. */
class CoordinatorTest {
    @TempDir Path dir;

    private static Throwable cause(Runnable r) {
        try {
            r.run();
            throw new AssertionError("no failure");
        } catch (CompletionException e) {
            return e.getCause();
        }
    }

    /** Lets the loop run timers due at the clock's current time. */
    private static void sync(Coordinator c) {
        c.status().join();
        c.status().join();
    }

    @Test
    @DisplayName(
            "admin and tiering calls through futures; commit runs on the pool and is recorded durably")
    void endToEnd() {
        ManualClock clock = new ManualClock(1_000_000);
        FakeBuckets buckets = new FakeBuckets();
        FakeLake lake = new FakeLake();
        FileMetadataStore store = FileMetadataStore.open(dir);
        TablePath path = TablePath.of("shop", "orders");
        long tableId;
        try (Coordinator c = Coordinator.start(new Configuration(), clock, store, buckets, lake)) {
            assertThat(c.incarnation()).isEqualTo(1);
            c.createDatabase("shop", null, false).join();
            TableDescriptor d =
                    TableDescriptor.builder(
                                    Schema.newBuilder().column("id", DataTypes.INT()).build())
                            .bucketCount(2)
                            .property("table.datalake.enabled", "true")
                            .property("table.datalake.freshness", "1min")
                            .build();
            TableInfo t = c.createTable(path, d, false).join();
            tableId = t.tableId();
            assertThat(c.cachedTable(path)).contains(t);
            assertThat(c.cachedTable(tableId)).contains(t);
            assertThat(c.cachedTable(TablePath.of("shop", "nope"))).isEmpty();
            assertThat(cause(() -> c.describeTable(TablePath.of("shop", "x")).join()))
                    .isInstanceOf(NotFoundException.class);
            assertThat(
                            cause(
                                    () ->
                                            c.alterTable(
                                                            path,
                                                            List.of(
                                                                    TableChange.set(
                                                                            "table.datalake.freshness",
                                                                            "abc")))
                                                    .join()))
                    .isInstanceOf(InvalidInputException.class);
            assertThat(c.listTables("shop").join()).containsExactly(path);
            var reg = c.registerJob("job-1", null).join();
            assertThat(reg.heartbeatTimeout()).isEqualTo(Duration.ofSeconds(8));
            buckets.write(tableId, 0, 4);
            clock.advance(Duration.ofMinutes(1));
            sync(c);
            var resp =
                    c.heartbeat(new HeartbeatRequest("job-1", null, List.of(), List.of(), true))
                            .join();
            RoundPlan p = resp.plan();
            assertThat(p).isNotNull();
            assertThat(p.tableId()).isEqualTo(tableId);
            long snap =
                    c.commit(
                                    RoundCommit.of(
                                            "job-1",
                                            tableId,
                                            p.epoch(),
                                            p.roundId(),
                                            Map.of(0, 4L),
                                            List.of(new byte[] {9}),
                                            new RoundStats(4, 40),
                                            false))
                            .join();
            assertThat(lake.commits()).hasSize(1);
            assertThat(c.tableStatus(tableId).join().orElseThrow().state())
                    .isEqualTo(TieringState.SCHEDULED);
            assertThat(c.tableStatus(tableId).join().orElseThrow().lastRound().lakeSnapshotId())
                    .isEqualTo(snap);
            assertThat(
                            cause(
                                    () ->
                                            c.commit(
                                                            RoundCommit.of(
                                                                    "job-1",
                                                                    tableId,
                                                                    p.epoch(),
                                                                    p.roundId(),
                                                                    Map.of(0, 4L),
                                                                    List.of(new byte[] {9}),
                                                                    null,
                                                                    false))
                                                    .join()))
                    .isInstanceOf(FencedException.class);
        }
        store.close();
        FileMetadataStore reopened = FileMetadataStore.open(dir);
        try (Coordinator c =
                Coordinator.start(new Configuration(), clock, reopened, buckets, lake)) {
            assertThat(c.incarnation()).isEqualTo(2);
            assertThat(c.describeTable(path).join().tableId()).isEqualTo(tableId);
            assertThat(c.tableStatus(tableId).join().orElseThrow().tieredOffsets())
                    .containsEntry(0, 4L);
        }
        reopened.close();
    }

    @Test
    @DisplayName("invalid coordinator options are rejected at start")
    void invalidOptions() {
        Configuration conf = new Configuration().setString("tiering.queue.policy", "lifo");
        assertThatThrownBy(
                        () ->
                                Coordinator.start(
                                        conf,
                                        new ManualClock(),
                                        FileMetadataStore.open(dir),
                                        new FakeBuckets(),
                                        null))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("tiering.queue.policy");
    }

    @Test
    @DisplayName(
            "a metadata write that fails stops the coordinator: the call fails as retriable, later"
                    + " calls too, and the fault handler (the server's stop) is told once")
    void aFailedMetadataStoreStopsTheCoordinator() throws Exception {
        java.util.concurrent.atomic.AtomicBoolean diskFull =
                new java.util.concurrent.atomic.AtomicBoolean();
        FileMetadataStore store =
                FileMetadataStore.open(
                        dir,
                        8L << 20,
                        point -> {
                            if (diskFull.get() && point.equals("log.before-append")) {
                                throw new java.io.IOException("No space left on device");
                            }
                        });
        List<Throwable> faults = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (Coordinator c =
                Coordinator.start(
                        new Configuration(),
                        new ManualClock(1_000_000),
                        store,
                        new FakeBuckets(),
                        new FakeLake(),
                        faults::add)) {
            c.createDatabase("db", null, false).join();
            diskFull.set(true);
            assertThat(cause(() -> c.createDatabase("other", null, false).join()))
                    .isInstanceOf(dev.tributary.common.exception.RetriableException.class)
                    .hasMessageContaining("stopped after an internal error")
                    .hasRootCauseMessage("No space left on device");
            assertThat(faults)
                    .singleElement()
                    .isInstanceOf(
                            dev.tributary.coordinator.store.MetadataStoreFailedException.class);
            diskFull.set(false);
            // the loop stays stopped: nothing more is decided on state the log may not hold
            assertThatThrownBy(c::listDatabases)
                    .isInstanceOf(dev.tributary.common.exception.RetriableException.class)
                    .hasMessageContaining("resumes when the server restarts");
        }
        try (FileMetadataStore reopened = FileMetadataStore.open(dir)) {
            assertThat(reopened.load().databases().keySet()).containsExactly("db");
        }
    }

    @Test
    @DisplayName("answers complete off the event loop, and close fails what still waits")
    void answersLeaveTheLoopAndCloseFailsWaitingCalls() throws Exception {
        ManualClock clock = new ManualClock(1_000_000);
        FakeBuckets buckets = new FakeBuckets();
        FakeLake slowLake =
                new FakeLake() {
                    @Override
                    public synchronized dev.tributary.lake.api.commit.LakeCommitResult commit(
                            TablePath path,
                            List<byte[]> results,
                            dev.tributary.lake.api.commit.TieringSnapshotProperties p,
                            dev.tributary.lake.api.commit.TieredRound base) {
                        try {
                            Thread.sleep(60_000); // a hung lake
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                        throw new IllegalStateException("interrupted");
                    }
                };
        FileMetadataStore store = FileMetadataStore.open(dir);
        Coordinator c = Coordinator.start(new Configuration(), clock, store, buckets, slowLake);
        try {
            String[] answeredOn = new String[1];
            c.listDatabases()
                    .thenAccept(x -> answeredOn[0] = Thread.currentThread().getName())
                    .get(10, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(answeredOn[0]).doesNotContain("event-loop");

            c.createDatabase("db", null, false).join();
            TableInfo t =
                    c.createTable(
                                    TablePath.of("db", "t"),
                                    TableDescriptor.builder(
                                                    Schema.newBuilder()
                                                            .column("id", DataTypes.INT())
                                                            .build())
                                            .bucketCount(1)
                                            .property("table.datalake.enabled", "true")
                                            .property("table.datalake.freshness", "1min")
                                            .build(),
                                    false)
                            .join();
            c.registerJob("job", null).join();
            buckets.write(t.tableId(), 0, 3);
            clock.advance(Duration.ofMinutes(1));
            sync(c);
            RoundPlan p =
                    c.heartbeat(new HeartbeatRequest("job", null, List.of(), List.of(), true))
                            .join()
                            .plan();
            var commit =
                    c.commit(
                            RoundCommit.of(
                                    "job",
                                    t.tableId(),
                                    p.epoch(),
                                    p.roundId(),
                                    Map.of(0, 3L),
                                    List.of(new byte[] {1}),
                                    null,
                                    false));
            var parked =
                    c.heartbeat(
                            new HeartbeatRequest(
                                    "job-2", null, List.of(), List.of(), true, 60_000));
            // the loop runs calls in order: once this status is answered, the poll above is parked
            assertThat(c.status().join().jobs())
                    .anySatisfy(
                            j -> {
                                assertThat(j.jobId()).isEqualTo("job-2");
                                assertThat(j.waitingForTable()).isTrue();
                            });
            assertThat(commit).isNotDone();

            c.close(Duration.ofMillis(300)); // the hung commit is abandoned after the wait

            assertThat(cause(commit::join))
                    .isInstanceOf(dev.tributary.common.exception.RetriableException.class)
                    .hasMessageContaining("shutting down");
            assertThat(parked.get(10, java.util.concurrent.TimeUnit.SECONDS).plan())
                    .as("a parked long poll is answered, empty")
                    .isNull();
        } finally {
            c.close();
            store.close();
        }
    }

    @Test
    @DisplayName("close waits for a lake commit in flight, which is recorded and answered")
    void closeWaitsForLakeCommitsInFlight() throws Exception {
        ManualClock clock = new ManualClock(1_000_000);
        FakeBuckets buckets = new FakeBuckets();
        java.util.concurrent.CountDownLatch inLake = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        FakeLake slowLake =
                new FakeLake() {
                    @Override
                    public synchronized dev.tributary.lake.api.commit.LakeCommitResult commit(
                            TablePath path,
                            List<byte[]> results,
                            dev.tributary.lake.api.commit.TieringSnapshotProperties p,
                            dev.tributary.lake.api.commit.TieredRound base) {
                        inLake.countDown();
                        try {
                            release.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException("interrupted");
                        }
                        return super.commit(path, results, p, base);
                    }
                };
        FileMetadataStore store = FileMetadataStore.open(dir);
        Coordinator c = Coordinator.start(new Configuration(), clock, store, buckets, slowLake);
        long tableId;
        try {
            c.createDatabase("db", null, false).join();
            TableDescriptor d =
                    TableDescriptor.builder(
                                    Schema.newBuilder().column("id", DataTypes.INT()).build())
                            .bucketCount(2)
                            .property("table.datalake.enabled", "true")
                            .property("table.datalake.freshness", "1min")
                            .build();
            TableInfo t = c.createTable(TablePath.of("db", "t"), d, false).join();
            TableInfo other = c.createTable(TablePath.of("db", "u"), d, false).join();
            tableId = t.tableId();
            c.registerJob("job", null).join();
            buckets.write(tableId, 0, 3);
            buckets.write(other.tableId(), 0, 2);
            clock.advance(Duration.ofMinutes(1));
            sync(c);
            RoundPlan p =
                    c.heartbeat(new HeartbeatRequest("job", null, List.of(), List.of(), true))
                            .join()
                            .plan();
            RoundPlan q =
                    c.heartbeat(new HeartbeatRequest("job", null, List.of(), List.of(), true))
                            .join()
                            .plan();
            if (p.tableId() != tableId) {
                RoundPlan swap = p;
                p = q;
                q = swap;
            }
            var commit =
                    c.commit(
                            RoundCommit.of(
                                    "job",
                                    tableId,
                                    p.epoch(),
                                    p.roundId(),
                                    Map.of(0, 3L),
                                    List.of(new byte[] {1}),
                                    null,
                                    false));
            assertThat(inLake.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();

            java.util.concurrent.CompletableFuture<Void> closed =
                    java.util.concurrent.CompletableFuture.runAsync(
                            () -> c.close(Duration.ofSeconds(30)));
            Thread.sleep(300);
            assertThat(closed).as("close waits for the lake commit").isNotDone();
            // a commit that has not started by now is not started any more
            RoundPlan late = q;
            assertThat(
                            cause(
                                    () ->
                                            c.commit(
                                                            RoundCommit.of(
                                                                    "job",
                                                                    late.tableId(),
                                                                    late.epoch(),
                                                                    late.roundId(),
                                                                    Map.of(0, 2L),
                                                                    List.of(new byte[] {2}),
                                                                    null,
                                                                    false))
                                                    .join()))
                    .isInstanceOf(dev.tributary.common.exception.RetriableException.class)
                    .hasMessageContaining("shutting down");

            release.countDown();
            closed.get(30, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(commit.get(10, java.util.concurrent.TimeUnit.SECONDS))
                    .as("the job got the commit's answer")
                    .isPositive();
            assertThat(slowLake.commits()).hasSize(1);
        } finally {
            release.countDown();
            c.close(Duration.ZERO);
            store.close();
        }
        try (FileMetadataStore reopened = FileMetadataStore.open(dir);
                Coordinator again =
                        Coordinator.start(
                                new Configuration(), clock, reopened, buckets, slowLake)) {
            assertThat(again.tableStatus(tableId).join().orElseThrow().tieredOffsets())
                    .as("the commit's outcome was recorded before the coordinator closed")
                    .containsEntry(0, 3L);
        }
    }
}
