package dev.tributary.lake.iceberg;

import java.nio.ByteBuffer;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.types.Types;

/** Reads an Iceberg table with Iceberg's own generic reader (deletes applied), for tests. */
final class IcebergReads {
    private IcebergReads() {}

    /** Every live row as column name -> Tributary value, every column included. */
    static List<Map<String, Object>> readNamed(Table table) throws Exception {
        List<Map<String, Object>> out = new ArrayList<>();
        List<Types.NestedField> columns = table.schema().columns();
        try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
            for (Record r : records) {
                Map<String, Object> m = new HashMap<>();
                for (Types.NestedField c : columns) {
                    m.put(c.name(), toTributary(r.getField(c.name())));
                }
                out.add(m);
            }
        }
        return out;
    }

    static Object toTributary(Object v) {
        if (v instanceof ByteBuffer b) {
            byte[] bytes = new byte[b.remaining()];
            b.duplicate().get(bytes);
            return bytes;
        } else if (v instanceof OffsetDateTime t) {
            return t.toInstant();
        } else if (v instanceof CharSequence s) {
            return s.toString();
        }
        return v;
    }
}
