package dev.tributary.lake.iceberg;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.types.Conversions;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * A key's bytes in the store's lake row index (T48): the writer that looks a key up and the server
 * that indexes the lake's rows both encode Iceberg's internal values of the key columns with it, so
 * a key read back from a data file finds the entry a writer asks for. Each column is Iceberg's
 * single-value serialization (the one of manifest bounds) behind its length; the index treats the
 * result as opaque bytes.
 */
final class IcebergRowKeys {
    private final Type[] types;

    IcebergRowKeys(Types.StructType keyType) {
        List<Types.NestedField> fields = keyType.fields();
        this.types = new Type[fields.size()];
        for (int i = 0; i < types.length; i++) {
            types[i] = fields.get(i).type();
        }
    }

    /**
     * The bytes of {@code key}, Iceberg internal values (days for a DATE, micros for TIMESTAMP).
     */
    byte[] encode(StructLike key) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(16);
        for (int i = 0; i < types.length; i++) {
            Object v = key.get(i, Object.class);
            if (v == null) {
                // primary-key columns are NOT NULL in the store and in the lake
                throw new IllegalArgumentException("key column " + i + " is null");
            }
            ByteBuffer b = Conversions.toByteBuffer(types[i], v);
            int n = b.remaining();
            while ((n & ~0x7F) != 0) {
                out.write((n & 0x7F) | 0x80);
                n >>>= 7;
            }
            out.write(n);
            byte[] bytes = new byte[b.remaining()];
            b.duplicate().get(bytes);
            out.writeBytes(bytes);
        }
        return out.toByteArray();
    }
}
