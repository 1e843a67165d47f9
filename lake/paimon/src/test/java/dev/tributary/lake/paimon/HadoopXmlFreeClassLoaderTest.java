package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.LakeStoragePlugins;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.paimon.io.DataFileMeta;
import org.apache.paimon.table.sink.CommitMessage;
import org.apache.paimon.table.sink.CommitMessageImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HadoopXmlFreeClassLoaderTest {
    @TempDir Path warehouse;

    @Test
    void hidesHadoopXmlButLoadsEverythingElseThroughTheParent() throws Exception {
        ClassLoader parent = getClass().getClassLoader();
        HadoopXmlFreeClassLoader loader = new HadoopXmlFreeClassLoader(parent);

        assertThat(parent.getResource("core-default.xml")).isNotNull();
        assertThat(loader.getResource("core-default.xml")).isNull();
        assertThat(loader.getResource("core-site.xml")).isNull();
        assertThat(loader.getResourceAsStream("core-default.xml")).isNull();
        assertThat(loader.getResource("META-INF/services/dev.tributary.lake.api.LakeStoragePlugin"))
                .isEqualTo(
                        parent.getResource(
                                "META-INF/services/dev.tributary.lake.api.LakeStoragePlugin"));
        assertThat(loader.loadClass(PaimonLakeWriter.class.getName()))
                .isSameAs(PaimonLakeWriter.class);
    }

    @Test
    void hadoopConfigurationsCreatedInsideSkipTheXmlAndTheContextLoaderIsRestored() {
        Thread thread = Thread.currentThread();
        ClassLoader before = thread.getContextClassLoader();
        HadoopXmlFreeClassLoader loader = new HadoopXmlFreeClassLoader(before);

        // core-default.xml sets fs.defaultFS; a Configuration that did not parse it has no value
        assertThat(new org.apache.hadoop.conf.Configuration().get("fs.defaultFS")).isNotNull();
        String inside =
                HadoopXmlFreeClassLoader.callWith(
                        loader,
                        () -> new org.apache.hadoop.conf.Configuration().get("fs.defaultFS"));
        assertThat(inside).isNull();
        assertThat(thread.getContextClassLoader()).isSameAs(before);

        assertThatThrownBy(
                        () ->
                                HadoopXmlFreeClassLoader.callWith(
                                        loader,
                                        () -> {
                                            throw new IllegalStateException("boom");
                                        }))
                .hasMessage("boom");
        assertThat(thread.getContextClassLoader()).isSameAs(before);
        assertThat(HadoopXmlFreeClassLoader.callWith(null, thread::getContextClassLoader))
                .isSameAs(before);
    }

    /** The statistics Paimon re-reads from the file footer are still there and right. */
    @Test
    void filesWrittenByTheTieringWriterStillCarryKeyAndValueStatistics() {
        Schema schema =
                Schema.of(
                        List.of(
                                new Column("id", DataTypes.BIGINT(), null),
                                new Column("name", DataTypes.STRING(), null),
                                new Column("amount", DataTypes.INT(), null)),
                        List.of("id"));
        TableDescriptor table = TableDescriptor.builder(schema).bucketCount(1).build();
        TablePath path = TablePath.of("db", "stats");
        Configuration conf = Configuration.fromMap(Map.of("warehouse", warehouse.toString()));
        try (LakeStorage lake = LakeStoragePlugins.find("paimon").createLakeStorage(conf)) {
            lake.catalog().createTable(path, table);
            LakeWriteResult result;
            try (LakeWriter w = lake.createWriter(new LakeWriterContext(path, 7, table, 0, 1, 1))) {
                for (long id = 0; id < 1000; id++) {
                    w.write(
                            Row.of(id, id % 10 == 0 ? null : "n" + id, (int) (id * 3)),
                            ChangeType.INSERT,
                            0,
                            id,
                            1_000L + id);
                }
                result = w.complete();
            }
            List<CommitMessage> messages;
            try (org.apache.paimon.catalog.Catalog paimon =
                    org.apache.paimon.catalog.CatalogFactory.createCatalog(
                            org.apache.paimon.catalog.CatalogContext.create(
                                    org.apache.paimon.options.Options.fromMap(
                                            Map.of("warehouse", warehouse.toString()))))) {
                messages =
                        PaimonCommitMessages.decode(
                                result.payload(), PaimonLakeStorage.loadTable(paimon, path));
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            assertThat(messages).hasSize(1);
            List<DataFileMeta> files =
                    ((CommitMessageImpl) messages.get(0)).newFilesIncrement().newFiles();
            assertThat(files).hasSize(1);
            DataFileMeta file = files.get(0);
            assertThat(file.rowCount()).isEqualTo(1000);
            assertThat(file.keyStats().minValues().getLong(0)).isZero();
            assertThat(file.keyStats().maxValues().getLong(0)).isEqualTo(999);
            // value columns: id, name, amount, then the system columns
            assertThat(file.valueStats().minValues().getLong(0)).isZero();
            assertThat(file.valueStats().maxValues().getLong(0)).isEqualTo(999);
            assertThat(file.valueStats().minValues().getInt(2)).isZero();
            assertThat(file.valueStats().maxValues().getInt(2)).isEqualTo(2997);
            assertThat(file.valueStats().nullCounts().getLong(1)).isEqualTo(100);
        }
    }
}
