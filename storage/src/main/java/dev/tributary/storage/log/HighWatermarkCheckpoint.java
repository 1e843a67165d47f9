package dev.tributary.storage.log;

import dev.tributary.common.exception.StorageException;
import dev.tributary.common.io.DurableFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A replicated log's high watermark as last checkpointed, in {@code high-watermark} beside its
 * segments (T50), so that a replica that restarts and leads shows readers what was acknowledged at
 * once, instead of nothing until every in-sync follower fetched again (Kafka checkpoints it the
 * same way). The high watermark only grows and every in-sync replica holds what is below it, so a
 * stale checkpoint only shows less, never more; a missing or damaged file reads as 0.
 */
public final class HighWatermarkCheckpoint {
    private static final Logger LOG = LoggerFactory.getLogger(HighWatermarkCheckpoint.class);
    private static final int MAGIC = 0x48574d31; // "HWM1"
    private static final int BYTES = 4 + 8 + 4;

    private final Path file;
    private long written = -1;

    HighWatermarkCheckpoint(Path file) {
        this.file = file;
    }

    /** Writes {@code highWatermark} atomically and durably, unless it is what was written last. */
    public synchronized void write(long highWatermark) {
        if (highWatermark == written) {
            return;
        }
        ByteBuffer b = ByteBuffer.allocate(BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(MAGIC).putLong(highWatermark);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, 12);
        b.putInt((int) crc.getValue());
        try {
            DurableFiles.replace(file, b.array(), 0, BYTES);
        } catch (IOException e) {
            throw new StorageException("cannot write " + file + ": " + e, e);
        }
        written = highWatermark;
    }

    /** The checkpointed high watermark, at most {@code logEnd}; 0 when none is readable. */
    public synchronized long read(long logEnd) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return 0;
        } catch (IOException e) {
            LOG.warn("cannot read {} ({}); readers wait for the followers", file, e.toString());
            return 0;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length != BYTES || b.getInt(0) != MAGIC) {
            LOG.warn("{} is not a high watermark checkpoint; ignoring it", file);
            return 0;
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, 12);
        long hw = b.getLong(4);
        if ((int) crc.getValue() != b.getInt(12) || hw < 0) {
            LOG.warn("{} is damaged; ignoring it", file);
            return 0;
        }
        return Math.min(hw, logEnd);
    }
}
