package dev.tributary.lake.api.maintenance;

/**
 * What a snapshot expiry did.
 *
 * @param snapshotsExpired snapshots removed
 * @param snapshotsRetained snapshots left
 * @param filesDeleted data and delete files deleted because no retained snapshot references them
 * @param bytesDeleted their bytes
 */
public record ExpiryResult(
        int snapshotsExpired, int snapshotsRetained, int filesDeleted, long bytesDeleted) {
    public static ExpiryResult nothing(int retained) {
        return new ExpiryResult(0, retained, 0, 0);
    }
}
