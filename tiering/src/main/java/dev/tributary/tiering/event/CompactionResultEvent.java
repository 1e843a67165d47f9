package dev.tributary.tiering.event;

import dev.tributary.common.id.LakeBucket;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Reader -> enumerator: the compaction of a (partition, bucket) unit ended.
 *
 * @param result the serialized {@code LakeCompactionResult}, {@code null} when it failed
 * @param error why it failed, {@code null} on success
 */
public record CompactionResultEvent(
        long tableId, long maintenanceId, String partition, int bucket, byte[] result, String error)
        implements SourceEvent {
    public LakeBucket unit() {
        return new LakeBucket(partition, bucket);
    }

    public boolean failed() {
        return error != null;
    }
}
