package dev.tributary.server.replica;

import dev.tributary.common.id.TableBucket;
import dev.tributary.storage.kv.KvSnapshotTransfer.Manifest;
import java.util.Optional;

/**
 * A primary-key follower's copy of its leader's KV snapshot, one call at a time (T53): the first
 * leases the snapshot and gets its manifest, each later one reads a chunk of a file, the last ends
 * the lease.
 */
public final class KvSnapshotFetch {
    private KvSnapshotFetch() {}

    /**
     * @param leaseId 0 for the first call; then the manifest's lease
     * @param release ends the lease instead of reading
     */
    public record Request(
            int followerId,
            TableBucket bucket,
            int leaderEpoch,
            long leaseId,
            long snapshotId,
            String file,
            long position,
            int maxBytes,
            boolean release) {

        static Request manifest(int followerId, TableBucket bucket, int leaderEpoch) {
            return new Request(followerId, bucket, leaderEpoch, 0, 0, "", 0, 0, false);
        }

        static Request chunk(
                int followerId,
                TableBucket bucket,
                int leaderEpoch,
                Manifest m,
                String file,
                long position,
                int maxBytes) {
            return new Request(
                    followerId,
                    bucket,
                    leaderEpoch,
                    m.leaseId(),
                    m.snapshotId(),
                    file,
                    position,
                    maxBytes,
                    false);
        }

        static Request release(int followerId, TableBucket bucket, int leaderEpoch, Manifest m) {
            return new Request(
                    followerId, bucket, leaderEpoch, m.leaseId(), m.snapshotId(), "", 0, 0, true);
        }

        boolean isManifest() {
            return leaseId == 0 && !release;
        }
    }

    /** The manifest (first call), or a chunk of the file asked for. */
    public record Answer(Optional<Manifest> manifest, byte[] data) {}
}
