package dev.tributary.flink.source;

import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataType;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.flink.catalog.ConnectionConfig;
import dev.tributary.flink.catalog.TributaryTableOptions;
import dev.tributary.flink.lookup.TributaryLookupFunction;
import dev.tributary.flink.types.FlinkTypes;
import dev.tributary.flink.types.RowConverter;
import dev.tributary.lake.api.read.LakePredicate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.connector.ChangelogMode;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.connector.source.LookupTableSource;
import org.apache.flink.table.connector.source.ScanTableSource;
import org.apache.flink.table.connector.source.SourceProvider;
import org.apache.flink.table.connector.source.abilities.SupportsFilterPushDown;
import org.apache.flink.table.connector.source.abilities.SupportsProjectionPushDown;
import org.apache.flink.table.connector.source.lookup.LookupFunctionProvider;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.expressions.ResolvedExpression;

/**
 * A Tributary table as a Flink source: SELECT is a union read (T40) with projection and filter
 * push-down into the lake read; a streaming query follows the log after it (a PK table then
 * produces its changelog); lookup joins on PK tables ask the server's KV state by key.
 */
public final class TributaryTableSource
        implements ScanTableSource,
                LookupTableSource,
                SupportsProjectionPushDown,
                SupportsFilterPushDown {
    private final ConnectionConfig connection;
    private final String table;
    private final TableDescriptor descriptor;
    private final TributaryTableOptions.ScanMode scanMode;
    private final boolean streamingJob;
    private final Duration pollInterval;
    private final Duration partitionDiscoveryInterval;
    private final int fetchRecords;
    private int[] projection;
    private LakePredicate filter;

    public TributaryTableSource(
            ConnectionConfig connection,
            String table,
            TableDescriptor descriptor,
            TributaryTableOptions.ScanMode scanMode,
            boolean streamingJob,
            Duration pollInterval,
            Duration partitionDiscoveryInterval,
            int fetchRecords) {
        this.connection = connection;
        this.table = table;
        this.descriptor = descriptor;
        this.scanMode = scanMode;
        this.streamingJob = streamingJob;
        this.pollInterval = pollInterval;
        this.partitionDiscoveryInterval = partitionDiscoveryInterval;
        this.fetchRecords = fetchRecords;
        this.projection = new int[descriptor.schema().fieldCount()];
        Arrays.setAll(projection, i -> i);
    }

    private boolean follow() {
        return switch (scanMode) {
            case AUTO -> streamingJob;
            case BATCH -> false;
            case STREAMING -> true;
        };
    }

    @Override
    public ChangelogMode getChangelogMode() {
        return follow() && descriptor.hasPrimaryKey()
                ? ChangelogMode.all()
                : ChangelogMode.insertOnly();
    }

    @Override
    public ScanRuntimeProvider getScanRuntimeProvider(ScanContext context) {
        List<String> columns = new ArrayList<>();
        List<DataType> types = new ArrayList<>();
        List<org.apache.flink.table.api.DataTypes.Field> fields = new ArrayList<>();
        for (int p : projection) {
            Column c = descriptor.schema().columns().get(p);
            columns.add(c.name());
            types.add(c.type());
            fields.add(
                    org.apache.flink.table.api.DataTypes.FIELD(
                            c.name(), FlinkTypes.toFlink(c.type())));
        }
        UnionSourceSpec spec =
                new UnionSourceSpec(
                        connection,
                        table,
                        columns,
                        filter,
                        follow(),
                        pollInterval,
                        partitionDiscoveryInterval,
                        fetchRecords);
        return SourceProvider.of(
                new UnionSource(
                        spec,
                        new RowConverter(types),
                        context.<RowData>createTypeInformation(
                                org.apache.flink.table.api.DataTypes.ROW(fields).notNull())));
    }

    @Override
    public LookupRuntimeProvider getLookupRuntimeProvider(LookupContext context) {
        if (!descriptor.hasPrimaryKey()) {
            throw new ValidationException(
                    "lookup joins need a primary-key table; "
                            + table
                            + " is a log table (read it with a regular join instead)");
        }
        int[] pk = descriptor.schema().primaryKeyIndexes();
        List<Integer> keys = new ArrayList<>();
        for (int[] k : context.getKeys()) {
            keys.add(projection[k[0]]);
        }
        List<Integer> sortedKeys = keys.stream().sorted().toList();
        List<Integer> sortedPk = Arrays.stream(pk).sorted().boxed().toList();
        if (!sortedKeys.equals(sortedPk)) {
            throw new ValidationException(
                    "a lookup join on "
                            + table
                            + " must give every primary-key column "
                            + descriptor.schema().primaryKey()
                            + " with an equality (the server looks rows up by key)");
        }
        int[] keyOrderInLookupRow = new int[pk.length];
        for (int i = 0; i < pk.length; i++) {
            keyOrderInLookupRow[i] = keys.indexOf(pk[i]);
        }
        return LookupFunctionProvider.of(
                new TributaryLookupFunction(
                        connection, table, descriptor, projection, keyOrderInLookupRow));
    }

    @Override
    public boolean supportsNestedProjection() {
        return false;
    }

    @Override
    public void applyProjection(
            int[][] projectedFields, org.apache.flink.table.types.DataType producedDataType) {
        int[] next = new int[projectedFields.length];
        for (int i = 0; i < projectedFields.length; i++) {
            next[i] = projection[projectedFields[i][0]];
        }
        projection = next;
    }

    /**
     * Translatable filters go into the lake read (file, partition and row-group pruning, and the
     * store rows are filtered before they reach Flink); Flink still evaluates every filter, so what
     * cannot be translated exactly costs nothing but pruning.
     */
    @Override
    public Result applyFilters(List<ResolvedExpression> filters) {
        List<ResolvedExpression> accepted = new ArrayList<>();
        List<LakePredicate> predicates = new ArrayList<>();
        if (filter != null) {
            predicates.add(filter);
        }
        for (ResolvedExpression e : filters) {
            FilterTranslator.translate(e, descriptor.schema())
                    .ifPresent(
                            p -> {
                                predicates.add(p);
                                accepted.add(e);
                            });
        }
        filter = LakePredicate.and(predicates);
        return Result.of(accepted, filters);
    }

    @Override
    public DynamicTableSource copy() {
        TributaryTableSource c =
                new TributaryTableSource(
                        connection,
                        table,
                        descriptor,
                        scanMode,
                        streamingJob,
                        pollInterval,
                        partitionDiscoveryInterval,
                        fetchRecords);
        c.projection = projection.clone();
        c.filter = filter;
        return c;
    }

    @Override
    public String asSummaryString() {
        return "Tributary union read of "
                + table
                + (follow() ? " (then following the log)" : "")
                + (filter == null ? "" : ", lake filter " + filter);
    }
}
