package dev.tributary.storage.log;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.io.DurableFiles;
import dev.tributary.common.record.LogBatch;
import dev.tributary.common.record.LogBatches;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The log of one bucket: segment files of {@link LogBatch}es with dense offsets from 0.
 *
 * <p>Appends assign offsets and write under one lock, then wait for durability through the {@link
 * GroupCommitter}; only durable records (below the high watermark) are readable. Opening recovers:
 * the last segment is verified and a torn tail truncated; sealed segments load their index file (or
 * are verified and re-indexed if it is missing).
 *
 * <p>The log also keeps each idempotent writer's last batch ({@link WriterStates}, T42): under the
 * same lock that assigns offsets, a batch that repeats its writer's last sequence is answered with
 * that batch's offsets instead of being appended again. The state lives in the batches' own
 * headers, so it is exactly as durable as the log, plus {@code <offset>.writers} snapshots written
 * at every segment roll and at close; opening loads the newest one and replays the writer fields of
 * the batches after it.
 */
public final class LogBucket implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LogBucket.class);

    /** The {@link HighWatermarkCheckpoint}'s file in a log's directory. */
    public static final String HIGH_WATERMARK_FILE = "high-watermark";

    /**
     * Offsets a successful append took.
     *
     * @param duplicate the batch repeated its writer's last batch: nothing was appended, and the
     *     offsets are those of the first time
     * @param details what the writer was told besides the offsets the first time (for a duplicate:
     *     known only if the server did not restart since, else empty)
     */
    public record Appended(
            long baseOffset,
            long endOffset,
            CompletableFuture<Void> durable,
            boolean duplicate,
            int[] details) {
        public Appended(long baseOffset, long endOffset, CompletableFuture<Void> durable) {
            this(baseOffset, endOffset, durable, false, WriterStates.NONE);
        }
    }

    /**
     * The static settings of a log.
     *
     * @param writerStateExpirationMillis a writer whose last batch is older is forgotten ({@link
     *     #expireWriters}); its next batch is accepted whatever its sequence
     */
    public record Config(
            long segmentSize,
            int indexInterval,
            FlushPolicy flushPolicy,
            long writerStateExpirationMillis) {
        public Config(long segmentSize, int indexInterval, FlushPolicy flushPolicy) {
            this(
                    segmentSize,
                    indexInterval,
                    flushPolicy,
                    LogOptions.WRITER_STATE_EXPIRATION.defaultValue().toMillis());
        }
    }

    /**
     * How a replicated bucket's log is acknowledged and read (T50): set on the bucket's replica
     * while it leads or follows; a log without one has a single copy, acknowledged once durable.
     */
    public interface Replication {
        /**
         * Before an append: throws a typed, retriable error if this replica may not take one now
         * (it follows, or too few replicas are in sync); nothing is written then.
         */
        void checkCanAppend();

        /**
         * Records below {@code endOffset} are durable here (the log is durable to {@code
         * durableEnd}): completes when they are acknowledged, i.e. every in-sync replica has them.
         */
        CompletableFuture<Void> acknowledged(long durableEnd, long endOffset);

        /** Readers see the records below this offset only (the high watermark). */
        long highWatermark();
    }

    private final TableBucket bucket;
    private final Path dir;
    private final Config config;
    private final ConcurrentSkipListMap<Long, LogSegment> segments = new ConcurrentSkipListMap<>();
    private final ReentrantLock appendLock = new ReentrantLock();
    private final GroupCommitter committer;
    private final WriterStates writers;
    private volatile LogSegment active;
    private volatile long writtenEnd;
    private volatile boolean closed;
    private volatile Replication replication;
    private LeaderEpochCache epochs; // opened on first use, guarded by this
    private HighWatermarkCheckpoint hwCheckpoint; // made on first use, guarded by this

    private LogBucket(
            TableBucket bucket,
            Path dir,
            Config config,
            List<LogSegment> recovered,
            Executor flushExecutor) {
        this.bucket = bucket;
        this.dir = dir;
        this.config = config;
        for (LogSegment s : recovered) {
            segments.put(s.baseOffset, s);
        }
        this.active = segments.lastEntry().getValue();
        this.writtenEnd = active.nextOffset();
        this.writers = new WriterStates(bucket);
        this.committer =
                new GroupCommitter(
                        new GroupCommitter.Target() {
                            @Override
                            public long writtenEndOffset() {
                                return writtenEnd;
                            }

                            @Override
                            public void sync() throws IOException {
                                active.force();
                            }
                        },
                        config.flushPolicy(),
                        writtenEnd,
                        flushExecutor);
    }

    /**
     * Opens (or creates) the log in {@code dir}, recovering it.
     *
     * @throws CorruptDataException if a segment is damaged anywhere but in its torn tail
     */
    public static LogBucket open(TableBucket bucket, Path dir, Config config) {
        return open(bucket, dir, config, null);
    }

    /**
     * Opens (or creates) the log in {@code dir}, recovering it.
     *
     * @param flushExecutor runs group-commit fsyncs; {@code null} runs them on appending threads
     * @throws CorruptDataException if a segment is damaged anywhere but in its torn tail
     */
    public static LogBucket open(
            TableBucket bucket, Path dir, Config config, Executor flushExecutor) {
        try {
            List<LogSegment> recovered =
                    SegmentRecovery.recover(bucket, dir, config.indexInterval());
            LogBucket log = new LogBucket(bucket, dir, config, recovered, flushExecutor);
            try {
                log.active.force(); // whatever survived is now durable: the high watermark
                WriterStateRecovery.recover(dir, bucket, log.segments, log.writtenEnd, log.writers);
            } catch (IOException | RuntimeException e) {
                for (LogSegment s : recovered) {
                    s.close();
                }
                throw e;
            }
            return log;
        } catch (IOException e) {
            throw new StorageException("cannot open the log of bucket " + bucket + ": " + e, e);
        }
    }

    public TableBucket bucket() {
        return bucket;
    }

    /**
     * Appends one encoded batch (base offset unset), assigning its offsets. The returned future
     * completes when it is durable.
     */
    public Appended append(byte[] batch) {
        return append(batch, WriterStates.NONE);
    }

    /**
     * Appends one encoded batch (base offset unset), assigning its offsets, unless the batch's
     * writer (see {@link LogBatch#writerId()}) appended it already: then the answer is the first
     * append's offsets, marked {@link Appended#duplicate()}. The returned future completes when the
     * records are durable.
     *
     * @param details what the writer is told besides the offsets, kept to answer a duplicate
     * @throws dev.tributary.common.exception.OutOfOrderSequenceException if the writer's sequence
     *     neither repeats nor follows its last batch (nothing is written)
     */
    public Appended append(byte[] batch, int[] details) {
        Replication r = replication;
        if (r != null) {
            r.checkCanAppend();
        }
        LogBatch header = LogBatch.wrap(batch, 0, batch.length);
        int count = header.recordCount();
        long lastTs = header.lastTimestamp();
        long writer = header.writerId();
        long sequence = header.writerSequence();
        long base;
        long end;
        WriterStates.Entry repeated = null;
        appendLock.lock();
        try {
            ensureOpen();
            if (writer != 0) {
                repeated = writers.check(writer, sequence);
            }
            if (repeated == null) {
                base = writtenEnd;
                end = base + count;
                LogBatch.setBaseOffset(batch, 0, base);
                if (active.size() > 0 && active.size() + batch.length > config.segmentSize()) {
                    roll();
                }
                active.append(batch, base, end, lastTs);
                writtenEnd = end;
                if (writer != 0) {
                    writers.record(
                            writer, new WriterStates.Entry(sequence, base, end, lastTs, details));
                }
            } else {
                base = repeated.baseOffset();
                end = repeated.endOffset();
            }
        } catch (IOException e) {
            throw new StorageException("cannot write to the log of bucket " + bucket + ": " + e, e);
        } finally {
            appendLock.unlock();
        }
        if (repeated != null) {
            return duplicateAnswer(repeated);
        }
        return new Appended(base, end, acknowledged(end), false, details);
    }

    /**
     * Appends batches that the bucket's leader already numbered, keeping their offsets: a
     * follower's copy of the leader's log (T50). The batches must follow one another without a gap
     * and the first must start at this log's written end; each is checked against its CRC before
     * any is written, since they came over the network. Writers' last batches advance from the
     * batch headers as they did on the leader, so once this replica leads it answers an idempotent
     * writer's retry as the old leader would have (T51). The returned future completes when the
     * batches are durable.
     *
     * @throws InvalidInputException if the bytes are not whole intact batches, leave a gap, or do
     *     not start at this log's end; nothing is written then
     */
    public Appended appendAsFollower(byte[] records) {
        List<LogBatch> batches = fetchedBatches(records);
        appendLock.lock();
        try {
            ensureOpen();
            long base = batches.isEmpty() ? writtenEnd : batches.get(0).baseOffset();
            if (base != writtenEnd) {
                throw new InvalidInputException(
                        "fetched batches of bucket "
                                + bucket
                                + " start at offset "
                                + base
                                + " but this replica's log ends at "
                                + writtenEnd
                                + "; nothing was appended, fetch from "
                                + writtenEnd);
            }
            int at = 0;
            for (LogBatch b : batches) {
                int size = b.sizeInBytes();
                if (active.size() > 0 && active.size() + size > config.segmentSize()) {
                    roll();
                }
                active.append(records, at, size, b.baseOffset(), b.nextOffset(), b.lastTimestamp());
                writtenEnd = b.nextOffset();
                if (b.writerId() != 0) {
                    writers.record(b.writerId(), WriterStates.Entry.of(b));
                }
                at += size;
            }
            return new Appended(base, writtenEnd, committer.awaitDurable(writtenEnd));
        } catch (IOException e) {
            throw new StorageException("cannot write to the log of bucket " + bucket + ": " + e, e);
        } finally {
            appendLock.unlock();
        }
    }

    private List<LogBatch> fetchedBatches(byte[] records) {
        List<LogBatch> out = new ArrayList<>();
        try {
            for (LogBatch b : LogBatches.of(records)) {
                b.ensureValid();
                LogBatch previous = out.isEmpty() ? null : out.get(out.size() - 1);
                if (previous != null && b.baseOffset() != previous.nextOffset()) {
                    throw new CorruptDataException(
                            "the batch at offset "
                                    + b.baseOffset()
                                    + " follows one that ends at "
                                    + previous.nextOffset());
                }
                out.add(b);
            }
        } catch (CorruptDataException e) {
            throw new InvalidInputException(
                    "fetched records of bucket "
                            + bucket
                            + " are damaged: "
                            + e.getMessage()
                            + "; nothing was appended, fetch them again",
                    e);
        }
        return out;
    }

    /**
     * Removes the records at and after {@code offset}: a follower's tail that the bucket's leader
     * does not have (found through its {@link LeaderEpochCache}, T50). The log is cut at the start
     * of the batch holding {@code offset}, so it may end below it (batches are never split); later
     * segments are deleted newest first and the cut is fsync'd before this returns, so a crash
     * leaves a prefix of the old log. Writers' last batches are rebuilt as of the new end: a retry
     * of a writer's batch that was cut away is appended again, not answered as a duplicate. Appends
     * still waiting to be durable past the new end fail with {@code pendingFailWith}.
     *
     * @return the log's new end
     * @throws InvalidInputException if {@code offset} is below the log's start
     */
    public long truncateTo(long offset, RuntimeException pendingFailWith) {
        appendLock.lock();
        try {
            ensureOpen();
            if (offset < startOffset()) {
                throw new InvalidInputException(
                        "cannot cut the log of bucket "
                                + bucket
                                + " at offset "
                                + offset
                                + ": it starts at "
                                + startOffset());
            }
            if (offset >= writtenEnd) {
                return writtenEnd;
            }
            long holder = segments.floorKey(offset);
            for (LogSegment s :
                    new ArrayList<>(segments.tailMap(holder, false).descendingMap().values())) {
                segments.remove(s.baseOffset);
                s.delete();
            }
            LogSegment last = segments.get(holder);
            long newEnd = last.truncateTo(offset);
            DurableFiles.syncDirectory(dir);
            active = last;
            writtenEnd = newEnd;
            writers.clear();
            WriterStateRecovery.recover(dir, bucket, segments, newEnd, writers);
            committer.truncate(newEnd, pendingFailWith);
            return newEnd;
        } catch (IOException e) {
            throw new StorageException("cannot cut the log of bucket " + bucket + ": " + e, e);
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * Empties the log and starts it again at {@code offset}: a follower whose log ends below its
     * leader's log start copies from there, since retention deleted the records between (T53).
     * Segments go newest first and the directory is fsync'd before the new empty segment is made,
     * so a crash leaves a prefix of the old log or an empty one, never a gap; either way the next
     * fetch leads here again. Writer states and leader epochs are forgotten with the records that
     * held them; appends still waiting to be durable fail with {@code pendingFailWith}. An empty
     * log may also restart below its end: a replica whose log started over at a KV snapshot's
     * offset, inside one of its leader's batches, starts at that batch instead.
     *
     * @throws InvalidInputException unless {@code offset} is past the log's end, or the log is
     *     empty
     */
    public void restartAt(long offset, RuntimeException pendingFailWith) {
        appendLock.lock();
        try {
            ensureOpen();
            boolean pastEnd = offset > writtenEnd;
            boolean emptyMovesBack =
                    startOffset() == writtenEnd && offset >= 0 && offset < writtenEnd;
            if (!pastEnd && !emptyMovesBack) {
                throw new InvalidInputException(
                        "the log of bucket "
                                + bucket
                                + " restarts only past its end "
                                + writtenEnd
                                + ", not at "
                                + offset
                                + ": cut it instead");
            }
            for (LogSegment s : new ArrayList<>(segments.descendingMap().values())) {
                segments.remove(s.baseOffset);
                s.delete();
            }
            WriterStateFiles.deleteAll(dir);
            DurableFiles.syncDirectory(dir);
            LogSegment fresh = LogSegment.create(dir, offset, config.indexInterval());
            DurableFiles.syncDirectory(dir);
            segments.put(offset, fresh);
            active = fresh;
            writtenEnd = offset;
            writers.clear();
            leaderEpochs().truncateFromEnd(0);
            committer.restartAt(offset, pendingFailWith);
        } catch (IOException e) {
            throw new StorageException("cannot restart the log of bucket " + bucket + ": " + e, e);
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * If batch {@code sequence} of {@code writerId} was appended already, its answer; for a caller
     * that must know before it computes the records (a primary-key bucket, under its own write lock
     * that every append of the bucket takes).
     *
     * @throws dev.tributary.common.exception.OutOfOrderSequenceException if the sequence neither
     *     repeats nor follows the writer's last batch
     */
    public Optional<Appended> duplicateOf(long writerId, long sequence) {
        if (writerId == 0) {
            return Optional.empty();
        }
        WriterStates.Entry repeated;
        appendLock.lock();
        try {
            ensureOpen();
            repeated = writers.check(writerId, sequence);
        } finally {
            appendLock.unlock();
        }
        return repeated == null ? Optional.empty() : Optional.of(duplicateAnswer(repeated));
    }

    /**
     * Records a writer's batch that appends no record (a primary-key batch deleting only absent
     * keys), or answers its duplicate. The writer state is saved to a state file at the log's end
     * before the batch is answered: no batch header carries the sequence, and a crash that forgot
     * it would refuse the writer's next batch as a gap (found by the fault soak). A crash before
     * the log's end is durable drops that file with the log's tail; the batch was not answered
     * then, and its retry is applied again, which is safe because it changed nothing.
     *
     * @param nowMillis the store clock's time, for expiry
     */
    public Appended appendNothing(long writerId, long sequence, long nowMillis, int[] details) {
        WriterStates.Entry repeated = null;
        long end;
        appendLock.lock();
        try {
            ensureOpen();
            end = writtenEnd;
            if (writerId != 0) {
                repeated = writers.check(writerId, sequence);
                if (repeated == null) {
                    WriterStates.Entry before = writers.get(writerId);
                    writers.record(
                            writerId,
                            new WriterStates.Entry(sequence, end, end, nowMillis, details));
                    // rare (every row a no-op delete): one small fsync here is cheap
                    try {
                        WriterStateFiles.write(dir, writers, end);
                    } catch (StorageException e) {
                        writers.restore(writerId, before);
                        throw e;
                    }
                }
            }
        } finally {
            appendLock.unlock();
        }
        if (repeated != null) {
            return duplicateAnswer(repeated);
        }
        return new Appended(end, end, acknowledged(end), false, details);
    }

    private Appended duplicateAnswer(WriterStates.Entry e) {
        // the first attempt may still wait for its fsync: answer only once it is durable
        return new Appended(
                e.baseOffset(), e.endOffset(), acknowledged(e.endOffset()), true, e.details());
    }

    /**
     * Forgets writers whose last batch is older than {@code server.writer.state-expiration}.
     *
     * @param nowMillis the store clock's time
     * @return how many writers were forgotten
     */
    public int expireWriters(long nowMillis) {
        appendLock.lock();
        try {
            return writers.expire(nowMillis - config.writerStateExpirationMillis());
        } finally {
            appendLock.unlock();
        }
    }

    /** Writers whose last batch this log remembers. */
    public int writerCount() {
        appendLock.lock();
        try {
            return writers.size();
        } finally {
            appendLock.unlock();
        }
    }

    /** Completes when every record below {@code endOffset} is durable. */
    public CompletableFuture<Void> awaitDurable(long endOffset) {
        return committer.awaitDurable(endOffset);
    }

    /** Durable here, and with replication acknowledged by every in-sync replica. */
    /**
     * Completes when every record below {@code endOffset} is acknowledged: durable here and, when
     * replicated, on every in-sync replica (fails if this replica stops leading first).
     */
    public CompletableFuture<Void> acknowledged(long endOffset) {
        CompletableFuture<Void> durable = committer.awaitDurable(endOffset);
        Replication r = replication;
        return r == null
                ? durable
                : durable.thenCompose(v -> r.acknowledged(committer.durableOffset(), endOffset));
    }

    /**
     * This log's leader epochs (T50), kept in {@code leader-epochs} beside its segments; opened on
     * first use (a log that never replicated has none).
     */
    public synchronized LeaderEpochCache leaderEpochs() {
        if (epochs == null) {
            epochs = LeaderEpochCache.open(dir.resolve("leader-epochs"));
        }
        return epochs;
    }

    /** This log's high watermark checkpoint (T50), {@code high-watermark} beside its segments. */
    public synchronized HighWatermarkCheckpoint highWatermarkCheckpoint() {
        if (hwCheckpoint == null) {
            hwCheckpoint = new HighWatermarkCheckpoint(dir.resolve(HIGH_WATERMARK_FILE));
        }
        return hwCheckpoint;
    }

    /**
     * Makes this log a replica's (T50): from now on {@code replication} admits appends,
     * acknowledges them and bounds what readers see; {@code null} makes it a single copy again.
     */
    public void replicate(Replication replication) {
        this.replication = replication;
    }

    private void roll() throws IOException {
        active.seal();
        // recovery then replays writer fields from the new segment on only
        WriterStateFiles.write(dir, writers, writtenEnd);
        LogSegment next = LogSegment.create(dir, writtenEnd, config.indexInterval());
        segments.put(next.baseOffset, next);
        active = next;
    }

    /**
     * The high watermark: offset after the last record readers may see: durable here, and when
     * replicated, on every in-sync replica.
     */
    public long endOffset() {
        long durable = committer.durableOffset();
        Replication r = replication;
        return r == null ? durable : Math.min(durable, r.highWatermark());
    }

    /** Offset after the last durable record here, whether replicas have it or not. */
    public long durableEndOffset() {
        return committer.durableOffset();
    }

    /** Offset after the last written record, durable or not (for the bucket's writer only). */
    public long writtenEndOffset() {
        return writtenEnd;
    }

    public long startOffset() {
        return segments.firstKey();
    }

    /** fsyncs now, making everything written durable. */
    public void flush() {
        appendLock.lock();
        try {
            ensureOpen();
            committer.syncNow();
        } finally {
            appendLock.unlock();
        }
    }

    /**
     * Whole batches from the one holding {@code fromOffset}, up to about {@code maxBytes} (at least
     * one batch), below the high watermark, checked against their CRC.
     */
    public Read read(long fromOffset, int maxBytes) {
        return read(fromOffset, maxBytes, endOffset());
    }

    /**
     * Whole batches for a follower's fetch (T50): like {@link #read(long, int)}, up to the durable
     * end rather than the high watermark, since followers copy what the leader has not yet
     * acknowledged.
     */
    public Read readForFollower(long fromOffset, int maxBytes) {
        return read(fromOffset, maxBytes, durableEndOffset());
    }

    private Read read(long fromOffset, int maxBytes, long hw) {
        long start = startOffset();
        if (fromOffset < start) {
            throw new NotFoundException(
                    "offset "
                            + fromOffset
                            + " of bucket "
                            + bucket
                            + " was deleted by retention; the log starts at "
                            + start);
        }
        if (fromOffset > writtenEnd) {
            throw new InvalidInputException(
                    "offset "
                            + fromOffset
                            + " is beyond the end of bucket "
                            + bucket
                            + " (end offset "
                            + hw
                            + ")");
        }
        if (fromOffset >= hw) {
            // a record this log holds but readers may not see yet: nothing for now. A reader
            // that saw an older leader's high watermark reads on at a new leader whose own has not
            // caught up yet (T51): it waits, it is not refused
            return new Read(new byte[0], fromOffset, hw, start);
        }
        try {
            Map.Entry<Long, LogSegment> e = segments.floorEntry(fromOffset);
            while (e != null) {
                LogSegment s = e.getValue();
                if (fromOffset < s.nextOffset()) {
                    LogSegment.Batches r = s.readBatches(fromOffset, maxBytes, hw);
                    if (r.records().length > 0) {
                        return new Read(r.records(), r.nextOffset(), hw, start);
                    }
                }
                e = segments.higherEntry(e.getKey());
            }
            return new Read(new byte[0], fromOffset, hw, start);
        } catch (ClosedChannelException ex) {
            if (closed) {
                throw new StorageException("the log of bucket " + bucket + " is closed", ex);
            }
            throw new NotFoundException(
                    "offset "
                            + fromOffset
                            + " of bucket "
                            + bucket
                            + " was deleted by retention while being read; the log starts at "
                            + startOffset(),
                    ex);
        } catch (IOException ex) {
            throw new StorageException("cannot read the log of bucket " + bucket + ": " + ex, ex);
        }
    }

    /** Batches read from a log. */
    public record Read(byte[] records, long nextOffset, long highWatermark, long logStartOffset) {}

    /** A summary of a sealed segment, for retention decisions. */
    public record SegmentInfo(
            long baseOffset, long nextOffset, long sizeInBytes, long maxTimestamp) {}

    /** Sealed segments (never the active one), oldest first. */
    public List<SegmentInfo> sealedSegments() {
        List<SegmentInfo> out = new ArrayList<>();
        LogSegment current = active;
        for (LogSegment s : segments.values()) {
            if (s != current) {
                out.add(new SegmentInfo(s.baseOffset, s.nextOffset(), s.size(), s.maxTimestamp()));
            }
        }
        return out;
    }

    /** Bytes of all segments. */
    public long sizeInBytes() {
        long total = 0;
        for (LogSegment s : segments.values()) {
            total += s.size();
        }
        return total;
    }

    /**
     * Deletes the oldest sealed segments up to (excluding) the one starting at {@code
     * newStartOffset}, which must be a segment boundary.
     *
     * @return bytes deleted
     */
    public long deleteSegmentsBefore(long newStartOffset) {
        appendLock.lock();
        try {
            ensureOpen();
            long bytes = 0;
            for (LogSegment s : new ArrayList<>(segments.headMap(newStartOffset).values())) {
                if (s == active) {
                    break;
                }
                segments.remove(s.baseOffset);
                bytes += s.size();
                synchronized (this) {
                    if (epochs != null) {
                        epochs.truncateFromStart(startOffset());
                    }
                }
                try {
                    s.delete();
                } catch (IOException e) {
                    throw new StorageException("cannot delete " + s.file + ": " + e, e);
                }
            }
            return bytes;
        } finally {
            appendLock.unlock();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new StorageException("the log of bucket " + bucket + " is closed");
        }
    }

    /** fsyncs and closes the segment files. */
    @Override
    public void close() {
        appendLock.lock();
        try {
            if (closed) {
                return;
            }
            try {
                committer.syncNow();
                try {
                    WriterStateFiles.write(dir, writers, writtenEnd);
                } catch (StorageException e) {
                    // recovery then replays from an older snapshot: slower, not wrong
                    LOG.warn("bucket {}: could not save the writer state at close", bucket, e);
                }
            } finally {
                closed = true;
                for (LogSegment s : segments.values()) {
                    s.close();
                }
            }
        } finally {
            appendLock.unlock();
        }
    }
}
