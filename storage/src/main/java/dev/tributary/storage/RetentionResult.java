package dev.tributary.storage;

/**
 * What one retention pass removed.
 *
 * @param segmentsDeleted log segments deleted (by time or size, never at or above the tiered offset
 *     of a lake-enabled table nor above the newest KV snapshot of a primary-key table)
 * @param bytesDeleted bytes of those segments
 * @param snapshotsDeleted KV snapshots deleted (beyond the retained count and not leased)
 */
public record RetentionResult(int segmentsDeleted, long bytesDeleted, int snapshotsDeleted) {
    RetentionResult plus(RetentionResult o) {
        return new RetentionResult(
                segmentsDeleted + o.segmentsDeleted,
                bytesDeleted + o.bytesDeleted,
                snapshotsDeleted + o.snapshotsDeleted);
    }
}
