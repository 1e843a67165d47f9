package dev.tributary.storage.kv;

import dev.tributary.common.exception.StorageException;
import dev.tributary.storage.CloseableIterator;
import java.nio.file.Path;
import java.util.NoSuchElementException;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * Every value of one KV snapshot, in key order and in its stored {@link
 * dev.tributary.common.row.RowCodec} encoding (a row written before a column was added is narrower
 * than the current schema), read from its checkpoint opened read-only.
 */
final class SnapshotReader implements CloseableIterator<byte[]> {
    /** A scan reads each block once: caching it only evicts others; read ahead instead. */
    private static final long READAHEAD_BYTES = 2 << 20;

    private final Options options;
    private final ReadOptions readOptions;
    private final RocksDB db;
    private final RocksIterator it;
    private boolean closed;

    SnapshotReader(Path checkpoint) {
        this.options = new Options();
        try {
            this.db = RocksDB.openReadOnly(options, checkpoint.toString());
        } catch (RocksDBException e) {
            options.close();
            throw new StorageException("cannot open KV snapshot " + checkpoint + ": " + e, e);
        }
        this.readOptions = new ReadOptions().setFillCache(false).setReadaheadSize(READAHEAD_BYTES);
        this.it = db.newIterator(readOptions);
        it.seekToFirst();
    }

    @Override
    public boolean hasNext() {
        return !closed && it.isValid();
    }

    @Override
    public byte[] next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        byte[] value = it.value();
        it.next();
        return value;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        it.close();
        readOptions.close();
        db.close();
        options.close();
    }
}
