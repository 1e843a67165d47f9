package dev.tributary.storage.kv;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.io.DurableFiles;
import dev.tributary.common.time.Clock;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Copies a primary-key bucket's KV snapshot from one replica to another (T53): a follower whose log
 * ends below its leader's log start cannot rebuild its state from the log (retention deleted the
 * records between), so it copies the leader's newest snapshot, starts its log at the snapshot's
 * offset and fetches the rest. Every snapshot is taken at an acknowledged offset, so a copy never
 * holds a change a failover takes back.
 *
 * <p>The source side ({@link #leaseNewest}, {@link #read}) serves a snapshot under a lease, so
 * retention keeps it while the copy runs; only the files the snapshot consists of can be read. The
 * receiving side ({@link #download}) writes the files into a staging directory, checks them against
 * the manifest, and installs them as the newest local snapshot, under its own id. Nothing from the
 * other replica is trusted: file names are plain names of the manifest, writes are in order and
 * within the announced sizes.
 */
public final class KvSnapshotTransfer {
    /** The staging directory of a copy in progress, beside the snapshots; emptied at each start. */
    static final String STAGING = "incoming";

    /** One file of a snapshot. */
    public record SnapshotFile(String name, long size) {}

    /**
     * What a leased snapshot consists of.
     *
     * @param leaseId the source's lease; renewed by every {@link #read}
     * @param keyEncoding the snapshot's key encoding, by its metadata name
     */
    public record Manifest(
            long leaseId,
            long snapshotId,
            long logOffset,
            String keyEncoding,
            List<SnapshotFile> files) {
        public Manifest {
            files = List.copyOf(files);
        }
    }

    private final TableBucket bucket;
    private final KvSnapshots snapshots;
    private final SnapshotLeases leases;
    private final KvKeyEncoding encoding;
    private final Clock clock;

    KvSnapshotTransfer(
            TableBucket bucket,
            KvSnapshots snapshots,
            SnapshotLeases leases,
            KvKeyEncoding encoding,
            Clock clock) {
        this.bucket = bucket;
        this.snapshots = snapshots;
        this.leases = leases;
        this.encoding = encoding;
        this.clock = clock;
    }

    // ------------------------------------------------------------------ source

    /**
     * Leases the newest snapshot and describes it.
     *
     * @throws NotFoundException if this replica has no snapshot
     */
    public Manifest leaseNewest() {
        KvSnapshotInfo snap =
                snapshots
                        .latest()
                        .orElseThrow(
                                () ->
                                        new NotFoundException(
                                                "bucket " + bucket + " has no KV snapshot yet"));
        SnapshotLease lease = leases.acquire(snap.snapshotId());
        try {
            snapshots.verify(snap.snapshotId());
            return new Manifest(
                    lease.leaseId(),
                    snap.snapshotId(),
                    snap.logOffset(),
                    snapshots.keyEncodingOf(snap.snapshotId()).metaName(),
                    filesOf(snapshots.pathOf(snap.snapshotId())));
        } catch (RuntimeException e) {
            leases.release(lease.leaseId());
            throw e;
        }
    }

    /**
     * Reads up to {@code maxBytes} of a file of a leased snapshot from {@code position} (fewer only
     * at the file's end), renewing the lease.
     *
     * @throws NotFoundException if the lease expired or the snapshot is gone
     * @throws InvalidInputException if the file is not one of the snapshot's, or the range is bad
     */
    public byte[] read(long leaseId, long snapshotId, String file, long position, int maxBytes) {
        SnapshotLease lease = leases.renew(leaseId);
        if (lease.snapshotId() != snapshotId) {
            throw new InvalidInputException(
                    "lease "
                            + leaseId
                            + " holds snapshot "
                            + lease.snapshotId()
                            + ", not "
                            + snapshotId);
        }
        Path root = snapshots.pathOf(snapshotId);
        SnapshotFile f = fileOf(root, snapshotId, file);
        if (position < 0 || position > f.size() || maxBytes <= 0) {
            throw new InvalidInputException(
                    "cannot read " + maxBytes + " bytes at " + position + " of " + f);
        }
        int n = (int) Math.min(maxBytes, f.size() - position);
        ByteBuffer buf = ByteBuffer.allocate(n);
        try (FileChannel ch = FileChannel.open(root.resolve(f.name()), StandardOpenOption.READ)) {
            while (buf.hasRemaining()) {
                if (ch.read(buf, position + buf.position()) < 0) {
                    throw new StorageException(
                            "KV snapshot file " + f.name() + " of bucket " + bucket + " shrank");
                }
            }
        } catch (IOException e) {
            throw new StorageException(
                    "cannot read KV snapshot file " + f.name() + " of bucket " + bucket + ": " + e,
                    e);
        }
        return buf.array();
    }

    /** Ends a copy's lease (it also lapses by itself). */
    public void release(long leaseId) {
        leases.release(leaseId);
    }

    /**
     * One file of a snapshot, by a name a peer sent: only a plain name of a regular file in the
     * snapshot's directory, never its metadata, is served (one stat, not a listing, per chunk).
     */
    private SnapshotFile fileOf(Path root, long snapshotId, String name) {
        Path p = root.resolve(name).normalize();
        boolean plain =
                !name.isEmpty()
                        && !name.equals(KvSnapshots.META_FILE)
                        && p.getParent() != null
                        && p.getParent().equals(root.normalize())
                        && p.getFileName().toString().equals(name);
        try {
            if (plain && Files.isRegularFile(p)) {
                return new SnapshotFile(name, Files.size(p));
            }
        } catch (IOException e) {
            throw new NotFoundException(
                    "KV snapshot " + snapshotId + " of bucket " + bucket + " is gone: " + e);
        }
        throw new InvalidInputException(
                "KV snapshot "
                        + snapshotId
                        + " of bucket "
                        + bucket
                        + " has no file '"
                        + name
                        + "'");
    }

    private List<SnapshotFile> filesOf(Path root) {
        List<SnapshotFile> files = new ArrayList<>();
        try (Stream<Path> entries = Files.list(root)) {
            for (Path p : entries.sorted().toList()) {
                String name = p.getFileName().toString();
                if (!name.equals(KvSnapshots.META_FILE) && Files.isRegularFile(p)) {
                    files.add(new SnapshotFile(name, Files.size(p)));
                }
            }
        } catch (IOException e) {
            throw new NotFoundException(
                    "KV snapshot "
                            + root.getFileName()
                            + " of bucket "
                            + bucket
                            + " is gone: "
                            + e);
        }
        return files;
    }

    // ------------------------------------------------------------------ receiver

    /**
     * Starts receiving the snapshot {@code manifest} describes into an empty staging directory.
     *
     * @throws InvalidInputException if the manifest names a bad file, or another key encoding
     */
    public Download download(Manifest manifest) {
        if (!encoding.metaName().equals(manifest.keyEncoding())) {
            throw new InvalidInputException(
                    "bucket "
                            + bucket
                            + ": the other replica's snapshot encodes keys as '"
                            + manifest.keyEncoding()
                            + "', this one as '"
                            + encoding.metaName()
                            + "'");
        }
        if (manifest.logOffset() < 0 || manifest.files().isEmpty()) {
            throw new InvalidInputException("not a KV snapshot: " + manifest);
        }
        Map<String, Long> sizes = new HashMap<>();
        for (SnapshotFile f : manifest.files()) {
            String n = f.name();
            if (n.isEmpty()
                    || n.contains("/")
                    || n.contains("\\")
                    || n.startsWith(".")
                    || n.equals(KvSnapshots.META_FILE)
                    || f.size() < 0
                    || sizes.put(n, f.size()) != null) {
                throw new InvalidInputException("bad file in a KV snapshot manifest: " + f);
            }
        }
        Path staging = snapshots.dir().resolve(STAGING);
        try {
            DurableFiles.deleteRecursively(staging);
            Files.createDirectories(staging);
        } catch (IOException e) {
            throw new StorageException(
                    "cannot prepare " + staging + " for a KV snapshot copy: " + e, e);
        }
        return new Download(manifest, sizes, staging);
    }

    /** A snapshot being received; written file by file, in order. */
    public final class Download {
        private final Manifest manifest;
        private final Map<String, Long> sizes;
        private final Map<String, Long> written = new HashMap<>();
        private final Path staging;

        private Download(Manifest manifest, Map<String, Long> sizes, Path staging) {
            this.manifest = manifest;
            this.sizes = sizes;
            this.staging = staging;
        }

        public Manifest manifest() {
            return manifest;
        }

        /**
         * Appends {@code data} to {@code file} at {@code position}, which must be where the file
         * ends so far.
         *
         * @throws InvalidInputException if the file is not in the manifest, or the data does not
         *     continue it within its size
         */
        public void write(String file, long position, byte[] data) {
            Long size = sizes.get(file);
            long at = written.getOrDefault(file, 0L);
            if (size == null || position != at || at + data.length > size) {
                throw new InvalidInputException(
                        "bad chunk of KV snapshot file '"
                                + file
                                + "': "
                                + data.length
                                + " bytes at "
                                + position
                                + " (written "
                                + at
                                + " of "
                                + size
                                + ")");
            }
            try (FileChannel ch =
                    FileChannel.open(
                            staging.resolve(file),
                            StandardOpenOption.CREATE,
                            StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(data);
                while (buf.hasRemaining()) {
                    ch.write(buf, position + buf.position());
                }
            } catch (IOException e) {
                throw new StorageException(
                        "cannot write the copied KV snapshot file " + file + ": " + e, e);
            }
            written.put(file, at + data.length);
        }

        /** Where {@code file} ends so far. */
        public long written(String file) {
            return written.getOrDefault(file, 0L);
        }

        /**
         * Checks every file is complete, makes them durable and installs them as this replica's
         * newest snapshot.
         *
         * @throws InvalidInputException if a file is incomplete
         */
        public KvSnapshotInfo install() {
            for (SnapshotFile f : manifest.files()) {
                if (f.size() == 0) {
                    write(f.name(), 0, new byte[0]); // no chunk ever created it
                }
                if (written(f.name()) != f.size()) {
                    throw new InvalidInputException(
                            "the copy of KV snapshot file "
                                    + f.name()
                                    + " has "
                                    + written(f.name())
                                    + " of its "
                                    + f.size()
                                    + " bytes");
                }
            }
            return snapshots.install(
                    staging, manifest.logOffset(), clock.currentTimeMillis(), encoding);
        }
    }
}
