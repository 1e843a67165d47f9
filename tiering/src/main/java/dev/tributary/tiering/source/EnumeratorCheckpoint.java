package dev.tributary.tiering.source;

import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * The enumerator keeps no checkpointed state: rounds live at the coordinator, which re-queues the
 * tables of a restarted job (its attempts fail or time out and get new epochs).
 */
public final class EnumeratorCheckpoint {
    public static final EnumeratorCheckpoint EMPTY = new EnumeratorCheckpoint();

    private EnumeratorCheckpoint() {}

    /** Serializer of the empty state. */
    public static final class Serializer
            implements SimpleVersionedSerializer<EnumeratorCheckpoint> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(EnumeratorCheckpoint state) {
            return new byte[0];
        }

        @Override
        public EnumeratorCheckpoint deserialize(int version, byte[] serialized) throws IOException {
            if (serialized.length != 0) {
                throw new IOException(
                        "unexpected enumerator state of " + serialized.length + " bytes");
            }
            return EMPTY;
        }
    }
}
