package dev.tributary.storage.kv;

import dev.tributary.common.exception.StorageException;
import dev.tributary.common.row.OrderedKeyCodec;
import dev.tributary.common.types.DataType;
import java.util.List;

/**
 * How a bucket's KV state encodes primary keys as RocksDB keys, which sets the order a snapshot
 * iterates in. Recorded in each KV snapshot's metadata ({@link #metaName}); a snapshot without the
 * record was written before there was a choice and uses {@link #ROW_CODEC}.
 */
public enum KvKeyEncoding {
    /**
     * {@link dev.tributary.common.row.RowCodec} key bytes: compact, but their byte order is no key
     * type's value order, so a lake writer must sort a snapshot.
     */
    ROW_CODEC("row-codec"),
    /**
     * {@link OrderedKeyCodec} bytes: a snapshot iterates in the lake's key order. Only for key
     * types {@link OrderedKeyCodec#supports} supports; other tables keep {@link #ROW_CODEC}.
     */
    ORDERED("ordered-v1");

    private final String metaName;

    KvKeyEncoding(String metaName) {
        this.metaName = metaName;
    }

    /** The name in snapshot metadata; versioned, since a stored encoding can never change. */
    String metaName() {
        return metaName;
    }

    /** The encoding a snapshot's metadata names; none is the encoding from before the record. */
    static KvKeyEncoding ofMetaName(String name) {
        if (name == null) {
            return ROW_CODEC;
        }
        for (KvKeyEncoding e : values()) {
            if (e.metaName.equals(name)) {
                return e;
            }
        }
        // not damage: a newer version wrote it, and discarding the snapshot would lose state
        throw new StorageException(
                "unknown KV key encoding '" + name + "' (written by a newer version?)");
    }

    /** The encoding a bucket starting empty uses: {@code preferred} if the key types allow it. */
    static KvKeyEncoding forNewState(KvKeyEncoding preferred, List<DataType> keyTypes) {
        return preferred == ORDERED && OrderedKeyCodec.supports(keyTypes) ? ORDERED : ROW_CODEC;
    }
}
