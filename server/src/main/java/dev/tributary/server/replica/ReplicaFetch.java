package dev.tributary.server.replica;

import dev.tributary.common.id.TableBucket;
import dev.tributary.storage.log.LeaderEpochCache.EpochEnd;
import dev.tributary.storage.log.LeaderEpochCache.EpochStart;
import java.util.List;
import java.util.Optional;

/** A follower's fetch of a bucket's log from its leader, and the answer (T50). */
public final class ReplicaFetch {
    private ReplicaFetch() {}

    /**
     * @param followerId the fetching server
     * @param leaderEpoch the epoch the follower knows from the metadata
     * @param fetchOffset the end of the follower's log
     * @param lastFetchedEpoch the epoch of the follower's last record, -1 if it has none
     * @param maxBytes soft cap on the records returned
     * @param maxWaitMillis how long the leader may hold a fetch that finds nothing new (0: not)
     */
    public record Request(
            int followerId,
            TableBucket bucket,
            int leaderEpoch,
            long fetchOffset,
            int lastFetchedEpoch,
            int maxBytes,
            int maxWaitMillis) {}

    /**
     * @param records whole batches from the fetch offset
     * @param epochs the epochs of those records, oldest first, the first covering the fetch offset
     *     (empty when the records predate epochs)
     * @param logStartOffset the leader's log start; above the fetch offset (with no records) when
     *     retention deleted records the follower misses: it then starts its log again there
     * @param divergingEpochEnd instead of records: where the follower's last epoch ended on the
     *     leader, so the follower cuts its log there
     */
    public record Answer(
            byte[] records,
            List<EpochStart> epochs,
            long highWatermark,
            long logStartOffset,
            Optional<EpochEnd> divergingEpochEnd) {

        static Answer diverged(EpochEnd end, long highWatermark, long logStartOffset) {
            return new Answer(
                    new byte[0], List.of(), highWatermark, logStartOffset, Optional.of(end));
        }

        /** For a fetch below the leader's log start: nothing to send from there. */
        static Answer belowLogStart(long highWatermark, long logStartOffset) {
            return new Answer(
                    new byte[0], List.of(), highWatermark, logStartOffset, Optional.empty());
        }

        /** Whether the records after {@code fetchOffset} were deleted on the leader. */
        public boolean startsPast(long fetchOffset) {
            return records.length == 0
                    && divergingEpochEnd.isEmpty()
                    && logStartOffset > fetchOffset;
        }
    }
}
