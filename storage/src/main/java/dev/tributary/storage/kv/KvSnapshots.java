package dev.tributary.storage.kv;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.io.DurableFiles;
import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The completed KV snapshots of one bucket on disk: {@code snap-<id>/} holds a RocksDB checkpoint
 * and, written last (temp file, fsync, rename), a metadata file with the id, the log offset and the
 * name and size of every checkpoint file. A directory without metadata is an interrupted snapshot
 * and is removed on open; one whose metadata is unreadable, or whose files no longer match it, is
 * damaged and moved aside ({@link #quarantine}) so recovery can fall back to an older one.
 */
final class KvSnapshots {
    static final String META_FILE = "TRIBUTARY-SNAPSHOT";
    static final String DAMAGED_PREFIX = "damaged-";

    /** Metadata property naming the snapshot's {@link KvKeyEncoding}; absent before it existed. */
    static final String KEY_ENCODING = "keyEncoding";

    private static final Logger LOG = LoggerFactory.getLogger(KvSnapshots.class);

    /** Writes a checkpoint into a directory that must not exist yet. */
    interface CheckpointWriter {
        void write(Path target) throws Exception;
    }

    private final TableBucket bucket;
    private final Path dir;
    private final TreeMap<Long, KvSnapshotInfo> completed = new TreeMap<>();

    private KvSnapshots(TableBucket bucket, Path dir) {
        this.bucket = bucket;
        this.dir = dir;
    }

    static KvSnapshots open(TableBucket bucket, Path dir) {
        KvSnapshots s = new KvSnapshots(bucket, dir);
        try {
            Files.createDirectories(dir);
            try (Stream<Path> entries = Files.list(dir)) {
                for (Path p : entries.toList()) {
                    String name = p.getFileName().toString();
                    if (name.equals(KvSnapshotTransfer.STAGING)) {
                        DurableFiles.deleteRecursively(p); // a copy the last run did not finish
                        continue;
                    }
                    if (!name.startsWith("snap-")) {
                        continue;
                    }
                    Path meta = p.resolve(META_FILE);
                    if (!Files.exists(meta)) {
                        DurableFiles.deleteRecursively(p);
                        continue;
                    }
                    try {
                        KvSnapshotInfo info = readMeta(bucket, meta);
                        s.completed.put(info.snapshotId(), info);
                    } catch (CorruptDataException e) {
                        s.moveAside(p, e.getMessage());
                    }
                }
            }
        } catch (IOException e) {
            throw new StorageException(
                    "cannot list the KV snapshots of bucket " + bucket + ": " + e, e);
        }
        return s;
    }

    synchronized Optional<KvSnapshotInfo> latest() {
        var e = completed.lastEntry();
        return e == null ? Optional.empty() : Optional.of(e.getValue());
    }

    synchronized List<KvSnapshotInfo> list() {
        return List.copyOf(completed.values());
    }

    synchronized KvSnapshotInfo get(long snapshotId) {
        KvSnapshotInfo info = completed.get(snapshotId);
        if (info == null) {
            throw new NotFoundException(
                    "KV snapshot "
                            + snapshotId
                            + " of bucket "
                            + bucket
                            + " does not exist (deleted by retention or never taken); available: "
                            + completed.keySet());
        }
        return info;
    }

    /** The directory holding this bucket's snapshots. */
    Path dir() {
        return dir;
    }

    Path pathOf(long snapshotId) {
        return dir.resolve("snap-" + snapshotId);
    }

    /**
     * Checks that every file the snapshot's metadata lists is there with its recorded size (a
     * snapshot written before sizes were recorded passes).
     *
     * @throws CorruptDataException naming the first missing or resized file
     */
    void verify(long snapshotId) {
        Path root = pathOf(snapshotId);
        Properties meta;
        try {
            meta = loadProperties(root.resolve(META_FILE));
        } catch (IOException e) {
            throw new CorruptDataException(
                    "cannot read the metadata of KV snapshot " + root + ": " + e, e);
        }
        String files = meta.getProperty("files");
        if (files == null || files.isEmpty()) {
            return;
        }
        for (String entry : files.split(",")) {
            int colon = entry.lastIndexOf(':');
            Path f = root.resolve(entry.substring(0, colon));
            long expected = Long.parseLong(entry.substring(colon + 1));
            long actual;
            try {
                actual = Files.size(f);
            } catch (IOException e) {
                throw new CorruptDataException(
                        "KV snapshot " + root + " lacks its file " + f.getFileName(), e);
            }
            if (actual != expected) {
                throw new CorruptDataException(
                        "KV snapshot "
                                + root
                                + ": file "
                                + f.getFileName()
                                + " has "
                                + actual
                                + " bytes, its metadata says "
                                + expected);
            }
        }
    }

    /**
     * The key encoding of a snapshot's RocksDB keys, which a state restored from it must keep.
     *
     * @throws CorruptDataException if its metadata cannot be read
     * @throws StorageException if it names an encoding this version does not know
     */
    KvKeyEncoding keyEncodingOf(long snapshotId) {
        Path meta = pathOf(snapshotId).resolve(META_FILE);
        try {
            return KvKeyEncoding.ofMetaName(loadProperties(meta).getProperty(KEY_ENCODING));
        } catch (IOException | IllegalArgumentException e) {
            throw new CorruptDataException("unreadable KV snapshot metadata " + meta + ": " + e, e);
        }
    }

    /**
     * Forgets a damaged snapshot and moves its directory aside (kept for inspection, ignored by
     * {@link #open}), so that recovery and readers use the older ones.
     */
    void quarantine(long snapshotId, String reason) {
        synchronized (this) {
            completed.remove(snapshotId);
        }
        moveAside(pathOf(snapshotId), reason);
    }

    private void moveAside(Path snapshotDir, String reason) {
        // a later snapshot may reuse the id of a quarantined one: number the damaged copies
        Path target = dir.resolve(DAMAGED_PREFIX + snapshotDir.getFileName());
        for (int n = 2; Files.exists(target); n++) {
            target = dir.resolve(DAMAGED_PREFIX + snapshotDir.getFileName() + "-" + n);
        }
        try {
            Files.move(snapshotDir, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new StorageException(
                    "cannot move the damaged KV snapshot "
                            + snapshotDir
                            + " aside ("
                            + reason
                            + "): "
                            + e,
                    e);
        }
        LOG.warn(
                "KV snapshot {} of bucket {} is damaged ({}); moved to {}, recovery uses an older"
                        + " snapshot or the log",
                snapshotDir.getFileName(),
                bucket,
                reason,
                target.getFileName());
    }

    /** Creates the next snapshot through {@code writer}, then publishes its metadata. */
    KvSnapshotInfo create(
            long logOffset, long nowMillis, KvKeyEncoding keyEncoding, CheckpointWriter writer) {
        long id;
        synchronized (this) {
            id = completed.isEmpty() ? 1 : completed.lastKey() + 1;
        }
        Path target = pathOf(id);
        try {
            if (Files.exists(target)) {
                DurableFiles.deleteRecursively(target);
            }
            writer.write(target);
            KvSnapshotInfo info = new KvSnapshotInfo(bucket, id, logOffset, nowMillis);
            writeMeta(target, info, keyEncoding);
            synchronized (this) {
                completed.put(id, info);
            }
            return info;
        } catch (Exception e) {
            try {
                DurableFiles.deleteRecursively(target);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new StorageException(
                    "cannot snapshot the KV state of bucket " + bucket + ": " + e, e);
        }
    }

    /**
     * Installs the checkpoint files in {@code staging} (a directory beside the snapshots, copied
     * from another replica) as the next snapshot, consistent at {@code logOffset}: the files are
     * made durable, the directory moved into place, the metadata written last.
     */
    KvSnapshotInfo install(
            Path staging, long logOffset, long nowMillis, KvKeyEncoding keyEncoding) {
        return create(
                logOffset,
                nowMillis,
                keyEncoding,
                target -> {
                    try (Stream<Path> files = Files.list(staging)) {
                        for (Path f : files.toList()) {
                            try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                                ch.force(true);
                            }
                        }
                    }
                    DurableFiles.syncDirectory(staging);
                    Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
                    DurableFiles.syncDirectory(dir);
                });
    }

    /**
     * Deletes snapshots older than the newest {@code numRetained} that no live lease holds.
     *
     * @return snapshots deleted
     */
    int retain(int numRetained, SnapshotLeases leases) {
        List<KvSnapshotInfo> victims = new ArrayList<>();
        synchronized (this) {
            List<KvSnapshotInfo> all = new ArrayList<>(completed.values());
            all.sort(Comparator.comparingLong(KvSnapshotInfo::snapshotId).reversed());
            for (int i = numRetained; i < all.size(); i++) {
                KvSnapshotInfo info = all.get(i);
                if (!leases.isLeased(info.snapshotId())) {
                    completed.remove(info.snapshotId());
                    victims.add(info);
                }
            }
        }
        for (KvSnapshotInfo info : victims) {
            try {
                DurableFiles.deleteRecursively(pathOf(info.snapshotId()));
            } catch (IOException e) {
                throw new StorageException(
                        "cannot delete KV snapshot " + info.snapshotId() + ": " + e, e);
            }
        }
        return victims.size();
    }

    private static void writeMeta(Path snapshotDir, KvSnapshotInfo info, KvKeyEncoding keyEncoding)
            throws IOException {
        StringBuilder files = new StringBuilder();
        try (Stream<Path> entries = Files.list(snapshotDir)) {
            for (Path f : entries.sorted().toList()) {
                if (files.length() > 0) {
                    files.append(',');
                }
                files.append(f.getFileName()).append(':').append(Files.size(f));
            }
        }
        String text =
                "snapshotId="
                        + info.snapshotId()
                        + "\nlogOffset="
                        + info.logOffset()
                        + "\ncreatedAtMillis="
                        + info.createdAtMillis()
                        + "\n"
                        + KEY_ENCODING
                        + "="
                        + keyEncoding.metaName()
                        + "\nfiles="
                        + files
                        + "\n";
        DurableFiles.replace(
                snapshotDir.resolve(META_FILE),
                ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }

    private static Properties loadProperties(Path meta) throws IOException {
        Properties p = new Properties();
        p.load(new StringReader(Files.readString(meta, StandardCharsets.UTF_8)));
        return p;
    }

    private static KvSnapshotInfo readMeta(TableBucket bucket, Path meta) throws IOException {
        Properties p;
        try {
            p = loadProperties(meta);
        } catch (IOException | IllegalArgumentException e) {
            throw new CorruptDataException("unreadable KV snapshot metadata " + meta + ": " + e, e);
        }
        try {
            return new KvSnapshotInfo(
                    bucket,
                    Long.parseLong(p.getProperty("snapshotId")),
                    Long.parseLong(p.getProperty("logOffset")),
                    Long.parseLong(p.getProperty("createdAtMillis")));
        } catch (RuntimeException e) {
            throw new CorruptDataException(
                    "unreadable KV snapshot metadata " + meta + ": " + e.getMessage(), e);
        }
    }
}
