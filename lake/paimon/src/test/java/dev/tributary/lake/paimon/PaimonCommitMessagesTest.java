package dev.tributary.lake.paimon;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.ChangeType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.LakeStorage;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriter;
import dev.tributary.lake.api.write.LakeWriterContext;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.paimon.table.sink.CommitMessage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PaimonCommitMessagesTest {
    @TempDir Path warehouse;

    @Test
    void payloadRoundTripsRealCommitMessagesAndRejectsOtherVersions() {
        TablePath path = TablePath.of("db", "t");
        TableDescriptor table =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("id", DataTypes.INT())
                                        .primaryKey("id")
                                        .build())
                        .bucketCount(2)
                        .build();
        try (LakeStorage storage =
                new PaimonLakeStoragePlugin()
                        .createLakeStorage(
                                Configuration.fromMap(Map.of("warehouse", warehouse.toString())))) {
            storage.catalog().createTable(path, table);
            LakeWriteResult result;
            try (LakeWriter w =
                    storage.createWriter(new LakeWriterContext(path, 1, table, 0, 1, 1))) {
                for (int i = 0; i < 10; i++) {
                    w.write(Row.of(i), ChangeType.INSERT, 0, i, 0);
                }
                result = w.complete();
            }
            List<CommitMessage> messages = PaimonCommitMessages.decode(result.payload());
            assertThat(messages).isNotEmpty();
            assertThat(PaimonCommitMessages.decode(PaimonCommitMessages.encode(messages)))
                    .isEqualTo(messages);

            byte[] future = result.payload();
            future[0] = 2;
            assertThatThrownBy(() -> PaimonCommitMessages.decode(future))
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining("version 2");
        }
    }
}
