package dev.tributary.lake.paimon;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.config.Secrets;
import dev.tributary.common.exception.InvalidConfigException;
import dev.tributary.common.exception.NotFoundException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStorageOptions;
import dev.tributary.lake.api.catalog.LakeCatalog;
import dev.tributary.lake.api.catalog.LakeSchemaDiff;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.io.ObjectStoreRequests;
import dev.tributary.lake.api.maintenance.CompactionTask;
import dev.tributary.lake.api.maintenance.LakeCompactor;
import dev.tributary.lake.api.maintenance.LakeMaintainer;
import dev.tributary.lake.api.read.LakeReader;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.io.IOException;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.paimon.catalog.Catalog;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.catalog.CatalogFactory;
import org.apache.paimon.catalog.Identifier;
import org.apache.paimon.fs.FileIO;
import org.apache.paimon.fs.Path;
import org.apache.paimon.options.Options;
import org.apache.paimon.table.FileStoreTable;
import org.apache.paimon.table.Table;

/** A Paimon warehouse opened through Paimon's own catalog factory. */
final class PaimonLakeStorage implements LakeStorage {
    /** The catalog tables are several, so several openers can lose a race more than once. */
    private static final int CATALOG_OPEN_ATTEMPTS = 4;

    private static final Set<String> TABLE_EXISTS_STATES = Set.of("42P07", "42710", "42S01");

    private final Catalog catalog;
    private final PaimonLakeCatalog lakeCatalog;

    PaimonLakeStorage(Configuration conf) {
        String warehouse =
                conf.getOptional(LakeStorageOptions.WAREHOUSE)
                        .orElseThrow(
                                () ->
                                        new InvalidConfigException(
                                                "'datalake.paimon.warehouse' is not set: give the"
                                                        + " Paimon warehouse directory or URI"));
        Map<String, String> options = new LinkedHashMap<>();
        // a cached schema would hide changes made by other engines until the cache expires
        options.put("cache-enabled", "false");
        options.putAll(LakeStorageOptions.catalogOptions(conf));
        options.put("warehouse", LakeStorageOptions.warehouseUri(warehouse));
        options = PaimonCommitSafety.check(options, warehouse, isObjectStore(options, warehouse));
        this.catalog = openCatalog(options);
        this.lakeCatalog = new PaimonLakeCatalog(catalog, LakeStorageOptions.tableOptions(conf));
    }

    /**
     * Opens the catalog, again if it lost a race to create the catalog's tables: the first
     * processes to open a JDBC catalog on a fresh database create its tables (one by one), and
     * Paimon does not guard the creation; once the winner committed a table, the next open finds
     * it. Any other failure (a wrong URI, credentials) is not retried.
     */
    private static Catalog openCatalog(Map<String, String> options) {
        RuntimeException failure = null;
        for (int attempt = 0; attempt < CATALOG_OPEN_ATTEMPTS; attempt++) {
            try {
                return CatalogFactory.createCatalog(CountingFileIOLoader.context(options));
            } catch (RuntimeException e) {
                if (failure != null) {
                    e.addSuppressed(failure);
                }
                failure = e;
                if (!lostTheCreationRace(e)) {
                    break;
                }
            }
        }
        throw new InvalidConfigException(
                "cannot open the Paimon catalog with options "
                        + Secrets.redact(options)
                        + ": "
                        + failure.getMessage(),
                failure);
    }

    /**
     * Whether the database refused a catalog table as already there: a unique key violated (SQL
     * state class 23) or the table or its row type existing (PostgreSQL 42P07 and 42710, MySQL
     * 42S01); PostgreSQL answers two concurrent creations with any of these.
     */
    private static boolean lostTheCreationRace(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException) {
                String state = ((SQLException) t).getSQLState();
                if (state != null
                        && (state.startsWith("23") || TABLE_EXISTS_STATES.contains(state))) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether the warehouse is on an object store: Paimon's own file IO for its scheme says so (the
     * S3 plugin, OSS, ...), or the scheme is one of the stores Hadoop reaches (s3a, gs, abfs, ...),
     * whose Hadoop file IO does not say. A REST catalog's warehouse is a catalog name, not a
     * location.
     */
    private static boolean isObjectStore(Map<String, String> options, String warehouse) {
        if (!PaimonCommitSafety.warehouseIsAPath(options)) {
            return false;
        }
        String uri = options.get("warehouse");
        try (FileIO io =
                FileIO.get(new Path(uri), CatalogContext.create(Options.fromMap(options)))) {
            return io.isObjectStore() || PaimonCommitSafety.isObjectStoreScheme(uri);
        } catch (IOException | RuntimeException e) {
            throw new InvalidConfigException(
                    "no Paimon file IO opens the warehouse '"
                            + warehouse
                            + "' with options "
                            + Secrets.redact(options)
                            + ": "
                            + e.getMessage()
                            + " (for S3 use an s3:// URI; the file IO is Paimon's S3 plugin)",
                    e);
        }
    }

    @Override
    public String identifier() {
        return PaimonLakeStoragePlugin.IDENTIFIER;
    }

    @Override
    public LakeCatalog catalog() {
        return lakeCatalog;
    }

    @Override
    public LakeWriter createWriter(LakeWriterContext context) {
        FileStoreTable table = loadTable(catalog, context.tablePath());
        PaimonLakeCatalog.checkMatches(
                table, context.tablePath(), context.table(), LakeSchemaDiff.Mode.COMPATIBLE);
        return new PaimonLakeWriter(
                table.copy(PaimonSchemas.writerOptions(context, table)), context);
    }

    @Override
    public LakeCommitter createCommitter(TablePath tablePath) {
        loadTable(catalog, tablePath);
        return new PaimonLakeCommitter(catalog, tablePath);
    }

    @Override
    public LakeMaintainer createMaintainer(TablePath tablePath) {
        loadTable(catalog, tablePath);
        return new PaimonMaintainer(catalog, tablePath);
    }

    @Override
    public LakeCompactor createCompactor(CompactionTask task) {
        FileStoreTable table = loadTable(catalog, task.tablePath());
        PaimonLakeCatalog.checkMatches(
                table, task.tablePath(), task.table(), LakeSchemaDiff.Mode.COMPATIBLE);
        return new PaimonCompactor(table, task);
    }

    @Override
    public LakeReader createReader(TablePath tablePath) {
        loadTable(catalog, tablePath);
        return new PaimonTableReader(catalog, tablePath);
    }

    static Identifier identifier(TablePath path) {
        return Identifier.create(path.database(), path.table());
    }

    static FileStoreTable loadTable(Catalog catalog, TablePath path) {
        try {
            Table t = catalog.getTable(identifier(path));
            if (!(t instanceof FileStoreTable fst)) {
                throw new StorageException(
                        "Paimon table '"
                                + path
                                + "' is a "
                                + t.getClass().getSimpleName()
                                + ", not a file store table Tributary can tier into");
            }
            ObjectStoreRequests.global().registerTable(path, fst.location().toString());
            return fst;
        } catch (Catalog.TableNotExistException e) {
            throw new NotFoundException(
                    "Paimon lake table '"
                            + path
                            + "' does not exist; create it with LakeCatalog.createTable",
                    e);
        }
    }

    @Override
    public void close() {
        try {
            catalog.close();
        } catch (Exception e) {
            throw new StorageException("closing the Paimon catalog failed: " + e.getMessage(), e);
        }
    }
}
