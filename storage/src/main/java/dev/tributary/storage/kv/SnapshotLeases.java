package dev.tributary.storage.kv;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.io.DurableFiles;
import dev.tributary.common.time.Clock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Live leases on a bucket's snapshots. Expiry uses the clock's monotonic time.
 *
 * <p>Leases are durable: which lease holds which snapshot is saved to {@code kv/leases} (whole-file
 * rewrite, fsync, rename) whenever a lease is taken or released, so that a reader that streams a
 * snapshot across a server restart can renew its lease afterwards and retention keeps the snapshot
 * meanwhile. Expiry times live on a monotonic clock that a restart resets, so a restored lease gets
 * a full timeout from the restart: a reader that went away with the old server lets it lapse one
 * timeout later. Renewals only move the expiry and are not saved.
 */
final class SnapshotLeases {
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotLeases.class);
    private static final int FILE_MAGIC = 0x544c5331; // "TLS1"

    private final TableBucket bucket;
    private final Clock clock;
    private final long timeoutNanos;
    private final Path file;
    private final Map<Long, SnapshotLease> leases = new HashMap<>();
    private long nextId = 1;

    /**
     * @param file where the leases are saved (loaded if it exists); null keeps them in memory only
     */
    SnapshotLeases(TableBucket bucket, Clock clock, long timeoutNanos, Path file) {
        this.bucket = bucket;
        this.clock = clock;
        this.timeoutNanos = timeoutNanos;
        this.file = file;
        if (file != null) {
            load();
        }
    }

    synchronized SnapshotLease acquire(long snapshotId) {
        SnapshotLease lease =
                new SnapshotLease(bucket, nextId++, snapshotId, clock.nanoTime() + timeoutNanos);
        leases.put(lease.leaseId(), lease);
        save();
        return lease;
    }

    synchronized SnapshotLease renew(long leaseId) {
        SnapshotLease lease = leases.get(leaseId);
        long now = clock.nanoTime();
        if (lease == null || lease.expiresAtNanos() <= now) {
            leases.remove(leaseId);
            throw new NotFoundException(
                    "snapshot lease "
                            + leaseId
                            + " of bucket "
                            + bucket
                            + " expired or was released; take a new lease (the snapshot may have"
                            + " been deleted meanwhile)");
        }
        SnapshotLease renewed =
                new SnapshotLease(bucket, leaseId, lease.snapshotId(), now + timeoutNanos);
        leases.put(leaseId, renewed);
        return renewed;
    }

    synchronized void release(long leaseId) {
        if (leases.remove(leaseId) != null) {
            save();
        }
    }

    /** True if a live lease holds the snapshot; drops expired leases on the way. */
    synchronized boolean isLeased(long snapshotId) {
        long now = clock.nanoTime();
        if (leases.values().removeIf(l -> l.expiresAtNanos() <= now)) {
            save();
        }
        return leases.values().stream().anyMatch(l -> l.snapshotId() == snapshotId);
    }

    private void save() {
        if (file == null) {
            return;
        }
        BinaryWriter out = new BinaryWriter(16 + leases.size() * 16);
        out.writeInt(FILE_MAGIC);
        out.writeLong(nextId);
        out.writeInt(leases.size());
        for (SnapshotLease l : leases.values()) {
            out.writeLong(l.leaseId());
            out.writeLong(l.snapshotId());
        }
        CRC32C crc = new CRC32C();
        crc.update(out.buffer(), 0, out.position());
        out.writeInt((int) crc.getValue());
        try {
            DurableFiles.replace(file, out.buffer(), 0, out.position());
        } catch (IOException e) {
            throw new StorageException(
                    "cannot save the snapshot leases of bucket " + bucket + ": " + e, e);
        }
    }

    private void load() {
        if (!Files.exists(file)) {
            return;
        }
        try {
            byte[] bytes = Files.readAllBytes(file);
            if (bytes.length < 20) {
                throw new CorruptDataException("too short");
            }
            CRC32C crc = new CRC32C();
            crc.update(bytes, 0, bytes.length - 4);
            if (new BinaryReader(bytes, bytes.length - 4, 4).readInt() != (int) crc.getValue()) {
                throw new CorruptDataException("checksum mismatch");
            }
            BinaryReader in = new BinaryReader(bytes, 0, bytes.length - 4);
            if (in.readInt() != FILE_MAGIC) {
                throw new CorruptDataException("not a lease file");
            }
            nextId = in.readLong();
            int n = in.readInt();
            long expiry = clock.nanoTime() + timeoutNanos;
            for (int i = 0; i < n; i++) {
                long id = in.readLong();
                leases.put(id, new SnapshotLease(bucket, id, in.readLong(), expiry));
            }
        } catch (IOException | CorruptDataException e) {
            // without them retention may delete a snapshot a reader still streams: its renewal
            // then fails and its round is retried, so nothing worse than before durable leases
            LOG.warn(
                    "snapshot leases of bucket {} in {} are unreadable ({}); starting without",
                    bucket,
                    file,
                    e.toString());
            leases.clear();
        }
    }
}
