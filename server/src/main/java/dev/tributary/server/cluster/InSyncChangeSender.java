package dev.tributary.server.cluster;

import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.rpc.error.GrpcErrors;
import dev.tributary.rpc.proto.AlterInSyncReplicasRequest;
import dev.tributary.rpc.proto.AlterInSyncReplicasResponse;
import dev.tributary.server.replica.ReplicaManager;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the in-sync set changes this server's bucket leaders ask for to the coordinator (T50), one
 * at a time on its own thread. The answer is the in-sync set as written; a failure is typed (the
 * leader then proposes again at its next check).
 */
public final class InSyncChangeSender implements ReplicaManager.InSyncChanges, AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(InSyncChangeSender.class);

    private final int serverId;
    private final CoordinatorChannel coordinator;
    private final ExecutorService thread =
            Executors.newSingleThreadExecutor(
                    r -> {
                        Thread t = new Thread(r, "in-sync-changes");
                        t.setDaemon(true);
                        return t;
                    });

    public InSyncChangeSender(int serverId, Supplier<Optional<String>> coordinator, String token) {
        this.serverId = serverId;
        this.coordinator = new CoordinatorChannel(coordinator, token);
    }

    @Override
    public CompletableFuture<List<Integer>> propose(
            TableBucket bucket, int leaderEpoch, List<Integer> isr) {
        return CompletableFuture.supplyAsync(() -> send(bucket, leaderEpoch, isr), thread);
    }

    private List<Integer> send(TableBucket bucket, int leaderEpoch, List<Integer> isr) {
        AlterInSyncReplicasResponse written;
        try {
            written =
                    coordinator
                            .stub()
                            .orElseThrow(() -> new RetriableException("no coordinator known yet"))
                            .withDeadlineAfter(30, TimeUnit.SECONDS)
                            .alterInSyncReplicas(
                                    AlterInSyncReplicasRequest.newBuilder()
                                            .setServerId(serverId)
                                            .setTableId(bucket.tableId())
                                            .setPartitionId(bucket.partitionId())
                                            .setBucket(bucket.bucket())
                                            .setLeaderEpoch(leaderEpoch)
                                            .addAllIsr(isr)
                                            .build());
        } catch (RuntimeException e) {
            TributaryException typed = GrpcErrors.fromThrowable(e);
            LOG.warn("bucket {}: in-sync set {} not written: {}", bucket, isr, typed.getMessage());
            throw typed;
        }
        LOG.info("bucket {}: in-sync set {} written (epoch {})", bucket, isr, leaderEpoch);
        return List.copyOf(written.getIsrList());
    }

    @Override
    public void close() {
        thread.shutdownNow();
        coordinator.close();
    }
}
