package dev.tributary.storage.lakeindex;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TableBucket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.LRUCache;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Where the live lake row of each primary key is (T48): per bucket, key -> (lake data file,
 * position), as of one lake snapshot, so a tiering round retracts a key's old row by position
 * (deletion vector or position delete) without reading the lake for it.
 *
 * <p>One RocksDB for the whole server, its own write-ahead log on (unlike the KV state, it cannot
 * be rebuilt from the store's log, only from the lake). Per bucket ({@link TableBucket}) it holds a
 * state record (the snapshot it describes and its live data files), a dictionary of file ids and
 * one entry per key. Invariant: when the state is clean, every key with a live row in the bucket's
 * data files at that snapshot has an entry naming that row. An entry naming a file that is not in
 * the state's files is stale (the file was compacted away or the key deleted) and reads as absent.
 *
 * <p>Updates ({@link #beginUpdate}) mark the state dirty, durably, before the first entry is
 * written, and clean with the new snapshot and files only at {@link Update#commit}; a crash or
 * failure in between leaves the bucket dirty, which reads as "no index" until a rebuild. So the
 * index never claims a snapshot it does not fully describe, and a caller that finds none falls back
 * to reading the lake.
 *
 * <p>Thread safety: callers serialize updates and lookups of one bucket (the server holds a lock
 * per bucket); different buckets may be used concurrently.
 */
public final class LakeRowIndex implements AutoCloseable {
    static {
        RocksDB.loadLibrary();
    }

    private static final byte STATE = 'S';
    private static final byte FILE = 'F';
    private static final byte ROW = 'R';
    private static final byte CLEAN = 1;
    private static final byte DIRTY = 0;
    static final int BATCH_ENTRIES = 10_000;
    // a lookup of a round's keys hits random blocks: at ~25 bytes per key a million keys' entries
    // stay cached (RocksDB's default cache is 8 MB)
    private static final long BLOCK_CACHE_BYTES = 64L << 20;
    private static final int BUCKET_PREFIX = 8 + 8 + 4;

    /** A live row's place: a lake data file (its full path) and the row's position in it. */
    public record RowLocation(String file, long position) {}

    /**
     * What a bucket's index describes.
     *
     * @param snapshotId the lake snapshot
     * @param files the bucket's live data files at that snapshot
     */
    public record IndexedSnapshot(long snapshotId, List<String> files) {
        public IndexedSnapshot {
            files = List.copyOf(files);
        }
    }

    private final Options options;
    private final LRUCache cache;
    private final WriteOptions batchWrites;
    private final WriteOptions syncWrites;
    private final RocksDB db;

    private LakeRowIndex(Options options, LRUCache cache, RocksDB db) {
        this.options = options;
        this.cache = cache;
        this.db = db;
        this.batchWrites = new WriteOptions();
        this.syncWrites = new WriteOptions().setSync(true);
    }

    /** Opens (creating if missing) the index in {@code dir}. */
    public static LakeRowIndex open(Path dir) {
        LRUCache cache = new LRUCache(BLOCK_CACHE_BYTES);
        BlockBasedTableConfig table =
                new BlockBasedTableConfig()
                        .setBlockCache(cache)
                        .setFilterPolicy(new BloomFilter(10, false))
                        .setWholeKeyFiltering(true);
        Options options =
                new Options()
                        .setCreateIfMissing(true)
                        .setTableFormatConfig(table)
                        .setWriteBufferSize(16L << 20)
                        .setMaxBackgroundJobs(1);
        try {
            dir.toFile().mkdirs();
            return new LakeRowIndex(options, cache, RocksDB.open(options, dir.toString()));
        } catch (RocksDBException e) {
            options.close();
            cache.close();
            throw new StorageException("cannot open the lake row index in " + dir + ": " + e, e);
        }
    }

    /** The snapshot the bucket's index describes; empty when it has none or an update was cut. */
    public Optional<IndexedSnapshot> indexed(TableBucket bucket) {
        State s = state(bucket);
        if (s == null || !s.clean) {
            return Optional.empty();
        }
        List<String> files = new ArrayList<>(s.fileIds.length);
        for (int id : s.fileIds) {
            files.add(path(bucket, id));
        }
        return Optional.of(new IndexedSnapshot(s.snapshotId, files));
    }

    /**
     * The snapshot the bucket's index describes, without its files: one point read, for status
     * (T48). Empty when it has none or an update is in progress or was cut. Safe to call while
     * another thread updates the bucket: it then reads the state before or after the update began.
     */
    public OptionalLong indexedSnapshotId(TableBucket bucket) {
        State s = state(bucket);
        return s == null || !s.clean ? OptionalLong.empty() : OptionalLong.of(s.snapshotId);
    }

    /**
     * The live row of each key, in order; null for a key with no entry or a stale one. Only
     * meaningful while {@link #indexed} is present.
     *
     * @param keys the keys, as the lake format encodes them (opaque bytes here)
     */
    public RowLocation[] lookup(TableBucket bucket, List<byte[]> keys) {
        State s = state(bucket);
        RowLocation[] out = new RowLocation[keys.size()];
        if (s == null || !s.clean) {
            return out;
        }
        Map<Integer, String> files = new HashMap<>();
        for (int id : s.fileIds) {
            files.put(id, null);
        }
        List<byte[]> dbKeys = new ArrayList<>(keys.size());
        for (byte[] k : keys) {
            dbKeys.add(rowKey(bucket, k));
        }
        try {
            List<byte[]> values = db.multiGetAsList(dbKeys);
            for (int i = 0; i < out.length; i++) {
                byte[] v = values.get(i);
                if (v == null) {
                    continue;
                }
                ByteBuffer in = ByteBuffer.wrap(v);
                int fileId = (int) readVarLong(in);
                long position = readVarLong(in);
                if (!files.containsKey(fileId)) {
                    continue; // stale: the file is no longer live
                }
                String path = files.get(fileId);
                if (path == null) {
                    path = path(bucket, fileId);
                    files.put(fileId, path);
                }
                out[i] = new RowLocation(path, position);
            }
        } catch (RocksDBException e) {
            throw new StorageException("lake row index lookup of " + bucket + " failed: " + e, e);
        }
        return out;
    }

    /**
     * Starts an update of the bucket's index, which marks it dirty with its first write.
     *
     * @param rebuild drop every entry first (the update then adds every live row); otherwise the
     *     update adds the rows of files new since the indexed snapshot and keeps the rest, which
     *     needs a clean index ({@link #indexed} present)
     */
    public Update beginUpdate(TableBucket bucket, boolean rebuild) {
        State s = state(bucket);
        if (!rebuild && (s == null || !s.clean)) {
            throw new IllegalStateException(
                    "the lake row index of " + bucket + " describes no snapshot: rebuild it");
        }
        return new Update(bucket, rebuild ? new State(false, -1, 0, new int[0]) : s, rebuild);
    }

    /** Deletes the index of every bucket of the table (dropped). */
    public void dropTable(long tableId) {
        deleteRange(
                ByteBuffer.allocate(8).putLong(tableId).array(),
                ByteBuffer.allocate(8).putLong(tableId + 1).array());
    }

    /** Deletes the index of every bucket of the partition (dropped). */
    public void dropPartition(long tableId, long partitionId) {
        deleteRange(
                ByteBuffer.allocate(16).putLong(tableId).putLong(partitionId).array(),
                ByteBuffer.allocate(16).putLong(tableId).putLong(partitionId + 1).array());
    }

    /** The index's size on disk and in memtables, bytes (an estimate from RocksDB). */
    public long approximateBytes() {
        try {
            return Long.parseLong(db.getProperty("rocksdb.total-sst-files-size"))
                    + Long.parseLong(db.getProperty("rocksdb.cur-size-all-mem-tables"));
        } catch (RocksDBException e) {
            throw new StorageException("lake row index size: " + e, e);
        }
    }

    @Override
    public void close() {
        db.close();
        batchWrites.close();
        syncWrites.close();
        options.close();
        cache.close();
    }

    /**
     * An update in progress: {@link #put} the rows of the files new since the base, then {@link
     * #commit} the snapshot and its files. Closing without commit leaves the bucket as it was when
     * nothing was written yet, dirty otherwise.
     */
    public final class Update implements AutoCloseable {
        private final TableBucket bucket;
        private final Map<String, Integer> fileIds = new LinkedHashMap<>();
        private final WriteBatch batch = new WriteBatch();
        private int nextFileId;
        private int pending;

        private Update(TableBucket bucket, State base, boolean rebuild) {
            this.bucket = bucket;
            this.nextFileId = base.nextFileId;
            for (int id : base.fileIds) {
                fileIds.put(path(bucket, id), id);
            }
            // the dirty mark goes first in the first batch written: the log recovers a prefix of
            // the writes, so no entry of this update survives a crash without it, and an update
            // that fits one batch costs one synced write (its commit)
            try {
                if (rebuild) {
                    byte[] prefix = prefix(bucket);
                    batch.deleteRange(withTag(prefix, FILE), withTag(prefix, (byte) (FILE + 1)));
                    batch.deleteRange(withTag(prefix, ROW), withTag(prefix, (byte) (ROW + 1)));
                }
                batch.put(stateKey(bucket), base.dirty().encode());
            } catch (RocksDBException e) {
                batch.close();
                throw new StorageException("lake row index update of " + bucket + ": " + e, e);
            }
        }

        /** The live row of {@code key} is at {@code position} of {@code file}. */
        public void put(byte[] key, String file, long position) {
            Integer id = fileIds.get(file);
            try {
                if (id == null) {
                    id = nextFileId++;
                    fileIds.put(file, id);
                    batch.put(fileKey(bucket, id), file.getBytes(StandardCharsets.UTF_8));
                }
                ByteBuffer v = ByteBuffer.allocate(15);
                writeVarLong(v, id);
                writeVarLong(v, position);
                batch.put(rowKey(bucket, key), Arrays.copyOf(v.array(), v.position()));
                if (++pending >= BATCH_ENTRIES) {
                    flush();
                }
            } catch (RocksDBException e) {
                throw new StorageException("lake row index update of " + bucket + ": " + e, e);
            }
        }

        /**
         * Makes the index describe {@code snapshotId} whose live data files of the bucket are
         * {@code files}: dictionary entries of files no longer live are dropped (their rows'
         * entries read as absent from now on), and the state is written clean, synced.
         */
        public void commit(long snapshotId, List<String> files) {
            try {
                Set<String> live = new HashSet<>(files);
                List<Integer> ids = new ArrayList<>();
                for (Map.Entry<String, Integer> e : fileIds.entrySet()) {
                    if (live.contains(e.getKey())) {
                        ids.add(e.getValue());
                    } else {
                        batch.delete(fileKey(bucket, e.getValue()));
                    }
                }
                for (String f : files) {
                    if (!fileIds.containsKey(f)) {
                        // a live file without rows of interest (all deleted): still live
                        int id = nextFileId++;
                        fileIds.put(f, id);
                        ids.add(id);
                        batch.put(fileKey(bucket, id), f.getBytes(StandardCharsets.UTF_8));
                    }
                }
                int[] idArray = ids.stream().mapToInt(Integer::intValue).toArray();
                batch.put(
                        stateKey(bucket),
                        new State(true, snapshotId, nextFileId, idArray).encode());
                db.write(syncWrites, batch);
                batch.clear();
            } catch (RocksDBException e) {
                throw new StorageException("lake row index commit of " + bucket + ": " + e, e);
            }
        }

        private void flush() throws RocksDBException {
            db.write(batchWrites, batch);
            batch.clear();
            pending = 0;
        }

        /**
         * Without {@link #commit}, a bucket this update wrote to stays dirty: the next use rebuilds
         * it.
         */
        @Override
        public void close() {
            batch.close();
        }
    }

    private record State(boolean clean, long snapshotId, int nextFileId, int[] fileIds) {
        State dirty() {
            return new State(false, snapshotId, nextFileId, fileIds);
        }

        byte[] encode() {
            ByteBuffer b = ByteBuffer.allocate(1 + 8 + 4 + 4 + 4 * fileIds.length);
            b.put(clean ? CLEAN : DIRTY).putLong(snapshotId).putInt(nextFileId);
            b.putInt(fileIds.length);
            for (int id : fileIds) {
                b.putInt(id);
            }
            return b.array();
        }

        static State decode(TableBucket bucket, byte[] v) {
            try {
                ByteBuffer b = ByteBuffer.wrap(v);
                boolean clean = b.get() == CLEAN;
                long snapshotId = b.getLong();
                int next = b.getInt();
                int[] ids = new int[b.getInt()];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = b.getInt();
                }
                return new State(clean, snapshotId, next, ids);
            } catch (RuntimeException e) {
                throw new CorruptDataException(
                        "lake row index state of " + bucket + " is damaged: " + e, e);
            }
        }
    }

    private State state(TableBucket bucket) {
        try {
            byte[] v = db.get(stateKey(bucket));
            return v == null ? null : State.decode(bucket, v);
        } catch (RocksDBException e) {
            throw new StorageException("lake row index read of " + bucket + " failed: " + e, e);
        }
    }

    private String path(TableBucket bucket, int fileId) {
        try {
            byte[] v = db.get(fileKey(bucket, fileId));
            if (v == null) {
                throw new CorruptDataException(
                        "lake row index of " + bucket + " names file id " + fileId + " it lacks");
            }
            return new String(v, StandardCharsets.UTF_8);
        } catch (RocksDBException e) {
            throw new StorageException("lake row index read of " + bucket + " failed: " + e, e);
        }
    }

    private void deleteRange(byte[] from, byte[] to) {
        try (WriteBatch b = new WriteBatch()) {
            b.deleteRange(from, to);
            db.write(syncWrites, b);
        } catch (RocksDBException e) {
            throw new StorageException("lake row index delete failed: " + e, e);
        }
    }

    private static byte[] prefix(TableBucket b) {
        return ByteBuffer.allocate(BUCKET_PREFIX)
                .putLong(b.tableId())
                .putLong(b.partitionId())
                .putInt(b.bucket())
                .array();
    }

    private static byte[] withTag(byte[] prefix, byte tag) {
        byte[] k = Arrays.copyOf(prefix, prefix.length + 1);
        k[prefix.length] = tag;
        return k;
    }

    private static byte[] stateKey(TableBucket b) {
        return withTag(prefix(b), STATE);
    }

    private static byte[] fileKey(TableBucket b, int fileId) {
        return ByteBuffer.allocate(BUCKET_PREFIX + 1 + 4)
                .put(prefix(b))
                .put(FILE)
                .putInt(fileId)
                .array();
    }

    private static byte[] rowKey(TableBucket b, byte[] key) {
        return ByteBuffer.allocate(BUCKET_PREFIX + 1 + key.length)
                .put(prefix(b))
                .put(ROW)
                .put(key)
                .array();
    }

    private static void writeVarLong(ByteBuffer b, long v) {
        while ((v & ~0x7FL) != 0) {
            b.put((byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        b.put((byte) v);
    }

    private static long readVarLong(ByteBuffer b) {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            byte x = b.get();
            v |= (long) (x & 0x7F) << shift;
            if ((x & 0x80) == 0) {
                return v;
            }
        }
        throw new CorruptDataException("lake row index entry has a malformed number");
    }
}
