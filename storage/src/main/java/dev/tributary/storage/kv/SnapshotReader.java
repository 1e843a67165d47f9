package dev.tributary.storage.kv;

import dev.tributary.common.exception.StorageException;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.storage.CloseableIterator;
import java.nio.file.Path;
import java.util.NoSuchElementException;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/** Every row of one KV snapshot, in key order, read from its checkpoint opened read-only. */
final class SnapshotReader implements CloseableIterator<Row> {
    private final Options options;
    private final RocksDB db;
    private final RocksIterator it;
    private final RowCodec codec;
    private boolean closed;

    SnapshotReader(Path checkpoint, RowCodec codec) {
        this.codec = codec;
        this.options = new Options();
        try {
            this.db = RocksDB.openReadOnly(options, checkpoint.toString());
        } catch (RocksDBException e) {
            options.close();
            throw new StorageException("cannot open KV snapshot " + checkpoint + ": " + e, e);
        }
        this.it = db.newIterator();
        it.seekToFirst();
    }

    @Override
    public boolean hasNext() {
        return !closed && it.isValid();
    }

    @Override
    public Row next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        Row row = codec.decode(it.value());
        it.next();
        return row;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        it.close();
        db.close();
        options.close();
    }
}
