package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.commit.LakeCommitResult;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import dev.tributary.lake.iceberg.testing.InterleavingS3FileIO;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole lake contract with the warehouse on S3-compatible object storage (a real s3proxy
 * server) behind Iceberg's REST catalog server (T45, T46): Tributary's writes go through Iceberg's
 * S3FileIO, its commits through the REST catalog, which checks each commit's requirements. Each
 * test starts from an empty catalog and an empty warehouse ({@link IcebergS3Lake}).
 */
class IcebergS3RestCatalogLakeTieringTest extends IcebergLakeTieringTest {
    @RegisterExtension static final IcebergS3Lake LAKE = IcebergS3Lake.withRestCatalog();

    private static final long TABLE_ID = 7;

    @Override
    protected Map<String, String> catalogProperties() {
        return LAKE.catalogProperties();
    }

    @Override
    protected String warehouseLocation() {
        return LAKE.warehouseLocation();
    }

    @Override
    protected Path warehouseDir() {
        return LAKE.warehouseDir();
    }

    /**
     * A second Tributary storage whose commits let another committer in before they reach the
     * catalog.
     */
    private LakeStorage interleavedStorage() {
        Map<String, String> conf = new HashMap<>(catalogProperties());
        conf.put("warehouse", warehouseLocation());
        conf.put("io-impl", InterleavingS3FileIO.class.getName());
        return LakeStoragePlugins.find("iceberg").createLakeStorage(Configuration.fromMap(conf));
    }

    /** One split of bucket 0 with offsets [from, to), written as the tiering job writes it. */
    private LakeWriteResult split(
            TablePath path, TableDescriptor table, long round, long from, long to) {
        try (LakeWriter w =
                storage.createWriter(new LakeWriterContext(path, TABLE_ID, table, 0, 1, round))) {
            for (long i = from; i < to; i++) {
                w.write(Row.of(i, "row-" + i), ChangeType.APPEND_ONLY, 0, i, BASE_TS + i);
            }
            return w.complete();
        }
    }

    private static TieringSnapshotProperties round(long round, long offset) {
        return TieringSnapshotProperties.of(TABLE_ID, 1, round, Map.of(0, offset));
    }

    private Map<Long, Long> offsetsInLake(TablePath path) throws Exception {
        return readWithFormatReader(path).stream()
                .collect(Collectors.groupingBy(r -> (Long) r.getField(3), Collectors.counting()));
    }

    @Test
    void t46_aStaleCommitOfARoundAnotherCommitterCommittedIsRefusedAndNothingIsDuplicated()
            throws Exception {
        TablePath path = TablePath.of("db", "stale");
        TableDescriptor table = logTable(1);
        storage.catalog().createTable(path, table);
        LakeWriteResult first = split(path, table, 1, 0, 5);
        assertThat(commit(path, List.of(first), TABLE_ID, 1, 1, Map.of(0, 5L)).outcome())
                .isEqualTo(LakeCommitResult.Outcome.COMMITTED);

        // round 2 written twice: by this committer and by another one (a retried attempt)
        LakeWriteResult mine = split(path, table, 2, 5, 10);
        LakeWriteResult theirs = split(path, table, 2, 5, 10);
        long[] theirSnapshot = new long[1];
        try (LakeStorage stale = interleavedStorage();
                LakeCommitter c = stale.createCommitter(path)) {
            // after this committer read the table, the other commits round 2 through the catalog
            InterleavingS3FileIO.beforeNextManifestList(
                    () -> {
                        LakeCommitResult r =
                                commit(path, List.of(theirs), TABLE_ID, 1, 2, Map.of(0, 10L));
                        assertThat(r.outcome()).isEqualTo(LakeCommitResult.Outcome.COMMITTED);
                        theirSnapshot[0] = r.snapshotId();
                    });
            // the catalog refuses the commit based on the old version; Iceberg's retry on the
            // new version finds round 2 there and gives up: typed, retriable
            assertThatThrownBy(() -> c.commit(List.of(mine), round(2, 10)))
                    .isInstanceOf(RetriableException.class)
                    .hasMessageContaining("changed concurrently while committing round 2")
                    .hasMessageContaining("committing again is safe");
            assertThat(theirSnapshot[0]).as("the other committer went in between").isNotZero();

            LakeCommitResult again = c.commit(List.of(mine), round(2, 10));
            assertThat(again.outcome()).isEqualTo(LakeCommitResult.Outcome.ALREADY_COMMITTED);
            assertThat(again.snapshotId()).isEqualTo(theirSnapshot[0]);
            // the refused attempt's file is referenced by no snapshot: the sweep lists it
            assertThat(
                            c.deleteOrphanFiles(
                                    OrphanPolicy.olderThan(Instant.parse("2999-01-01T00:00:00Z"))))
                    .hasSize(1);
        }
        Map<Long, Long> offsets = offsetsInLake(path);
        assertThat(offsets).hasSize(10);
        assertThat(offsets.values()).as("every offset once").containsOnly(1L);
        assertThat(dataFilesOnDisk(path))
                .as("the bucket holds the two committed rounds' files only")
                .hasSize(2);
    }

    @Test
    void t46_aCommitMadeStaleByAnotherEnginesCommitIsRefusedByTheCatalogAndRebased()
            throws Exception {
        TablePath path = TablePath.of("db", "rebased");
        TableDescriptor table = logTable(1);
        storage.catalog().createTable(path, table);
        LakeWriteResult first = split(path, table, 1, 0, 5);
        commit(path, List.of(first), TABLE_ID, 1, 1, Map.of(0, 5L));

        LakeWriteResult second = split(path, table, 2, 5, 10);
        long[] foreign = new long[1];
        LakeCommitResult result;
        try (LakeStorage stale = interleavedStorage();
                LakeCommitter c = stale.createCommitter(path)) {
            // another engine commits a snapshot of its own (no tiering properties) in between
            InterleavingS3FileIO.beforeNextManifestList(
                    () -> {
                        try {
                            foreign[0] =
                                    IcebergNativeCatalog.withTable(
                                            catalogProperties(),
                                            warehouseLocation(),
                                            TableIdentifier.of("db", "rebased"),
                                            t -> {
                                                t.newAppend().set("engine", "other").commit();
                                                return t.currentSnapshot().snapshotId();
                                            });
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
            result = c.commit(List.of(second), round(2, 10));
        }
        assertThat(result.outcome()).isEqualTo(LakeCommitResult.Outcome.COMMITTED);
        Snapshot committed =
                IcebergNativeCatalog.withTable(
                        catalogProperties(),
                        warehouseLocation(),
                        TableIdentifier.of("db", "rebased"),
                        t -> t.snapshot(result.snapshotId()));
        assertThat(committed.parentId())
                .as("the attempt based on the old version was refused, the retry is on the new one")
                .isEqualTo(foreign[0]);
        assertThat(offsetsInLake(path).values()).hasSize(10).containsOnly(1L);
    }
}
