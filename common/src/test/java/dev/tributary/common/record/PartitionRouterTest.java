package dev.tributary.common.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.time.LocalDate;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** T30: a row's partition, names that read back to the same values, and canonical forms. */
class PartitionRouterTest {
    private final TableDescriptor table =
            TableDescriptor.builder(
                            Schema.newBuilder()
                                    .column("id", DataTypes.BIGINT())
                                    .column("region", DataTypes.STRING())
                                    .column("day", DataTypes.DATE())
                                    .column("hour", DataTypes.INT())
                                    .build())
                    .partitionKeys("day", "region", "hour")
                    .build();
    private final PartitionRouter router = PartitionRouter.of(table);

    @Test
    void t30_aRowsPartitionIsItsValuesInKeyOrder() {
        PartitionSpec p = router.partitionOf(Row.of(1L, "eu", LocalDate.of(2026, 12, 1), 7));
        assertThat(p.name()).isEqualTo("day=2026-12-01/region=eu/hour=7");
        assertThat(p.keys()).containsExactly("day", "region", "hour");
        assertThat(router.values(p)).containsExactly(LocalDate.of(2026, 12, 1), "eu", 7);
    }

    @Test
    void t30_namedPartitionsAreCheckedAndMadeCanonical() {
        PartitionSpec given = PartitionSpec.parse("hour=007,region=eu,day=2026-12-01");
        assertThat(router.normalize(given).name()).isEqualTo("day=2026-12-01/region=eu/hour=7");
        assertThatThrownBy(() -> router.normalize(PartitionSpec.parse("day=2026-12-01")))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("must name exactly the partition keys [day, region, hour]");
        assertThatThrownBy(
                        () ->
                                router.normalize(
                                        PartitionSpec.parse("day=2026-13-01/region=eu/hour=1")))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("is not a DATE (yyyy-MM-dd)");
        assertThatThrownBy(
                        () ->
                                router.normalize(
                                        PartitionSpec.parse("day=2026-12-01/region=eu/hour=x")))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("'x' of 'hour' is not a INT");
        assertThatThrownBy(() -> PartitionSpec.parse("nonsense"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("key=value");
    }

    @Test
    void t30_nullOrEmptyPartitionValuesAreRefused() {
        assertThatThrownBy(() -> router.partitionOf(Row.of(1L, null, LocalDate.of(2026, 1, 1), 1)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("partition column 'region' is NULL");
        assertThatThrownBy(() -> router.partitionOf(Row.of(1L, "", LocalDate.of(2026, 1, 1), 1)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("empty string");
    }

    @Test
    void namesOfAnyStringReadBackToTheSameValues() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        for (int i = 0; i < 2_000; i++) {
            StringBuilder s = new StringBuilder();
            int n = 1 + random.nextInt(12);
            for (int j = 0; j < n; j++) {
                s.appendCodePoint(
                        random.nextInt(4) == 0
                                ? 0x20 + random.nextInt(0x60)
                                : random.nextBoolean()
                                        ? 0x1F600 + random.nextInt(40)
                                        : 0xA0 + random.nextInt(0x700));
            }
            PartitionSpec p = PartitionSpec.of(List.of("k=/%"), List.of(s.toString()));
            PartitionSpec back = PartitionSpec.parse(p.name());
            assertThat(back.values()).as("seed %s", seed).containsExactly(s.toString());
            assertThat(back.keys()).as("seed %s", seed).containsExactly("k=/%");
            assertThat(p.name()).as("one path segment per key").doesNotContain("/", ",");
        }
    }

    @Test
    void theEncodingIsWhatTheStoreSeesForARecordOfThePartition() {
        Row row = Row.of(9L, "us", LocalDate.of(2027, 2, 3), 23);
        PartitionSpec p = router.partitionOf(row);
        WriteBatch batch = WriteBatch.builder(1, 0, 1, table.schema()).append(row).build();
        WriteBatch.Reader r = batch.reader(table.schema());
        r.next();
        BinaryWriter w = new BinaryWriter(32);
        r.writeProjection(router.positions(), w);
        assertThat(java.util.Arrays.copyOf(w.buffer(), w.position())).isEqualTo(router.encode(p));
        assertThat(router.decode(w.buffer(), w.position())).isEqualTo(p);
    }
}
