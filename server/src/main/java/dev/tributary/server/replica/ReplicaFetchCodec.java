package dev.tributary.server.replica;

import com.google.protobuf.ByteString;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.rpc.proto.EpochStartPb;
import dev.tributary.rpc.proto.FetchReplicaRequest;
import dev.tributary.rpc.proto.FetchReplicaResponse;
import dev.tributary.storage.log.LeaderEpochCache.EpochEnd;
import dev.tributary.storage.log.LeaderEpochCache.EpochStart;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link ReplicaFetch} to and from its protobuf messages. What comes off the wire is checked here
 * for shape only (counts, signs); the records are checked by the follower's log, batch by batch.
 */
public final class ReplicaFetchCodec {
    /** More epochs than any answer can need (one per leader change within one fetch). */
    static final int MAX_EPOCHS = 1024;

    private ReplicaFetchCodec() {}

    public static FetchReplicaRequest toProto(ReplicaFetch.Request r) {
        return FetchReplicaRequest.newBuilder()
                .setFollowerId(r.followerId())
                .setTableId(r.bucket().tableId())
                .setPartitionId(r.bucket().partitionId())
                .setBucket(r.bucket().bucket())
                .setLeaderEpoch(r.leaderEpoch())
                .setFetchOffset(r.fetchOffset())
                .setLastFetchedEpoch(r.lastFetchedEpoch())
                .setMaxBytes(r.maxBytes())
                .setMaxWaitMs(r.maxWaitMillis())
                .build();
    }

    public static ReplicaFetch.Request fromProto(FetchReplicaRequest p) {
        if (p.getBucket() < 0 || p.getFollowerId() < 0 || p.getLeaderEpoch() < 0) {
            throw new InvalidInputException(
                    "a replica fetch names a bucket, follower and leader epoch >= 0");
        }
        return new ReplicaFetch.Request(
                p.getFollowerId(),
                new TableBucket(p.getTableId(), p.getPartitionId(), p.getBucket()),
                p.getLeaderEpoch(),
                p.getFetchOffset(),
                p.getLastFetchedEpoch(),
                p.getMaxBytes(),
                p.getMaxWaitMs());
    }

    public static FetchReplicaResponse toProto(ReplicaFetch.Answer a) {
        FetchReplicaResponse.Builder b =
                FetchReplicaResponse.newBuilder()
                        .setRecords(ByteString.copyFrom(a.records()))
                        .setHighWatermark(a.highWatermark())
                        .setLogStartOffset(a.logStartOffset());
        for (EpochStart e : a.epochs()) {
            b.addEpochs(
                    EpochStartPb.newBuilder().setEpoch(e.epoch()).setStartOffset(e.startOffset()));
        }
        a.divergingEpochEnd()
                .ifPresent(
                        e ->
                                b.setDivergingEpochEnd(
                                        EpochStartPb.newBuilder()
                                                .setEpoch(e.epoch())
                                                .setStartOffset(e.endOffset())));
        return b.build();
    }

    /**
     * @throws InvalidInputException if the answer is malformed (too many epochs, epochs or offsets
     *     out of order or negative)
     */
    public static ReplicaFetch.Answer fromProto(FetchReplicaResponse p) {
        if (p.getEpochsCount() > MAX_EPOCHS) {
            throw new InvalidInputException(
                    "a replica fetch answer carries " + p.getEpochsCount() + " epochs");
        }
        List<EpochStart> epochs = new ArrayList<>(p.getEpochsCount());
        for (EpochStartPb e : p.getEpochsList()) {
            EpochStart before = epochs.isEmpty() ? null : epochs.get(epochs.size() - 1);
            if (e.getEpoch() < 0
                    || e.getStartOffset() < 0
                    || (before != null
                            && (e.getEpoch() <= before.epoch()
                                    || e.getStartOffset() <= before.startOffset()))) {
                throw new InvalidInputException(
                        "a replica fetch answer's epochs are out of order: " + p.getEpochsList());
            }
            epochs.add(new EpochStart(e.getEpoch(), e.getStartOffset()));
        }
        if (p.getHighWatermark() < 0 || p.getLogStartOffset() < 0) {
            throw new InvalidInputException("a replica fetch answer has a negative offset");
        }
        Optional<EpochEnd> diverging =
                p.hasDivergingEpochEnd()
                        ? Optional.of(
                                p.getDivergingEpochEnd().getEpoch() < 0
                                        ? EpochEnd.UNKNOWN
                                        : new EpochEnd(
                                                p.getDivergingEpochEnd().getEpoch(),
                                                p.getDivergingEpochEnd().getStartOffset()))
                        : Optional.empty();
        return new ReplicaFetch.Answer(
                p.getRecords().toByteArray(),
                epochs,
                p.getHighWatermark(),
                p.getLogStartOffset(),
                diverging);
    }
}
