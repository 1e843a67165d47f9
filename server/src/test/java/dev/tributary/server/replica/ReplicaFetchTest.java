package dev.tributary.server.replica;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.LogBatchBuilder;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.time.ManualClock;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.coordinator.metadata.BucketReplicas;
import dev.tributary.server.rpc.ReplicaServiceImpl;
import dev.tributary.storage.log.FlushPolicy;
import dev.tributary.storage.log.LeaderEpochCache;
import dev.tributary.storage.log.LogBucket;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two replicas of a bucket copying each other's logs over real gRPC on loopback: a follower's
 * fetches acknowledge the leader's writes, and after a leader change the old leader cuts the tail
 * nobody copied and copies the new leader's log (the replication protocol of T50; servers do not
 * run it yet, so no spec id is claimed).
 */
class ReplicaFetchTest {
    private static final TableBucket TB = new TableBucket(5, 0);
    private static final Schema SCHEMA =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("s", DataTypes.STRING())
                    .build();
    private static final RowCodec CODEC = RowCodec.of(SCHEMA);
    private static final LogBucket.Config CONFIG =
            new LogBucket.Config(4096, 256, FlushPolicy.FSYNC);
    private static final long LAG_MS = 60_000;

    @TempDir Path dir;

    private final ManualClock clock = new ManualClock(1_000);
    private final ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
    private final List<AutoCloseable> closing = new ArrayList<>();

    /** One server: a replica of the bucket and the gRPC endpoint that serves it when it leads. */
    private final class Node {
        final int id;
        final LogBucket log;
        final LeaderEpochCache epochs;
        final List<Set<Integer>> proposals = new java.util.concurrent.CopyOnWriteArrayList<>();
        final AtomicReference<LeaderReplica> leading = new AtomicReference<>();
        final Server grpc;

        Node(int id) throws Exception {
            this.id = id;
            Path d = dir.resolve("server-" + id);
            log = LogBucket.open(TB, d.resolve("log"), CONFIG);
            epochs = log.leaderEpochs();
            grpc =
                    NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                            .addService(
                                    new ReplicaServiceImpl(
                                            b ->
                                                    b.equals(TB)
                                                            ? Optional.ofNullable(leading.get())
                                                            : Optional.empty(),
                                            b -> Optional.empty()))
                            .build()
                            .start();
            closing.add(() -> grpc.shutdownNow().awaitTermination(10, TimeUnit.SECONDS));
            closing.add(log);
        }

        LeaderReplica lead(BucketReplicas replicas, long highWatermark, int minInsync) {
            LeaderReplica l =
                    LeaderReplica.start(
                            TB,
                            id,
                            replicas,
                            log,
                            highWatermark,
                            minInsync,
                            LAG_MS,
                            clock,
                            proposals::add,
                            executor);
            leading.set(l);
            return l;
        }

        GrpcLeaderClient client() {
            GrpcLeaderClient c =
                    new GrpcLeaderClient("127.0.0.1:" + grpc.getPort(), "", 8 << 20, 10_000);
            closing.add(c);
            return c;
        }

        ReplicaFetcher follow(Node leader, int leaderEpoch, long highWatermark) {
            return follow(leader, leaderEpoch, highWatermark, 5, 0);
        }

        ReplicaFetcher follow(
                Node leader, int leaderEpoch, long highWatermark, long backoff, int maxWait) {
            FollowerReplica f = new FollowerReplica(TB, id, leader.id, log, null, highWatermark);
            ReplicaFetcher fetcher =
                    new ReplicaFetcher(
                            f,
                            leaderEpoch,
                            leader.client(),
                            executor,
                            backoff,
                            maxWait,
                            1 << 20,
                            bytes -> 0);
            closing.add(fetcher);
            fetcher.start();
            return fetcher;
        }
    }

    @AfterEach
    void tearDown() throws Exception {
        for (int i = closing.size() - 1; i >= 0; i--) {
            closing.get(i).close();
        }
        executor.shutdownNow();
    }

    private static byte[] batch(long writer, long sequence) {
        LogBatchBuilder b = new LogBatchBuilder(0, 256);
        for (int i = 0; i < 4; i++) {
            b.add(
                    ChangeType.APPEND_ONLY,
                    1_000 + i,
                    Row.of(writer * 100 + sequence, "r" + i),
                    CODEC);
        }
        return b.writer(writer, sequence).build();
    }

    private static byte[] all(LogBucket log) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        long at = log.startOffset();
        while (at < log.endOffset()) {
            LogBucket.Read r = log.read(at, 1 << 20);
            out.writeBytes(r.records());
            at = r.nextOffset();
        }
        return out.toByteArray();
    }

    @Test
    void writesAreAcknowledgedOnceTheFollowerHasThemAndALeaderChangeCutsTheUncopiedTail()
            throws Exception {
        Node a = new Node(1);
        Node b = new Node(2);
        BucketReplicas epoch0 = BucketReplicas.initial(List.of(1, 2));
        LeaderReplica aLeads = a.lead(epoch0, 0, 2);
        ReplicaFetcher bFollows = b.follow(a, 0, 0);

        for (long seq = 0; seq < 5; seq++) {
            LogBucket.Appended acked = a.log.append(batch(7, seq));
            acked.durable().get(30, TimeUnit.SECONDS);
            assertThat(b.log.writtenEndOffset())
                    .as("acknowledged only once the follower has it")
                    .isGreaterThanOrEqualTo(acked.endOffset());
        }
        assertThat(aLeads.highWatermark()).isEqualTo(20);
        assertThatThrownBy(() -> b.log.append(batch(8, 0)))
                .isInstanceOf(NotLeaderForBucketException.class)
                .hasMessageContaining("server 1 leads it");

        // the follower stops; two more writes reach only the leader, and are not acknowledged
        bFollows.close();
        await().until(() -> b.log.writtenEndOffset() == 20);
        CompletableFuture<Void> tail1 = a.log.append(batch(7, 5)).durable();
        CompletableFuture<Void> tail2 = a.log.append(batch(7, 6)).durable();
        await().until(() -> a.log.durableEndOffset() == 28);
        assertThat(tail1).isNotDone();
        assertThat(a.log.endOffset()).as("readers see the high watermark only").isEqualTo(20);
        assertThat(a.log.read(0, 1 << 20).nextOffset()).isEqualTo(20);

        // a dies; b leads epoch 1 alone. Writer 7's retry of batch 5 is new there
        a.leading.set(null);
        aLeads.stop();
        assertThatThrownBy(() -> tail2.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(NotLeaderForBucketException.class);
        BucketReplicas epoch1 = epoch0.afterServerDied(1, Set.of(2)::contains);
        assertThat(epoch1.leader()).isEqualTo(2);
        LeaderReplica bLeads = b.lead(epoch1, 20, 1);
        LogBucket.Appended retried = b.log.append(batch(7, 5));
        retried.durable().get(30, TimeUnit.SECONDS);
        assertThat(retried.duplicate()).isFalse();
        assertThat(retried.baseOffset()).isEqualTo(20);
        b.log.append(batch(9, 0)).durable().get(30, TimeUnit.SECONDS);
        assertThat(b.log.endOffset()).isEqualTo(28);

        // a returns as b's follower: its tail (offsets 20..27 of epoch 0) is cut, b's log copied
        a.follow(b, 1, 20);
        await().atMost(Duration.ofSeconds(30))
                .until(
                        () ->
                                a.log.endOffset() == 28
                                        && bLeads.inSyncReplicas().pendingIsr().isPresent());
        assertThat(all(a.log)).isEqualTo(all(b.log));
        assertThat(a.epochs.entries()).isEqualTo(b.epochs.entries());
        assertThat(a.log.duplicateOf(7, 5))
                .hasValueSatisfying(d -> assertThat(d.baseOffset()).isEqualTo(20));
        assertThat(b.proposals)
                .as("caught up: b proposes a back into the in-sync set")
                .containsExactly(Set.of(1, 2));

        // fetches naming another epoch, or a server that does not lead, are refused with what
        // the follower must do
        GrpcLeaderClient toB = b.client();
        assertThatThrownBy(
                        () -> toB.fetch(new ReplicaFetch.Request(1, TB, 0, 28, 1, 1024, 0)).join())
                .hasCauseInstanceOf(FencedException.class)
                .hasMessageContaining("must apply the newer metadata first");
        GrpcLeaderClient toA = a.client();
        assertThatThrownBy(
                        () -> toA.fetch(new ReplicaFetch.Request(2, TB, 1, 28, 1, 1024, 0)).join())
                .hasCauseInstanceOf(NotLeaderForBucketException.class);
    }

    @Test
    void aFollowersFetchWithNothingNewIsHeldUntilAnAppendIsDurable() throws Exception {
        Node a = new Node(1);
        Node b = new Node(2);
        LeaderReplica aLeads = a.lead(BucketReplicas.initial(List.of(1, 2)), 0, 2);
        // without the long poll the follower would fetch again only after a minute: each append
        // below is acknowledged because the held fetch was answered when it became durable
        b.follow(a, 0, 0, 60_000, 60_000);
        for (long seq = 0; seq < 5; seq++) {
            // the follower's fetch at the log's end is held before the append
            await().atMost(Duration.ofSeconds(30)).until(() -> aLeads.heldFetches() == 1);
            LogBucket.Appended acked = a.log.append(batch(7, seq));
            acked.durable().get(30, TimeUnit.SECONDS);
            assertThat(b.log.writtenEndOffset()).isGreaterThanOrEqualTo(acked.endOffset());
        }
        // (the follower's high watermark trails until its next answer: compare what it holds)
        await().atMost(Duration.ofSeconds(30)).until(() -> b.log.durableEndOffset() == 20);
        assertThat(b.log.readForFollower(0, 1 << 20).records())
                .isEqualTo(a.log.readForFollower(0, 1 << 20).records());

        // a stopping leader answers the fetches it holds
        await().atMost(Duration.ofSeconds(30)).until(() -> aLeads.heldFetches() == 1);
        aLeads.stop();
        assertThat(aLeads.heldFetches()).isZero();
    }

    @Test
    void aFollowerWhoseEmptyLogStartsInsideOneOfTheLeadersBatchesStartsAtThatBatch()
            throws Exception {
        Node a = new Node(1);
        Node b = new Node(2);
        a.lead(new BucketReplicas(List.of(1, 2), 1, 0, List.of(1)), 0, 1);
        for (long seq = 0; seq < 5; seq++) {
            a.log.append(batch(7, seq)).durable().get(30, TimeUnit.SECONDS);
        }
        // b's log started over at offset 6 (a KV snapshot's offset), inside a's batch [4, 8): the
        // fetch from 6 is answered with that whole batch (found by the fault soak: b refused it
        // for ever)
        b.log.restartAt(6, new NotLeaderForBucketException("followed"));
        b.follow(a, 0, 0);
        await().atMost(Duration.ofSeconds(30)).until(() -> b.log.durableEndOffset() == 20);
        assertThat(b.log.startOffset()).isEqualTo(4);
        ByteArrayOutputStream fromFour = new ByteArrayOutputStream();
        long at = 4;
        while (at < a.log.endOffset()) {
            LogBucket.Read r = a.log.read(at, 1 << 20);
            fromFour.writeBytes(r.records());
            at = r.nextOffset();
        }
        assertThat(all(b.log)).isEqualTo(fromFour.toByteArray());
    }

    @Test
    void aFollowerBelowTheLeadersLogStartStartsAgainThereAndCatchesUp() throws Exception {
        Node a = new Node(1);
        Node b = new Node(2);
        // b is out of the in-sync set: a acknowledges alone, and retention deletes past b's end
        LeaderReplica aLeads = a.lead(new BucketReplicas(List.of(1, 2), 1, 0, List.of(1)), 0, 1);
        for (long seq = 0; seq < 120; seq++) {
            a.log.append(batch(7, seq)).durable().get(30, TimeUnit.SECONDS);
        }
        List<LogBucket.SegmentInfo> sealed = a.log.sealedSegments();
        assertThat(sealed).hasSizeGreaterThan(1);
        long start = sealed.get(sealed.size() - 1).nextOffset();
        a.log.deleteSegmentsBefore(start);

        // a fetch from below the start is answered at once (not held) with the leader's start
        GrpcLeaderClient toA = a.client();
        ReplicaFetch.Answer below =
                toA.fetch(new ReplicaFetch.Request(2, TB, 0, 0, -1, 1024, 60_000))
                        .get(10, TimeUnit.SECONDS);
        assertThat(below.startsPast(0)).isTrue();
        assertThat(below.logStartOffset()).isEqualTo(start);

        b.follow(a, 0, 0);
        await().atMost(Duration.ofSeconds(30)).until(() -> b.log.durableEndOffset() == 480);
        assertThat(b.log.startOffset()).isEqualTo(start);
        assertThat(all(b.log)).isEqualTo(all(a.log));
        assertThat(b.epochs.entries()).isEqualTo(a.epochs.entries());
        await().atMost(Duration.ofSeconds(30))
                .until(() -> aLeads.inSyncReplicas().pendingIsr().isPresent());
        assertThat(a.proposals).as("caught up: a proposes b back").containsExactly(Set.of(1, 2));
    }
}
