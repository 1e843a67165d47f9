package dev.tributary.storage.log;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.io.DurableFiles;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The leader epochs of one bucket replica's log and the offset where each began (T50), the idea of
 * Kafka's leader-epoch checkpoint. A new leader records its epoch at its log's end before it
 * appends; a follower records each epoch of the leader's log as it copies it. A replica that comes
 * back after a failover asks the leader where its own latest epoch ended ({@link #endOffsetFor} on
 * the leader) and cuts its log there ({@link #divergence}), so a tail that no in-sync replica had
 * is dropped instead of being served, or tiered, alongside the new leader's records at the same
 * offsets. Comparing high watermarks instead loses or diverges when two leader changes come close
 * together, which is why Kafka moved to epochs (KIP-101).
 *
 * <p>Every change is written to the file at once (temporary file, fsync, rename): a change comes
 * only with a leader change or a cut log, so the entries stay few. Epochs strictly increase and so
 * do their start offsets: an epoch in which nothing was appended is replaced by the next one.
 */
public final class LeaderEpochCache {
    private static final int FILE_MAGIC = 0x544c4543; // "TLEC"
    private static final int ENTRY_BYTES = 12;
    private static final int FRAME_BYTES = 12; // magic, count, CRC32C

    /** An epoch and the offset of the first record appended in it. */
    public record EpochStart(int epoch, long startOffset) {}

    /**
     * A leader's answer to "where did epoch E end": the largest epoch it knows at or below E, and
     * the offset after that epoch's last record (the next epoch's start, or the log's end for the
     * latest epoch).
     */
    public record EpochEnd(int epoch, long endOffset) {
        /** The answer when the log knows no epoch at or below the one asked. */
        public static final EpochEnd UNKNOWN = new EpochEnd(-1, -1);

        public boolean isUnknown() {
            return epoch < 0;
        }
    }

    private final Path file;
    private final List<EpochStart> entries;

    private LeaderEpochCache(Path file, List<EpochStart> entries) {
        this.file = file;
        this.entries = entries;
    }

    /**
     * Loads the cache from {@code file}, or starts an empty one if there is none (a new replica).
     *
     * @throws CorruptDataException if the file is damaged: the replica's log can no longer be
     *     compared with its leader's and has to be copied again
     */
    public static LeaderEpochCache open(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return new LeaderEpochCache(file, new ArrayList<>());
        } catch (IOException e) {
            throw new StorageException("cannot read " + file + ": " + e, e);
        }
        return new LeaderEpochCache(file, decode(file, bytes));
    }

    private static List<EpochStart> decode(Path file, byte[] bytes) {
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (bytes.length < FRAME_BYTES) {
            throw damaged(file, "it has " + bytes.length + " bytes");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        if (in.getInt(bytes.length - 4) != (int) crc.getValue()) {
            throw damaged(file, "its checksum does not match");
        }
        if (in.getInt() != FILE_MAGIC) {
            throw damaged(file, "it is not a leader epoch file");
        }
        int count = in.getInt();
        if (count < 0 || (long) count * ENTRY_BYTES != bytes.length - FRAME_BYTES) {
            throw damaged(file, "it declares " + count + " entries in " + bytes.length + " bytes");
        }
        List<EpochStart> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            EpochStart e = new EpochStart(in.getInt(), in.getLong());
            EpochStart before = out.isEmpty() ? null : out.get(out.size() - 1);
            if (e.epoch() < 0
                    || e.startOffset() < 0
                    || (before != null
                            && (e.epoch() <= before.epoch()
                                    || e.startOffset() <= before.startOffset()))) {
                throw damaged(file, "entry " + i + " " + e + " does not follow " + before);
            }
            out.add(e);
        }
        return out;
    }

    private static CorruptDataException damaged(Path file, String why) {
        return new CorruptDataException(
                "leader epoch file "
                        + file
                        + " is damaged ("
                        + why
                        + "); the replica's log cannot be checked against its leader's: move the"
                        + " bucket's directory away so the replica copies the bucket again");
    }

    /**
     * Records that {@code epoch} began at {@code startOffset}; the same epoch again changes
     * nothing. If the latest epoch began at the same offset, nothing was appended in it and it is
     * replaced.
     *
     * @throws FencedException if {@code epoch} is older than the latest one (a deposed leader)
     * @throws IllegalStateException if {@code startOffset} is below the latest epoch's start (the
     *     log must be cut first)
     */
    public synchronized void assign(int epoch, long startOffset) {
        if (epoch < 0 || startOffset < 0) {
            throw new IllegalArgumentException(
                    "epoch " + epoch + " at offset " + startOffset + " is negative");
        }
        EpochStart latest = entries.isEmpty() ? null : entries.get(entries.size() - 1);
        if (latest != null) {
            if (epoch == latest.epoch()) {
                return;
            }
            if (epoch < latest.epoch()) {
                throw new FencedException(
                        "leader epoch "
                                + epoch
                                + " is older than this replica's latest epoch "
                                + latest.epoch()
                                + ": a deposed leader's records are not appended");
            }
            if (startOffset < latest.startOffset()) {
                throw new IllegalStateException(
                        "epoch "
                                + epoch
                                + " cannot start at "
                                + startOffset
                                + ", below epoch "
                                + latest.epoch()
                                + "'s start "
                                + latest.startOffset()
                                + ": cut the log first");
            }
        }
        List<EpochStart> next = new ArrayList<>(entries);
        if (latest != null && startOffset == latest.startOffset()) {
            next.remove(next.size() - 1);
        }
        next.add(new EpochStart(epoch, startOffset));
        replaceWith(next);
    }

    /** The latest epoch and its start, if any epoch is known. */
    public synchronized Optional<EpochStart> latest() {
        return entries.isEmpty() ? Optional.empty() : Optional.of(entries.get(entries.size() - 1));
    }

    /** Every known epoch, oldest first. */
    public synchronized List<EpochStart> entries() {
        return List.copyOf(entries);
    }

    /**
     * Where {@code epoch} ended in this log: the largest known epoch at or below it and the offset
     * after that epoch's last record, {@link EpochEnd#UNKNOWN} if every known epoch is newer.
     *
     * @param logEndOffset this log's end, the end of the latest epoch
     */
    public synchronized EpochEnd endOffsetFor(int epoch, long logEndOffset) {
        for (int i = entries.size() - 1; i >= 0; i--) {
            EpochStart e = entries.get(i);
            if (e.epoch() <= epoch) {
                long end =
                        i == entries.size() - 1 ? logEndOffset : entries.get(i + 1).startOffset();
                return new EpochEnd(e.epoch(), end);
            }
        }
        return EpochEnd.UNKNOWN;
    }

    /**
     * Where a returning replica cuts its log, given the leader's answer to {@link #endOffsetFor}
     * for this replica's latest epoch.
     *
     * @param cutAt the offset to cut the log at (never past its end)
     * @param resolved whether the logs agree below {@code cutAt}; if not, the cut only removes
     *     epochs the leader never had, and the replica asks again with its latest epoch left
     */
    public record Divergence(long cutAt, boolean resolved) {}

    /**
     * Compares this replica's log with the leader's (KIP-279's scheme). Records of one epoch are
     * the same on every replica that has them, so when the leader's answer names an epoch this
     * replica has, the logs agree up to the lower of the two ends of it. When it names an epoch
     * this replica lacks, every epoch of this replica after the newest one below it is one the
     * leader lacks: cut at its start and ask again. A leader that knows no epoch as old means
     * everything after this replica's high watermark is in doubt.
     */
    public synchronized Divergence divergence(
            EpochEnd leaderAnswer, long logEndOffset, long highWatermark) {
        if (leaderAnswer.isUnknown()) {
            return new Divergence(Math.min(highWatermark, logEndOffset), true);
        }
        EpochEnd mine = endOffsetFor(leaderAnswer.epoch(), logEndOffset);
        if (mine.isUnknown()) {
            long firstStart = entries.isEmpty() ? logEndOffset : entries.get(0).startOffset();
            // every epoch here is one the leader lacks; below the first, nothing is known to differ
            return new Divergence(Math.min(firstStart, logEndOffset), true);
        }
        if (mine.epoch() != leaderAnswer.epoch()) {
            return new Divergence(Math.min(mine.endOffset(), logEndOffset), false);
        }
        long agreed = Math.min(leaderAnswer.endOffset(), mine.endOffset());
        return new Divergence(Math.min(agreed, logEndOffset), true);
    }

    /**
     * Forgets the epochs that began at or after {@code endOffset}, the log having been cut there.
     */
    public synchronized void truncateFromEnd(long endOffset) {
        List<EpochStart> next = new ArrayList<>(entries);
        next.removeIf(e -> e.startOffset() >= endOffset);
        if (next.size() != entries.size()) {
            replaceWith(next);
        }
    }

    /**
     * Forgets the epochs whose records all lie below {@code startOffset} (retention deleted them);
     * the epoch holding {@code startOffset} now starts there.
     */
    public synchronized void truncateFromStart(long startOffset) {
        List<EpochStart> next = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            EpochStart e = entries.get(i);
            boolean endsBelow =
                    i + 1 < entries.size() && entries.get(i + 1).startOffset() <= startOffset;
            if (endsBelow) {
                continue;
            }
            next.add(e.startOffset() < startOffset ? new EpochStart(e.epoch(), startOffset) : e);
        }
        if (!next.equals(entries)) {
            replaceWith(next);
        }
    }

    private void replaceWith(List<EpochStart> next) {
        ByteBuffer out =
                ByteBuffer.allocate(FRAME_BYTES + next.size() * ENTRY_BYTES)
                        .order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(FILE_MAGIC).putInt(next.size());
        for (EpochStart e : next) {
            out.putInt(e.epoch()).putLong(e.startOffset());
        }
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.position());
        out.putInt((int) crc.getValue());
        out.flip();
        try {
            DurableFiles.replace(file, out);
        } catch (IOException e) {
            throw new StorageException("cannot write " + file + ": " + e, e);
        }
        // only once it is on disk: a failed write leaves memory as the file is
        entries.clear();
        entries.addAll(next);
    }
}
