package dev.tributary.lake.paimon;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.DataType;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.BinaryString;
import org.apache.paimon.data.Decimal;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.data.Timestamp;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.types.DataField;

/** Reads a Paimon table with Paimon's own reader, for tests. */
final class PaimonReads {
    private PaimonReads() {}

    /** Every live row as column name -> Tributary value, every lake column included. */
    static List<Map<String, Object>> readNamed(Catalog catalog, TablePath path) throws Exception {
        Table table = catalog.getTable(Identifier.create(path.database(), path.table()));
        List<DataField> fields = table.rowType().getFields();
        InternalRow.FieldGetter[] getters = new InternalRow.FieldGetter[fields.size()];
        DataType[] types = new DataType[fields.size()];
        for (int i = 0; i < getters.length; i++) {
            getters[i] = InternalRow.createFieldGetter(fields.get(i).type(), i);
            types[i] = PaimonTypes.fromPaimon(fields.get(i).type());
        }
        ReadBuilder rb = table.newReadBuilder();
        List<Map<String, Object>> out = new ArrayList<>();
        try (RecordReader<InternalRow> reader =
                rb.newRead().createReader(rb.newScan().plan().splits())) {
            reader.forEachRemaining(
                    r -> {
                        Map<String, Object> m = new HashMap<>();
                        for (int i = 0; i < getters.length; i++) {
                            m.put(
                                    fields.get(i).name(),
                                    toTributary(types[i], getters[i].getFieldOrNull(r)));
                        }
                        out.add(m);
                    });
        }
        return out;
    }

    static Object toTributary(DataType t, Object v) {
        if (v == null) {
            return null;
        }
        return switch (t.root()) {
            case STRING -> ((BinaryString) v).toString();
            case DECIMAL -> ((Decimal) v).toBigDecimal();
            case DATE -> LocalDate.ofEpochDay((Integer) v);
            case TIME -> LocalTime.ofNanoOfDay((Integer) v * 1_000_000L);
            case TIMESTAMP -> ((Timestamp) v).toLocalDateTime();
            case TIMESTAMP_LTZ -> ((Timestamp) v).toInstant();
            default -> v;
        };
    }
}
