package dev.tributary.flink.catalog;

import dev.tributary.common.types.TableDescriptor;
import dev.tributary.flink.sink.TributaryTableSink;
import dev.tributary.flink.source.TributaryTableSource;
import java.util.Set;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.table.connector.sink.DynamicTableSink;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSinkFactory;
import org.apache.flink.table.factories.DynamicTableSourceFactory;

/**
 * Creates the sources and sinks of tables in a {@link TributaryCatalog}: the catalog hands its
 * connection to the factory (never to table options, so a token never shows in a table's options),
 * and the table's descriptor travels from the catalog's getTable to here in its options.
 */
public final class TributaryTableFactory
        implements DynamicTableSourceFactory, DynamicTableSinkFactory {
    private final ConnectionConfig connection;

    TributaryTableFactory(ConnectionConfig connection) {
        this.connection = connection;
    }

    @Override
    public String factoryIdentifier() {
        return TributaryCatalogOptions.IDENTIFIER;
    }

    @Override
    public Set<ConfigOption<?>> requiredOptions() {
        return Set.of();
    }

    @Override
    public Set<ConfigOption<?>> optionalOptions() {
        return Set.of(
                TributaryTableOptions.BUCKET_NUM,
                TributaryTableOptions.BUCKET_KEY,
                TributaryTableOptions.SCAN_MODE,
                TributaryTableOptions.SCAN_POLL_INTERVAL,
                TributaryTableOptions.SCAN_PARTITION_DISCOVERY_INTERVAL,
                TributaryTableOptions.SCAN_BATCH_RECORDS);
    }

    @Override
    public DynamicTableSource createDynamicTableSource(Context context) {
        Configuration options = Configuration.fromMap(context.getCatalogTable().getOptions());
        TableDescriptor descriptor = FlinkTables.toDescriptor(context.getCatalogTable());
        boolean streaming =
                context.getConfiguration().get(ExecutionOptions.RUNTIME_MODE)
                        != RuntimeExecutionMode.BATCH;
        return new TributaryTableSource(
                connection,
                tablePath(context),
                descriptor,
                options.get(TributaryTableOptions.SCAN_MODE),
                streaming,
                options.get(TributaryTableOptions.SCAN_POLL_INTERVAL),
                options.get(TributaryTableOptions.SCAN_PARTITION_DISCOVERY_INTERVAL),
                options.get(TributaryTableOptions.SCAN_BATCH_RECORDS));
    }

    @Override
    public DynamicTableSink createDynamicTableSink(Context context) {
        return new TributaryTableSink(
                connection,
                tablePath(context),
                FlinkTables.toDescriptor(context.getCatalogTable()));
    }

    private static String tablePath(Context context) {
        return context.getObjectIdentifier().getDatabaseName()
                + "."
                + context.getObjectIdentifier().getObjectName();
    }
}
