package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.StorageException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import dev.tributary.lake.iceberg.testing.FaultyFileIO;
import dev.tributary.lake.iceberg.testing.FaultyFileIO.Fault;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T23 and T47 for Iceberg's own metadata: a tiering commit that fails on the lake's storage after
 * it wrote a manifest (its manifest list cannot be written, and neither can Iceberg delete what it
 * wrote) leaves that manifest under the metadata location, where no snapshot references it. Named
 * with the attempt's tag, the next round's orphan cleanup deletes it; a metadata file without our
 * tag (another engine's commit in flight, the catalog's files) is never deleted, whatever its age.
 */
class IcebergCommitFaultTest {
    private static final long TABLE_ID = 7;

    @TempDir Path warehouse;
    private LakeStorage storage;

    @BeforeEach
    void open() {
        storage = FaultyFileIO.lakeStorage(warehouse);
    }

    @AfterEach
    void close() {
        FaultyFileIO.heal();
        storage.close();
    }

    @Test
    void t23_t47_theManifestsOfACommitThatFailedOnStorageGoAtTheNextRoundsCleanup()
            throws Exception {
        TablePath path = TablePath.of("db", "commit_fault");
        TableDescriptor d =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.INT().notNull())
                                        .column("name", DataTypes.STRING())
                                        .build())
                        .bucketCount(1)
                        .build();
        storage.catalog().createTable(path, d);
        Path metadata = warehouse.resolve("db").resolve("commit_fault").resolve("metadata");
        Path otherEngines = Files.writeString(metadata.resolve("other-engine-m0.avro"), "x");

        // the commit's first metadata file (a manifest) is written, its second (the manifest
        // list) cannot be, and no metadata file can be deleted
        FaultyFileIO.fail("/commit_fault/metadata/", Fault.CREATE, 2);
        FaultyFileIO.failDeletes();
        try (LakeCommitter c = storage.createCommitter(path)) {
            LakeWriteResult first = write(path, d, 1);
            assertThatThrownBy(
                            () ->
                                    c.commit(
                                            List.of(first),
                                            TieringSnapshotProperties.of(
                                                    TABLE_ID, 1, 1, Map.of(0, 10L))))
                    .isInstanceOf(StorageException.class);
        }
        assertThat(FaultyFileIO.faults()).as("the manifest list was refused").isPositive();
        FaultyFileIO.heal();
        List<String> leftover = ourAvroFiles(metadata);
        assertThat(leftover)
                .as("the failed commit's manifest, named by its attempt")
                .singleElement()
                .asString()
                .contains("tributary-t7-e1-");

        try (LakeCommitter c = storage.createCommitter(path)) {
            assertThat(c.listOrphanFiles(new OrphanPolicy(Instant.EPOCH, TABLE_ID, 0)))
                    .as("attempt 1 is not known dead yet")
                    .isEmpty();
            c.commit(
                    List.of(write(path, d, 2)),
                    TieringSnapshotProperties.of(TABLE_ID, 2, 1, Map.of(0, 10L)));
            List<String> deleted =
                    c.deleteOrphanFiles(
                            new OrphanPolicy(Instant.now().plusSeconds(60), TABLE_ID, 2));
            assertThat(deleted.stream().filter(f -> f.contains("/metadata/")))
                    .as("of the metadata location, only the failed commit's manifest")
                    .singleElement()
                    .asString()
                    .endsWith(leftover.get(0));
            assertThat(
                            c.listOrphanFiles(
                                    new OrphanPolicy(Instant.now().plusSeconds(60), TABLE_ID, 2)))
                    .isEmpty();
        }
        assertThat(ourAvroFiles(metadata))
                .as("the committed round's manifest and manifest list, both tagged")
                .hasSize(2)
                .allMatch(f -> f.contains("tributary-t7-e2-"));
        assertThat(otherEngines).exists();
    }

    private LakeWriteResult write(TablePath path, TableDescriptor d, long epoch) {
        try (LakeWriter w =
                storage.createWriter(new LakeWriterContext(path, TABLE_ID, d, 0, epoch, 1))) {
            for (int i = 0; i < 10; i++) {
                w.write(Row.of(i, "n" + i), ChangeType.APPEND_ONLY, 0, i, 1_000L + i);
            }
            return w.complete();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** The Avro files under {@code dir} but the one another engine left there. */
    private static List<String> ourAvroFiles(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".avro") && !n.startsWith("other-engine"))
                    .sorted()
                    .toList();
        }
    }
}
