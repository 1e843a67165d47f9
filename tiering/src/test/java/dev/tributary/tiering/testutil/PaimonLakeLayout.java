package dev.tributary.tiering.testutil;

import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.Schema;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import java.io.File;
import java.io.FileNotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.data.InternalRow;
import org.apache.paimon.options.Options;
import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.reader.RecordReader;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.ReadBuilder;
import org.apache.paimon.table.source.ScanMode;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.utils.SnapshotManager;

/** {@link LakeLayout} of a Paimon warehouse, through Paimon's own catalog, scans and readers. */
final class PaimonLakeLayout implements LakeLayout {
    private final File warehouse;

    PaimonLakeLayout(File warehouse) {
        this.warehouse = warehouse;
    }

    private interface TableAction<T> {
        T apply(FileStoreTable table) throws Exception;
    }

    private <T> T withTable(TablePath path, TableAction<T> action) throws Exception {
        Options options =
                Options.fromMap(
                        Map.of(
                                "warehouse",
                                warehouse.toURI().toString(),
                                "cache-enabled",
                                "false"));
        try (Catalog catalog = CatalogFactory.createCatalog(CatalogContext.create(options))) {
            return action.apply(
                    (FileStoreTable)
                            catalog.getTable(Identifier.create(path.database(), path.table())));
        }
    }

    @Override
    public LiveFiles liveFiles(TablePath path) throws Exception {
        return withTable(
                path,
                table -> {
                    int dataFiles = 0;
                    int deleteFiles = 0;
                    boolean raw = true;
                    List<Integer> levels = new ArrayList<>();
                    for (DataSplit split : table.newSnapshotReader().read().dataSplits()) {
                        split.dataFiles().forEach(f -> levels.add(f.level()));
                        dataFiles += split.dataFiles().size();
                        deleteFiles +=
                                split.deletionFiles()
                                        .map(d -> (int) d.stream().filter(f -> f != null).count())
                                        .orElse(0);
                        raw &= split.rawConvertible();
                    }
                    return new LiveFiles(dataFiles, deleteFiles, 0, levels, raw);
                });
    }

    @Override
    public List<Round> rounds(TablePath path) throws Exception {
        return withTable(
                path,
                table -> {
                    List<Round> out = new ArrayList<>();
                    for (Snapshot s : snapshots(table)) {
                        Optional<TieringSnapshotProperties> p =
                                TieringSnapshotProperties.fromProperties(s.properties());
                        if (p.isEmpty()) {
                            continue;
                        }
                        // the files this snapshot added, per bucket
                        List<DataSplit> delta =
                                table.newSnapshotReader()
                                        .withSnapshot(s.id())
                                        .withMode(ScanMode.DELTA)
                                        .read()
                                        .dataSplits();
                        out.add(new Round(s.id(), p.get(), filesPerBucket(new ArrayList<>(delta))));
                    }
                    return out;
                });
    }

    /**
     * The offsets of the newest tiering snapshot whose rows readers see. A table with deletion
     * vectors commits a round as two snapshots with the round's properties, its files at level 0
     * (which its readers skip) and then their compaction: until the second lands, the first one's
     * offsets are not in the rows a reader gets.
     */
    @Override
    public Map<Integer, Long> committedOffsets(TablePath path) throws Exception {
        return withTable(
                path,
                table -> {
                    boolean hidesLevelZero =
                            !table.primaryKeys().isEmpty()
                                    && table.coreOptions().deletionVectorsEnabled();
                    List<Snapshot> all = snapshots(table);
                    for (int i = all.size() - 1; i >= 0; i--) {
                        Snapshot s = all.get(i);
                        Optional<TieringSnapshotProperties> p =
                                TieringSnapshotProperties.fromProperties(s.properties());
                        boolean unreadable =
                                hidesLevelZero
                                        && s.commitKind() == Snapshot.CommitKind.APPEND
                                        && !table.store()
                                                .newScan()
                                                .withSnapshot(s)
                                                .withLevelFilter(level -> level == 0)
                                                .plan()
                                                .files()
                                                .isEmpty();
                        if (p.isPresent() && !unreadable) {
                            return p.get().bucketOffsets();
                        }
                    }
                    return Map.of();
                });
    }

    /** The table's snapshots not expired yet, oldest first. */
    private static List<Snapshot> snapshots(FileStoreTable table) throws Exception {
        List<Snapshot> out = new ArrayList<>();
        SnapshotManager snapshots = table.snapshotManager();
        Long earliest = snapshots.earliestSnapshotId();
        Long latest = snapshots.latestSnapshotId();
        for (long id = earliest == null ? 1 : earliest; latest != null && id <= latest; id++) {
            try {
                out.add(snapshots.tryGetSnapshot(id));
            } catch (FileNotFoundException expired) {
                // expired while listed
            }
        }
        return out;
    }

    @Override
    public List<PlacedRow> rows(TablePath path, Schema schema) throws Exception {
        return withTable(
                path,
                table -> {
                    ReadBuilder rb = table.newReadBuilder();
                    List<PlacedRow> out = new ArrayList<>();
                    int n = schema.fieldCount();
                    for (Split split : rb.newScan().plan().splits()) {
                        int lakeBucket = ((DataSplit) split).bucket();
                        try (RecordReader<InternalRow> reader = rb.newRead().createReader(split)) {
                            reader.forEachRemaining(
                                    r -> {
                                        Object[] values = new Object[n];
                                        for (int i = 0; i < n; i++) {
                                            values[i] =
                                                    r.isNullAt(i)
                                                            ? null
                                                            : PaimonLakeReader.value(schema, r, i);
                                        }
                                        out.add(
                                                new PlacedRow(
                                                        Row.wrap(values), r.getInt(n), lakeBucket));
                                    });
                        }
                    }
                    return out;
                });
    }

    @Override
    public Map<Integer, Integer> dataFilesPlannedFor(TablePath path, String column, Object value)
            throws Exception {
        return withTable(
                path,
                table -> {
                    int index = table.rowType().getFieldIndex(column);
                    return filesPerBucket(
                            table.newReadBuilder()
                                    .withFilter(
                                            new PredicateBuilder(table.rowType())
                                                    .equal(index, value))
                                    .newScan()
                                    .plan()
                                    .splits());
                });
    }

    private static Map<Integer, Integer> filesPerBucket(List<? extends Split> splits) {
        Map<Integer, Integer> out = new TreeMap<>();
        for (Split s : splits) {
            DataSplit d = (DataSplit) s;
            if (!d.dataFiles().isEmpty()) {
                out.merge(d.bucket(), d.dataFiles().size(), Integer::sum);
            }
        }
        return out;
    }
}
