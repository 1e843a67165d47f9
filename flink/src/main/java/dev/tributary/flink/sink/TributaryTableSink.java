package dev.tributary.flink.sink;

import dev.tributary.common.types.DataType;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.flink.catalog.ConnectionConfig;
import dev.tributary.flink.types.RowConverter;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.flink.table.catalog.TableDistribution;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.sink.SinkV2Provider;
import org.apache.flink.table.connector.sink.abilities.SupportsBucketing;
import org.apache.flink.types.RowKind;

/**
 * INSERT INTO a Tributary table through the client's public writers: a log table takes inserts
 * only; a PK table takes an upsert changelog ({@code +I}, {@code +U} upsert, {@code -D} deletes the
 * key; {@code -U} is not needed and dropped by Flink's planner).
 */
public final class TributaryTableSink implements DynamicTableSink, SupportsBucketing {
    private final ConnectionConfig connection;
    private final String table;
    private final TableDescriptor descriptor;

    public TributaryTableSink(
            ConnectionConfig connection, String table, TableDescriptor descriptor) {
        this.connection = connection;
        this.table = table;
        this.descriptor = descriptor;
    }

    @Override
    public ChangelogMode getChangelogMode(ChangelogMode requested) {
        if (!descriptor.hasPrimaryKey()) {
            return ChangelogMode.insertOnly();
        }
        return ChangelogMode.newBuilder()
                .addContainedKind(RowKind.INSERT)
                .addContainedKind(RowKind.UPDATE_AFTER)
                .addContainedKind(RowKind.DELETE)
                .keyOnlyDeletes(true)
                .build();
    }

    @Override
    public SinkRuntimeProvider getSinkRuntimeProvider(Context context) {
        List<DataType> types = new ArrayList<>();
        descriptor.schema().columns().forEach(c -> types.add(c.type()));
        return SinkV2Provider.of(
                new TributarySink(
                        connection, table, descriptor.hasPrimaryKey(), new RowConverter(types)));
    }

    /** The client routes every row to its bucket with the table's own bucket function. */
    @Override
    public Set<TableDistribution.Kind> listAlgorithms() {
        return Set.of(TableDistribution.Kind.HASH);
    }

    @Override
    public boolean requiresBucketCount() {
        return true;
    }

    @Override
    public DynamicTableSink copy() {
        return new TributaryTableSink(connection, table, descriptor);
    }

    @Override
    public String asSummaryString() {
        return "Tributary writer of " + table;
    }
}
