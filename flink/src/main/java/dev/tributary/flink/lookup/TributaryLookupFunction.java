package dev.tributary.flink.lookup;

import dev.tributary.client.Connection;
import dev.tributary.client.lookup.Lookuper;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.flink.catalog.ConnectionConfig;
import dev.tributary.flink.types.RowConverter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.LookupFunction;

/**
 * Lookup joins against a PK table ({@code FOR SYSTEM_TIME AS OF}): each probe asks the server's KV
 * state for the key through the client's {@link Lookuper}, so a join sees every write acknowledged
 * before the probe, fresher than any lake copy.
 */
public final class TributaryLookupFunction extends LookupFunction {
    private static final long serialVersionUID = 1L;

    private final ConnectionConfig connection;
    private final String table;
    private final RowConverter keyConverter;
    private final RowConverter outputConverter;
    private final int[] projection;
    private final int[] keyOrderInLookupRow;
    private transient Connection conn;
    private transient Lookuper lookuper;

    /**
     * @param projection the table positions of the rows Flink expects
     * @param keyOrderInLookupRow for each primary-key column (in key order), its position in the
     *     key row Flink passes
     */
    public TributaryLookupFunction(
            ConnectionConfig connection,
            String table,
            TableDescriptor descriptor,
            int[] projection,
            int[] keyOrderInLookupRow) {
        this.connection = connection;
        this.table = table;
        this.projection = projection.clone();
        this.keyOrderInLookupRow = keyOrderInLookupRow.clone();
        List<DataType> keyTypes = new ArrayList<>();
        int[] pk = descriptor.schema().primaryKeyIndexes();
        // Flink's key row is in join-key order; its types by the key's position there
        DataType[] byLookupPosition = new DataType[pk.length];
        for (int i = 0; i < pk.length; i++) {
            byLookupPosition[keyOrderInLookupRow[i]] = descriptor.schema().typeAt(pk[i]);
        }
        keyTypes.addAll(List.of(byLookupPosition));
        this.keyConverter = new RowConverter(keyTypes);
        List<DataType> outTypes = new ArrayList<>();
        for (int p : projection) {
            outTypes.add(descriptor.schema().typeAt(p));
        }
        this.outputConverter = new RowConverter(outTypes);
    }

    @Override
    public void open(FunctionContext context) {
        conn = connection.connect();
        lookuper = conn.lookuper(TablePath.parse(table));
    }

    @Override
    public Collection<RowData> lookup(RowData keyRow) {
        Row flinkOrder = keyConverter.toTributary(keyRow);
        Object[] key = new Object[keyOrderInLookupRow.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = flinkOrder.getField(keyOrderInLookupRow[i]);
            if (key[i] == null) {
                return List.of(); // a NULL key matches nothing
            }
        }
        Optional<Row> found = lookuper.lookup(Row.wrap(key));
        if (found.isEmpty()) {
            return List.of();
        }
        return List.of(outputConverter.toFlink(found.get().project(projection), ChangeType.INSERT));
    }

    @Override
    public void close() {
        if (conn != null) {
            conn.close();
        }
    }
}
