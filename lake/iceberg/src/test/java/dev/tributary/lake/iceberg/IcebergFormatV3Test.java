package dev.tributary.lake.iceberg;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.commit.LakeCommitter;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.hadoop.HadoopCatalog;
import org.apache.iceberg.io.CloseableIterable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PK table with a nanosecond timestamp is a format v3 table, where row-level deletes within a
 * split are deletion vectors instead of position delete files.
 */
class IcebergFormatV3Test {
    @TempDir Path warehouse;

    @Test
    void T8_pkTableWithNanosecondTimestampsUsesV3AndDeletionVectors() throws Exception {
        TablePath path = TablePath.of("db", "nanos");
        TableDescriptor table =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.INT())
                                        .column("at", DataTypes.TIMESTAMP(9))
                                        .primaryKey("id")
                                        .build())
                        .build();
        LocalDateTime t1 = LocalDateTime.of(2026, 1, 1, 0, 0, 0, 123_456_789);
        LocalDateTime t2 = t1.plusNanos(1);
        try (LakeStorage storage =
                new IcebergLakeStoragePlugin()
                        .createLakeStorage(
                                Configuration.fromMap(Map.of("warehouse", warehouse.toString())))) {
            storage.catalog().createTable(path, table);
            LakeWriteResult r1;
            try (LakeWriter w =
                    storage.createWriter(new LakeWriterContext(path, 1, table, 0, 1, 1))) {
                w.write(Row.of(1, t1), ChangeType.INSERT, 0, 0, 0);
                w.write(Row.of(2, t1), ChangeType.INSERT, 0, 1, 0);
                w.write(Row.of(1, t1), ChangeType.UPDATE_BEFORE, 0, 2, 0);
                w.write(Row.of(1, t2), ChangeType.UPDATE_AFTER, 0, 3, 0);
                r1 = w.complete();
            }
            LakeWriteResult r2;
            try (LakeCommitter c = storage.createCommitter(path)) {
                c.commit(List.of(r1), TieringSnapshotProperties.of(1, 1, 1, Map.of(0, 4L)));
                try (LakeWriter w =
                        storage.createWriter(new LakeWriterContext(path, 1, table, 0, 2, 2))) {
                    w.write(Row.of(2, t1), ChangeType.DELETE, 0, 4, 0);
                    w.write(Row.of(3, t2), ChangeType.INSERT, 0, 5, 0);
                    r2 = w.complete();
                }
                c.commit(List.of(r2), TieringSnapshotProperties.of(1, 2, 2, Map.of(0, 6L)));
            }
        }
        Table t =
                new HadoopCatalog(
                                new org.apache.hadoop.conf.Configuration(),
                                warehouse.toUri().toString())
                        .loadTable(TableIdentifier.of("db", "nanos"));
        assertThat(TableUtil.formatVersion(t)).isEqualTo(3);
        List<String> rows = new ArrayList<>();
        try (CloseableIterable<Record> records = IcebergGenerics.read(t).build()) {
            for (Record r : records) {
                rows.add(r.get(0) + "@" + r.get(1) + "#" + r.get(3));
            }
        }
        assertThat(rows).containsExactlyInAnyOrder("1@" + t2 + "#3", "3@" + t2 + "#5");
    }
}
