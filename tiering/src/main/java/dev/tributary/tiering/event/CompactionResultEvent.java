package dev.tributary.tiering.event;

import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Reader -> enumerator: a bucket's compaction ended.
 *
 * @param result the serialized {@code LakeCompactionResult}, {@code null} when it failed
 * @param error why it failed, {@code null} on success
 */
public record CompactionResultEvent(
        long tableId, long maintenanceId, int bucket, byte[] result, String error)
        implements SourceEvent {
    public boolean failed() {
        return error != null;
    }
}
