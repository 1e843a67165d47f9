package dev.tributary.union;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.lake.api.read.LakePredicate;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A filter prunes exactly the partitions no row of which can match it, and no others. */
class PartitionPrunerTest {
    private static final TableDescriptor TABLE =
            TableDescriptor.builder(
                            Schema.newBuilder()
                                    .column("id", DataTypes.BIGINT())
                                    .column("dt", DataTypes.DATE())
                                    .column("region", DataTypes.STRING())
                                    .build())
                    .partitionKeys("dt", "region")
                    .bucketCount(2)
                    .build();
    private static final PartitionSpec DEC1_EU = PartitionSpec.parse("dt=2026-12-01/region=eu");
    private static final PartitionSpec DEC2_EU = PartitionSpec.parse("dt=2026-12-02/region=eu");
    private static final PartitionSpec DEC1_US = PartitionSpec.parse("dt=2026-12-01/region=us");

    private static List<PartitionSpec> kept(LakePredicate filter) {
        PartitionPruner p = PartitionPruner.of(TABLE, filter);
        return List.of(DEC1_EU, DEC2_EU, DEC1_US).stream().filter(p::mayMatch).toList();
    }

    @Test
    void t40_t32_conjunctsOnPartitionColumnsPruneAndOtherColumnsKeep() {
        LocalDate dec1 = LocalDate.of(2026, 12, 1);
        assertThat(kept(null)).containsExactly(DEC1_EU, DEC2_EU, DEC1_US);
        assertThat(kept(LakePredicate.equal("dt", dec1))).containsExactly(DEC1_EU, DEC1_US);
        assertThat(
                        kept(
                                LakePredicate.and(
                                        LakePredicate.equal("dt", dec1),
                                        LakePredicate.equal("region", "eu"),
                                        LakePredicate.compare("id", LakePredicate.Op.GT, 5L))))
                .containsExactly(DEC1_EU);
        // a column that is not a partition column may match in any partition
        assertThat(kept(LakePredicate.equal("id", 1L))).hasSize(3);
        // a disjunction keeps a partition when any side may match
        assertThat(
                        kept(
                                LakePredicate.or(
                                        List.of(
                                                LakePredicate.equal("region", "us"),
                                                LakePredicate.equal("id", 1L)))))
                .hasSize(3);
        assertThat(
                        kept(
                                LakePredicate.or(
                                        List.of(
                                                LakePredicate.equal("region", "us"),
                                                LakePredicate.compare(
                                                        "dt", LakePredicate.Op.GT, dec1)))))
                .containsExactly(DEC2_EU, DEC1_US);
        assertThat(kept(new LakePredicate.Not(LakePredicate.equal("region", "eu"))))
                .containsExactly(DEC1_US);
        assertThat(kept(new LakePredicate.Not(LakePredicate.equal("id", 3L)))).hasSize(3);
    }

    @Test
    void t40_anUnpartitionedTableIsNeverPruned() {
        TableDescriptor plain =
                TableDescriptor.builder(
                                Schema.newBuilder().column("id", DataTypes.BIGINT()).build())
                        .bucketCount(1)
                        .build();
        assertThat(PartitionPruner.of(plain, LakePredicate.equal("id", 1L)).mayMatch(DEC1_EU))
                .isTrue();
    }
}
