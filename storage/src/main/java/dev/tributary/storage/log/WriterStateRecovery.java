package dev.tributary.storage.log;

import dev.tributary.common.id.TableBucket;
import dev.tributary.common.record.LogBatch;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.NavigableMap;

/**
 * Rebuilds a log's {@link WriterStates} from the newest snapshot at or below the log's end and the
 * writer fields of the batches after it (from the log start if there is none, e.g. a log written
 * before T42). Run when a log opens and when a follower cuts its tail.
 */
final class WriterStateRecovery {
    private WriterStateRecovery() {}

    /**
     * @param segments the log's segments by base offset; every batch below {@code endOffset} was
     *     verified when its segment was opened or appended, so only headers are read
     */
    static void recover(
            Path dir,
            TableBucket bucket,
            NavigableMap<Long, LogSegment> segments,
            long endOffset,
            WriterStates into)
            throws IOException {
        long from = segments.firstKey();
        var snapshot = WriterStateFiles.loadNewest(dir, bucket, endOffset);
        if (snapshot.isPresent()) {
            into.putAll(snapshot.get().states());
            from = Math.max(from, snapshot.get().offset());
        }
        if (from >= endOffset) {
            return;
        }
        byte[] chunk = new byte[1 << 20];
        for (LogSegment s : segments.tailMap(segments.floorKey(from)).values()) {
            long pos = s.index().lookup(Math.max(from, s.baseOffset));
            long limit = s.size();
            long chunkStart = 0;
            int chunkLength = 0;
            while (pos < limit) {
                int need = (int) Math.min(LogBatch.HEADER_SIZE, limit - pos);
                if (pos < chunkStart || pos + need > chunkStart + chunkLength) {
                    chunkStart = pos;
                    chunkLength = (int) Math.min(chunk.length, limit - pos);
                    s.readFully(ByteBuffer.wrap(chunk, 0, chunkLength), pos);
                }
                LogBatch b = LogBatch.wrap(chunk, (int) (pos - chunkStart), Integer.MAX_VALUE);
                if (b.baseOffset() >= from && b.writerId() != 0) {
                    into.record(b.writerId(), WriterStates.Entry.of(b));
                }
                pos += b.sizeInBytes();
            }
        }
    }
}
