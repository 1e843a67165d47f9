package dev.tributary.lake.api.write;

import dev.tributary.common.id.TablePath;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What one {@link LakeWriter} wrote: the identity of its split, statistics, and a format-native
 * payload only the same format's committer interprets. Immutable. Ship it as bytes with {@link
 * LakeWriteResultSerializer}; the coordinator can read every field except the payload without the
 * format plugin.
 */
public final class LakeWriteResult {
    private final String format;
    private final TablePath tablePath;
    private final long tableId;
    private final long epoch;
    private final long roundId;
    private final int bucket;
    private final long rowCount;
    private final List<String> files;
    private final long fileBytes;
    private final long minTimestampMillis;
    private final long maxTimestampMillis;
    private final byte[] payload;

    /**
     * @param format the format identifier of the writer
     * @param files absolute paths/URIs of every file written (data and delete files)
     * @param minTimestampMillis smallest record timestamp; ignored when {@code rowCount == 0}
     * @param maxTimestampMillis largest record timestamp; ignored when {@code rowCount == 0}
     * @param payload format-native commit data (owned by the format, versioned by it)
     */
    public LakeWriteResult(
            String format,
            TablePath tablePath,
            long tableId,
            long epoch,
            long roundId,
            int bucket,
            long rowCount,
            List<String> files,
            long fileBytes,
            long minTimestampMillis,
            long maxTimestampMillis,
            byte[] payload) {
        this.format = Objects.requireNonNull(format, "format");
        this.tablePath = Objects.requireNonNull(tablePath, "tablePath");
        this.tableId = tableId;
        this.epoch = epoch;
        this.roundId = roundId;
        this.bucket = bucket;
        this.rowCount = rowCount;
        this.files = List.copyOf(files);
        this.fileBytes = fileBytes;
        this.minTimestampMillis = rowCount == 0 ? 0 : minTimestampMillis;
        this.maxTimestampMillis = rowCount == 0 ? 0 : maxTimestampMillis;
        this.payload = payload.clone();
    }

    public String format() {
        return format;
    }

    public TablePath tablePath() {
        return tablePath;
    }

    public long tableId() {
        return tableId;
    }

    public long epoch() {
        return epoch;
    }

    public long roundId() {
        return roundId;
    }

    public int bucket() {
        return bucket;
    }

    /** Records written (every change type counts). */
    public long rowCount() {
        return rowCount;
    }

    /** Every file written, data and delete files. */
    public List<String> files() {
        return files;
    }

    /** Total size of {@link #files()}. */
    public long fileBytes() {
        return fileBytes;
    }

    /** True when nothing was written; committing such results changes nothing. */
    public boolean isEmpty() {
        return files.isEmpty();
    }

    /** Smallest record timestamp (epoch millis), empty when no records. */
    public OptionalLong minTimestampMillis() {
        return rowCount == 0 ? OptionalLong.empty() : OptionalLong.of(minTimestampMillis);
    }

    /** Largest record timestamp (epoch millis), empty when no records. */
    public OptionalLong maxTimestampMillis() {
        return rowCount == 0 ? OptionalLong.empty() : OptionalLong.of(maxTimestampMillis);
    }

    /** The format-native payload (a copy). */
    public byte[] payload() {
        return payload.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LakeWriteResult r
                && r.format.equals(format)
                && r.tablePath.equals(tablePath)
                && r.tableId == tableId
                && r.epoch == epoch
                && r.roundId == roundId
                && r.bucket == bucket
                && r.rowCount == rowCount
                && r.files.equals(files)
                && r.fileBytes == fileBytes
                && r.minTimestampMillis == minTimestampMillis
                && r.maxTimestampMillis == maxTimestampMillis
                && Arrays.equals(r.payload, payload);
    }

    @Override
    public int hashCode() {
        return Objects.hash(format, tablePath, tableId, epoch, roundId, bucket, rowCount, files);
    }

    @Override
    public String toString() {
        return "LakeWriteResult{"
                + format
                + " "
                + tablePath
                + " id="
                + tableId
                + " epoch="
                + epoch
                + " round="
                + roundId
                + " bucket="
                + bucket
                + " rows="
                + rowCount
                + " files="
                + files.size()
                + " bytes="
                + fileBytes
                + '}';
    }
}
