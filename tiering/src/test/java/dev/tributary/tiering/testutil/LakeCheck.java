package dev.tributary.tiering.testutil;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.scan.RecordIterator;
import dev.tributary.client.tiering.TieringGateway;
import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.LogRecord;
import dev.tributary.common.types.Schema;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.read.LakeReader;
import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.paimon.Snapshot;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;
import org.apache.paimon.table.source.DataSplit;
import org.apache.paimon.table.source.Split;
import org.apache.paimon.utils.SnapshotManager;

/**
 * Reads what tiering left in a warehouse with the formats' own APIs: the tiering properties of the
 * snapshots, the data files on disk and the live ones, and the lake compared with the store by
 * {@link ExactlyOnceVerifier}.
 */
public final class LakeCheck {
    private final File warehouse;
    private final String format;
    private final long seed;

    /** A Paimon warehouse. */
    public LakeCheck(File warehouse, long seed) {
        this(warehouse, "paimon", seed);
    }

    public LakeCheck(File warehouse, String format, long seed) {
        this.warehouse = warehouse;
        this.format = format;
        this.seed = seed;
    }

    private LakeStorage lake() {
        return LakeStoragePlugins.open(
                new Configuration()
                        .setString("datalake.format", format)
                        .setString(
                                "datalake." + format + ".warehouse", warehouse.toURI().toString()));
    }

    /** The lake rows as the format's own reader returns them (deletes applied). */
    public List<PaimonLakeReader.LakeRow> rows(TablePath path, Schema schema) throws Exception {
        return format.equals("iceberg")
                ? IcebergLakeReader.read(warehouse, path, schema)
                : PaimonLakeReader.read(warehouse, path, schema);
    }

    /** The tiering properties of every snapshot of the table, oldest first. */
    public List<TieringSnapshotProperties> tieringSnapshots(TablePath path) {
        return format.equals("iceberg")
                ? icebergTieringSnapshots(path)
                : paimonTieringSnapshots(path);
    }

    private List<TieringSnapshotProperties> paimonTieringSnapshots(TablePath path) {
        List<TieringSnapshotProperties> out = new ArrayList<>();
        try (Catalog catalog = catalog()) {
            FileStoreTable table =
                    (FileStoreTable)
                            catalog.getTable(Identifier.create(path.database(), path.table()));
            SnapshotManager snapshots = table.snapshotManager();
            Long earliest = snapshots.earliestSnapshotId();
            Long latest = snapshots.latestSnapshotId();
            if (earliest == null || latest == null) {
                return out;
            }
            for (long id = earliest; id <= latest; id++) {
                Snapshot s;
                try {
                    s = snapshots.tryGetSnapshot(id);
                } catch (FileNotFoundException expired) {
                    continue;
                }
                Optional<TieringSnapshotProperties> p =
                        TieringSnapshotProperties.fromProperties(s.properties());
                p.ifPresent(out::add);
            }
        } catch (Exception e) {
            throw new IllegalStateException("reading the snapshots of " + path + " failed", e);
        }
        return out;
    }

    private List<TieringSnapshotProperties> icebergTieringSnapshots(TablePath path) {
        List<TieringSnapshotProperties> out = new ArrayList<>();
        try (HadoopCatalog catalog = icebergCatalog()) {
            org.apache.iceberg.Table table =
                    catalog.loadTable(TableIdentifier.of(path.database(), path.table()));
            List<org.apache.iceberg.Snapshot> all = new ArrayList<>();
            table.snapshots().forEach(all::add);
            all.sort(
                    java.util.Comparator.comparingLong(
                            org.apache.iceberg.Snapshot::sequenceNumber));
            for (org.apache.iceberg.Snapshot s : all) {
                TieringSnapshotProperties.fromProperties(s.summary()).ifPresent(out::add);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /**
     * Names of the data (and delete) files in the table's directories, committed or not: what
     * writers have put on disk so far.
     */
    public Set<String> filesOnDisk(TablePath path) {
        Path table = tableDir(path);
        Path data = format.equals("iceberg") ? table.resolve("data") : table;
        if (!Files.isDirectory(data)) {
            return Set.of();
        }
        Set<String> out = new TreeSet<>();
        try (Stream<Path> files = Files.walk(data)) {
            files.filter(Files::isRegularFile)
                    .filter(f -> format.equals("iceberg") || isPaimonBucketFile(table, f))
                    .map(f -> f.getFileName().toString())
                    .filter(n -> !n.startsWith(".")) // Hadoop's checksum files
                    .forEach(out::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** Total size of {@link #filesOnDisk}. */
    public long bytesOnDisk(TablePath path) {
        Path table = tableDir(path);
        Path data = format.equals("iceberg") ? table.resolve("data") : table;
        if (!Files.isDirectory(data)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(data)) {
            return files.filter(Files::isRegularFile)
                    .filter(f -> format.equals("iceberg") || isPaimonBucketFile(table, f))
                    .filter(f -> !f.getFileName().toString().startsWith("."))
                    .mapToLong(
                            f -> {
                                try {
                                    return Files.size(f);
                                } catch (IOException e) {
                                    throw new UncheckedIOException(e);
                                }
                            })
                    .sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static boolean isPaimonBucketFile(Path table, Path file) {
        // unpartitioned: bucket-N/file; partitioned: dt=.../bucket-N/file
        Path parent = table.relativize(file).getParent();
        return parent != null && parent.getFileName().toString().startsWith("bucket-");
    }

    private Path tableDir(TablePath path) {
        return format.equals("iceberg")
                ? warehouse.toPath().resolve(path.database()).resolve(path.table())
                : warehouse.toPath().resolve(path.database() + ".db").resolve(path.table());
    }

    /** Names of the data (and delete) files the table's latest snapshot reads. */
    public Set<String> liveFiles(TablePath path) {
        Set<String> out = new TreeSet<>();
        if (format.equals("iceberg")) {
            try (HadoopCatalog catalog = icebergCatalog()) {
                org.apache.iceberg.Table table =
                        catalog.loadTable(TableIdentifier.of(path.database(), path.table()));
                try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
                    for (FileScanTask t : tasks) {
                        out.add(name(t.file().location()));
                        t.deletes().forEach(d -> out.add(name(d.location())));
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return out;
        }
        try (Catalog catalog = catalog()) {
            Table table = catalog.getTable(Identifier.create(path.database(), path.table()));
            for (Split split : table.newReadBuilder().newScan().plan().splits()) {
                for (DataFileMeta f : ((DataSplit) split).dataFiles()) {
                    out.add(f.fileName());
                }
            }
        } catch (Exception e) {
            throw new IllegalStateException("planning a scan of " + path + " failed", e);
        }
        return out;
    }

    private static String name(String location) {
        return location.substring(location.lastIndexOf('/') + 1);
    }

    private HadoopCatalog icebergCatalog() {
        return new HadoopCatalog(
                new org.apache.hadoop.conf.Configuration(), warehouse.toURI().toString());
    }

    private Catalog catalog() {
        Options options =
                Options.fromMap(
                        Map.of(
                                "warehouse",
                                warehouse.toURI().toString(),
                                "cache-enabled",
                                "false"));
        return CatalogFactory.createCatalog(CatalogContext.create(options));
    }

    /** The tiered offset of every bucket according to the newest tiering snapshot. */
    public Map<Integer, Long> committedOffsets(TablePath path) {
        try (LakeStorage lake = lake()) {
            if (!lake.catalog().tableExists(path)) {
                return Map.of();
            }
            try (LakeCommitter c = lake.createCommitter(path)) {
                return c.latestTieringSnapshot()
                        .<Map<Integer, Long>>map(s -> s.properties().bucketOffsets())
                        .orElse(Map.of());
            }
        }
    }

    /**
     * The tiered offset of every bucket according to the newest tiering snapshot whose rows readers
     * see (the union read's choice, T40). A deletion-vector table commits a round as two snapshots,
     * its files at level 0 (which readers skip) and then their compaction, both with the round's
     * properties: the first one's offsets are not yet in the rows a reader gets.
     */
    public Map<Integer, Long> readableOffsets(TablePath path, long tableId) {
        try (LakeStorage lake = lake()) {
            if (!lake.catalog().tableExists(path)) {
                return Map.of();
            }
            try (LakeReader r = lake.createReader(path)) {
                return r.latestTieringSnapshot(tableId)
                        .<Map<Integer, Long>>map(s -> s.properties().bucketOffsets())
                        .orElse(Map.of());
            }
        } catch (Exception e) {
            throw new IllegalStateException("reading the tiering snapshots of " + path, e);
        }
    }

    /**
     * Waits until the lake holds every bucket up to the store's end offsets in rows its readers
     * see, then checks exactly once: every log record once, a PK table equal to its changelog's
     * state.
     *
     * @return the number of lake rows checked
     */
    public int verifyCaughtUp(Connection conn, TableInfo t, Duration atMost) throws Exception {
        TieringGateway gateway = conn.tieringGateway();
        Map<Integer, Long> ends = gateway.endOffsets(t.tableId());
        Map<Integer, Long>[] committed = new Map[1];
        await().atMost(atMost)
                .pollInterval(Duration.ofMillis(250))
                .untilAsserted(
                        () -> {
                            committed[0] = readableOffsets(t.path(), t.tableId());
                            for (Map.Entry<Integer, Long> e : ends.entrySet()) {
                                assertThat(committed[0].getOrDefault(e.getKey(), 0L))
                                        .as("%s bucket %d (seed %d)", t.path(), e.getKey(), seed)
                                        .isEqualTo(e.getValue());
                            }
                        });
        Map<Integer, List<LogRecord>> records = new HashMap<>();
        for (Map.Entry<Integer, Long> e : ends.entrySet()) {
            List<LogRecord> list = new ArrayList<>();
            try (RecordIterator it =
                    gateway.readLog(
                            new TableBucket(t.tableId(), e.getKey()),
                            0,
                            e.getValue(),
                            t.schema())) {
                it.forEachRemaining(list::add);
            }
            records.put(e.getKey(), list);
        }
        return ExactlyOnceVerifier.verify(
                records, committed[0], t.path(), t.descriptor(), rows(t.path(), t.schema()));
    }
}
