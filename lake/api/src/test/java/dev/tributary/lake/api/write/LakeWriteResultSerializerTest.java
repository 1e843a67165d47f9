package dev.tributary.lake.api.write;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.TablePath;
import java.util.List;
import org.junit.jupiter.api.Test;

class LakeWriteResultSerializerTest {
    private final LakeWriteResultSerializer serializer = LakeWriteResultSerializer.INSTANCE;

    @Test
    void roundTripsEveryField() {
        LakeWriteResult r =
                new LakeWriteResult(
                        "paimon",
                        TablePath.of("shop", "orders"),
                        42,
                        7,
                        3,
                        5,
                        1000,
                        List.of("file:/w/a.parquet", "file:/w/b.parquet"),
                        123456,
                        -5,
                        99,
                        new byte[] {1, 2, 3});
        LakeWriteResult back = serializer.deserialize(serializer.serialize(r));
        assertThat(back).isEqualTo(r);
        assertThat(back.minTimestampMillis()).hasValue(-5);
        assertThat(back.maxTimestampMillis()).hasValue(99);
        assertThat(back.payload()).containsExactly(1, 2, 3);
    }

    @Test
    void roundTripsAnEmptyResult() {
        LakeWriteResult r =
                new LakeWriteResult(
                        "iceberg",
                        TablePath.of("a", "b"),
                        1,
                        2,
                        3,
                        0,
                        0,
                        List.of(),
                        0,
                        0,
                        0,
                        new byte[0]);
        LakeWriteResult back = serializer.deserialize(serializer.serialize(r));
        assertThat(back).isEqualTo(r);
        assertThat(back.isEmpty()).isTrue();
        assertThat(back.minTimestampMillis()).isEmpty();
    }

    @Test
    void rejectsUnknownVersionAndGarbage() {
        byte[] bytes =
                serializer.serialize(
                        new LakeWriteResult(
                                "paimon",
                                TablePath.of("a", "b"),
                                1,
                                2,
                                3,
                                0,
                                0,
                                List.of(),
                                0,
                                0,
                                0,
                                new byte[0]));
        bytes[1] = 9;
        assertThatThrownBy(() -> serializer.deserialize(bytes))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("version 9");
        assertThatThrownBy(() -> serializer.deserialize(new byte[] {1, 2}))
                .isInstanceOf(CorruptDataException.class);
        byte[] truncated = java.util.Arrays.copyOf(bytes, bytes.length - 3);
        truncated[1] = 1;
        assertThatThrownBy(() -> serializer.deserialize(truncated))
                .isInstanceOf(CorruptDataException.class);
    }
}
