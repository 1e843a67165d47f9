package dev.tributary.coordinator.store;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.io.DurableFiles;
import dev.tributary.coordinator.metadata.BucketAssignment;
import dev.tributary.coordinator.metadata.DatabaseInfo;
import dev.tributary.coordinator.metadata.PartitionInfo;
import dev.tributary.coordinator.metadata.ServerRegistration;
import dev.tributary.coordinator.metadata.TableInfo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The embedded {@link MetadataStore}: an fsync'd append-only log of absolute updates plus periodic
 * checkpoints, in one directory.
 *
 * <ul>
 *   <li>Each mutation is one CRC-framed log record with a sequence number, fsync'd before the call
 *       returns. A crash mid-append leaves a torn tail that recovery detects by length or CRC and
 *       cuts off: that mutation never returned, so nothing acknowledged is lost.
 *   <li>When the log grows past a threshold, the full state is written to {@code checkpoint.tmp},
 *       fsync'd, renamed atomically over {@code checkpoint}, the directory fsync'd, and only then
 *       is the log emptied. The checkpoint names the last sequence number it contains; recovery
 *       skips log records at or below it, so a crash between any two of these steps loses nothing
 *       and applies nothing twice.
 * </ul>
 *
 * Thread safe (one monitor). {@link FaultInjector} lets tests crash it between any two steps.
 */
public final class FileMetadataStore implements MetadataStore {
    private static final Logger LOG = LoggerFactory.getLogger(FileMetadataStore.class);

    static final String LOG_FILE = "metadata.log";
    static final String CHECKPOINT_FILE = "metadata.checkpoint";
    static final String CHECKPOINT_TMP = "metadata.checkpoint.tmp";
    private static final long DEFAULT_CHECKPOINT_BYTES = 8L << 20;

    /**
     * Hook called at named points of every write; tests throw from it to simulate a crash (an
     * unchecked exception) or an I/O error (an {@link IOException}).
     */
    @FunctionalInterface
    public interface FaultInjector {
        FaultInjector NONE = point -> {};

        /**
         * Called at {@code log.before-append}, {@code log.after-write} (written, not yet fsync'd),
         * {@code checkpoint.tmp-written}, {@code checkpoint.renamed} and {@code
         * checkpoint.log-truncated}.
         */
        void at(String point) throws IOException;
    }

    private final Path dir;
    private final long checkpointBytes;
    private final FaultInjector faults;
    private MetadataImage image = new MetadataImage();

    /**
     * The registered servers, read without the store's lock: status pages poll them, and a flood of
     * DDL keeps that lock busy with one fsync after another.
     */
    private volatile java.util.Map<Integer, ServerRegistration> servers = java.util.Map.of();

    private final BinaryWriter buf = new BinaryWriter(4096);
    private FileChannel log;
    private long seq;
    private long logBytes;
    private boolean closed;

    /** The I/O error that failed the store for good; see {@link MetadataStoreFailedException}. */
    private IOException failure;

    private FileMetadataStore(Path dir, long checkpointBytes, FaultInjector faults) {
        this.dir = dir;
        this.checkpointBytes = checkpointBytes;
        this.faults = faults;
    }

    /** Opens (creating if needed) and recovers the store in {@code dir}. */
    public static FileMetadataStore open(Path dir) {
        return open(dir, DEFAULT_CHECKPOINT_BYTES, FaultInjector.NONE);
    }

    /**
     * Opens with a checkpoint threshold and fault injector (for tests).
     *
     * @throws CorruptDataException if the checkpoint is damaged (it is only ever replaced
     *     atomically, so damage is not a crash artifact)
     */
    public static FileMetadataStore open(Path dir, long checkpointBytes, FaultInjector faults) {
        FileMetadataStore s = new FileMetadataStore(dir, checkpointBytes, faults);
        try {
            Files.createDirectories(dir);
            s.recover();
        } catch (IOException e) {
            throw new StorageException("cannot open coordinator metadata in " + dir + ": " + e, e);
        }
        return s;
    }

    private void recover() throws IOException {
        Files.deleteIfExists(dir.resolve(CHECKPOINT_TMP));
        Path cp = dir.resolve(CHECKPOINT_FILE);
        long checkpointSeq = 0;
        if (Files.exists(cp)) {
            image = MetadataImage.fromCheckpoint(Files.readAllBytes(cp), cp.toString());
            checkpointSeq = image.checkpointSeq();
        }
        seq = checkpointSeq;
        log =
                FileChannel.open(
                        dir.resolve(LOG_FILE),
                        StandardOpenOption.CREATE,
                        StandardOpenOption.READ,
                        StandardOpenOption.WRITE);
        long size = log.size();
        ByteBuffer all = ByteBuffer.allocate((int) size);
        while (all.hasRemaining() && log.read(all, all.position()) > 0) {}
        byte[] bytes = all.array();
        int pos = 0;
        int replayed = 0;
        while (pos + 8 <= size) {
            int len = MetadataImage.readIntLE(bytes, pos);
            int crc = MetadataImage.readIntLE(bytes, pos + 4);
            if (len <= 0
                    || pos + 8L + len > size
                    || MetadataImage.crc(bytes, pos + 8, len) != crc) {
                break;
            }
            BinaryReader r = new BinaryReader(bytes, pos + 8, len);
            long recSeq = r.readLong();
            if (recSeq > checkpointSeq) {
                image.apply(bytes, pos + 16, len - 8);
                seq = recSeq;
                replayed++;
            }
            pos += 8 + len;
        }
        if (pos < size) {
            LOG.warn(
                    "cutting a torn tail of {} bytes off {} (a write interrupted by a crash)",
                    size - pos,
                    dir.resolve(LOG_FILE));
            log.truncate(pos);
            log.force(true);
        }
        logBytes = pos;
        log.position(pos);
        servers = image.servers();
        LOG.info(
                "coordinator metadata in {}: {} tables, {} log records replayed",
                dir,
                image.tableCount(),
                replayed);
    }

    // ------------------------------------------------------------------ writes

    /**
     * Starts a record: the caller writes it ({@link MetadataRecords}) into {@link #buf}, then calls
     * {@link #append}.
     */
    private BinaryWriter begin() {
        if (failure != null) {
            throw new MetadataStoreFailedException(
                    "the coordinator metadata store in "
                            + dir
                            + " failed earlier and takes no more writes; restart the server to"
                            + " recover it: "
                            + failure,
                    failure);
        }
        if (closed) {
            throw new StorageException("coordinator metadata store " + dir + " is closed");
        }
        buf.reset();
        buf.writeInt(0); // length, patched
        buf.writeInt(0); // crc, patched
        buf.writeLong(seq + 1);
        return buf;
    }

    /** Appends the record in {@link #buf} durably and applies it; returns the apply's result. */
    private long append() {
        int end = buf.position();
        int len = end - 8;
        byte[] b = buf.buffer();
        int crc = MetadataImage.crc(b, 8, len);
        buf.position(0);
        buf.writeInt(len);
        buf.writeInt(crc);
        buf.position(end);
        try {
            faults.at("log.before-append");
            ByteBuffer bb = ByteBuffer.wrap(b, 0, end);
            while (bb.hasRemaining()) {
                log.write(bb);
            }
            faults.at("log.after-write");
            log.force(false);
        } catch (IOException e) {
            // The log may now end in a partial record; only recovery may append after it.
            throw fail("cannot write coordinator metadata in ", e);
        } catch (RuntimeException e) {
            closed = true;
            throw e;
        }
        seq++;
        logBytes += end;
        long result = image.apply(b, 16, end - 16);
        if (logBytes >= checkpointBytes) {
            checkpoint();
        }
        return result;
    }

    /** Writes the full state as a new checkpoint and empties the log (see class doc). */
    public synchronized void checkpoint() {
        try {
            byte[] cp = image.toCheckpoint(seq);
            Path tmp = dir.resolve(CHECKPOINT_TMP);
            DurableFiles.writeSynced(tmp, ByteBuffer.wrap(cp));
            faults.at("checkpoint.tmp-written");
            DurableFiles.moveAtomically(tmp, dir.resolve(CHECKPOINT_FILE));
            faults.at("checkpoint.renamed");
            log.truncate(0);
            log.force(true);
            log.position(0);
            logBytes = 0;
            faults.at("checkpoint.log-truncated");
        } catch (IOException e) {
            // whatever step failed, recovery is exact: the checkpoint is replaced atomically and
            // log records it already holds are skipped by sequence number
            throw fail("cannot checkpoint coordinator metadata in ", e);
        }
    }

    private MetadataStoreFailedException fail(String what, IOException e) {
        failure = e;
        return new MetadataStoreFailedException(
                what + dir + "; restart the server to recover: " + e, e);
    }

    @Override
    public synchronized StoredState load() {
        return image.snapshot();
    }

    @Override
    public synchronized long startIncarnation() {
        // the single writer chooses the number: the record holds it absolutely (layout 1)
        MetadataRecords.writeIncarnation(begin(), image.incarnation() + 1);
        return append();
    }

    @Override
    public synchronized void putDatabase(DatabaseInfo database) {
        MetadataRecords.writePutDatabase(begin(), database);
        append();
    }

    @Override
    public synchronized void removeDatabase(String name) {
        MetadataRecords.writeRemoveDatabase(begin(), name);
        append();
    }

    @Override
    public synchronized void putTable(TableInfo table) {
        MetadataRecords.writePutTable(begin(), table);
        append();
    }

    @Override
    public synchronized void removeTable(long tableId) {
        MetadataRecords.writeRemoveTable(begin(), tableId);
        append();
    }

    @Override
    public synchronized boolean putTieringRecord(TieringRecord record) {
        // checked before writing, so a dropped table's record never reaches the log
        if (!image.hasTable(record.tableId())) {
            return false;
        }
        MetadataRecords.writePutTiering(begin(), record);
        return append() == 1;
    }

    @Override
    public synchronized void putPartition(PartitionInfo partition) {
        MetadataRecords.writePutPartition(begin(), partition);
        append();
    }

    @Override
    public synchronized void removePartition(long tableId, long partitionId) {
        MetadataRecords.writeRemovePartition(begin(), tableId, partitionId);
        append();
    }

    @Override
    public synchronized void putServer(ServerRegistration server) {
        MetadataRecords.writePutServer(begin(), server);
        append();
        servers = image.servers();
    }

    @Override
    public synchronized void removeServer(int serverId) {
        MetadataRecords.writeRemoveServer(begin(), serverId);
        append();
        servers = image.servers();
    }

    @Override
    public synchronized void setDraining(int serverId, boolean draining) {
        MetadataRecords.writeSetDraining(begin(), serverId, draining);
        append();
        servers = image.servers();
    }

    @Override
    public synchronized boolean putAssignment(BucketAssignment assignment) {
        MetadataRecords.writePutAssignment(begin(), assignment);
        return append() == 1;
    }

    @Override
    public synchronized void setListener(MetadataListener listener) {
        image.listener(listener);
        listener.onReset(image.snapshot());
    }

    @Override
    public java.util.Map<Integer, ServerRegistration> servers() {
        return servers;
    }

    @Override
    public synchronized Optional<TieringRecord> tieringRecord(long tableId) {
        return image.tieringRecord(tableId);
    }

    /** Bytes in the log since the last checkpoint. */
    public synchronized long logBytes() {
        return logBytes;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            log.close();
        } catch (IOException e) {
            LOG.warn("closing {} failed", dir, e);
        }
    }
}
