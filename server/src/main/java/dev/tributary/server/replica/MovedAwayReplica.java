package dev.tributary.server.replica;

import dev.tributary.common.exception.NotLeaderForBucketException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.storage.log.LogBucket;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The log of a bucket this server no longer holds a replica of (it moved to other servers): until
 * the copy is deleted, an append that slipped past the routing check fails instead of being
 * acknowledged by a copy nobody replicates or reads any more.
 */
final class MovedAwayReplica implements LogBucket.Replication {
    private final TableBucket bucket;
    private final List<Integer> replicas;
    private final long highWatermark;

    MovedAwayReplica(TableBucket bucket, List<Integer> replicas, long highWatermark) {
        this.bucket = bucket;
        this.replicas = List.copyOf(replicas);
        this.highWatermark = highWatermark;
    }

    @Override
    public void checkCanAppend() {
        throw notHere();
    }

    @Override
    public CompletableFuture<Void> acknowledged(long durableEnd, long endOffset) {
        return CompletableFuture.failedFuture(notHere());
    }

    @Override
    public long highWatermark() {
        return highWatermark;
    }

    private NotLeaderForBucketException notHere() {
        return new NotLeaderForBucketException(
                "bucket "
                        + bucket
                        + " moved to servers "
                        + replicas
                        + "; this server no longer holds it: send the request to its leader");
    }
}
