package dev.tributary.lake.api.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.TablePath;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.lake.api.write.LakeWriteResult;
import dev.tributary.lake.api.write.LakeWriteResultSerializer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LakeCompactionResultSerializerTest {

    @Test
    void roundTripsEveryFieldAndRefusesWhatIsNotACompactionResult() {
        LakeCompactionResult r =
                new LakeCompactionResult(
                        "paimon",
                        TablePath.of("db", "t"),
                        7,
                        3_000_000_002L,
                        -1,
                        6,
                        6_000,
                        1,
                        5_500,
                        List.of("/w/a.parquet"),
                        new byte[] {1, 2, 3});
        byte[] wire = LakeCompactionResultSerializer.INSTANCE.serialize(r);
        assertThat(LakeCompactionResultSerializer.INSTANCE.deserialize(wire)).isEqualTo(r);
        LakeCompactionResult empty =
                LakeCompactionResult.empty("iceberg", TablePath.of("db", "t"), 7, 1, 0);
        assertThat(empty.isEmpty()).isTrue();
        assertThat(
                        LakeCompactionResultSerializer.INSTANCE.deserialize(
                                LakeCompactionResultSerializer.INSTANCE.serialize(empty)))
                .isEqualTo(empty);

        byte[] writeResult =
                LakeWriteResultSerializer.INSTANCE.serialize(
                        new LakeWriteResult(
                                "paimon",
                                TablePath.of("db", "t"),
                                7,
                                1,
                                1,
                                0,
                                0,
                                List.of(),
                                0,
                                0,
                                0,
                                new byte[0]));
        assertThatThrownBy(() -> LakeCompactionResultSerializer.INSTANCE.deserialize(writeResult))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("not a serialized lake compaction result");
    }

    @Test
    void t21_compactionSnapshotPropertiesAreNeverTakenForTieringOnes() {
        Map<String, String> props =
                MaintenanceSnapshotProperties.compaction(7, 3_000_000_002L).toProperties();
        assertThat(TieringSnapshotProperties.fromProperties(props)).isEmpty();
        assertThat(MaintenanceSnapshotProperties.fromProperties(props))
                .contains(MaintenanceSnapshotProperties.compaction(7, 3_000_000_002L));
        assertThat(
                        MaintenanceSnapshotProperties.fromProperties(
                                TieringSnapshotProperties.of(7, 1, 1, Map.of(0, 5L))
                                        .toProperties()))
                .isEmpty();
    }
}
