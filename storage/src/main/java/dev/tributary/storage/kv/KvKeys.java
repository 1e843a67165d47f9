package dev.tributary.storage.kv;

import dev.tributary.common.row.OrderedKeyCodec;
import dev.tributary.common.row.Row;
import dev.tributary.common.row.RowCodec;
import dev.tributary.common.types.DataType;
import java.util.List;

/**
 * Turns primary keys into the RocksDB keys of one bucket's {@link KvKeyEncoding}. Writers hand keys
 * as {@link RowCodec} bytes (the wire and changelog form); only the RocksDB bytes differ.
 */
final class KvKeys {
    private final KvKeyEncoding encoding;
    private final RowCodec rowCodec;
    private final OrderedKeyCodec ordered;

    KvKeys(KvKeyEncoding encoding, List<DataType> keyTypes) {
        this.encoding = encoding;
        this.rowCodec = new RowCodec(keyTypes);
        this.ordered = encoding == KvKeyEncoding.ORDERED ? OrderedKeyCodec.of(keyTypes) : null;
    }

    KvKeyEncoding encoding() {
        return encoding;
    }

    /** The RocksDB key of {@code key} (the key fields in key order). */
    byte[] encode(Row key) {
        return ordered == null ? rowCodec.encode(key) : ordered.encode(key);
    }

    /**
     * The RocksDB key of a key in {@link RowCodec} bytes; the same array if that is the encoding.
     */
    byte[] fromRowCodec(byte[] rowCodecKey) {
        return ordered == null ? rowCodecKey : ordered.encode(rowCodec.decode(rowCodecKey));
    }
}
