package dev.tributary.common.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import org.junit.jupiter.api.Test;

/** T30: what a partitioned table may be, and the errors that say why not. */
class PartitionedDescriptorTest {
    private final Schema events =
            Schema.newBuilder()
                    .column("id", DataTypes.BIGINT())
                    .column("dt", DataTypes.STRING())
                    .column("day", DataTypes.DATE())
                    .column("hour", DataTypes.INT())
                    .column("ts", DataTypes.TIMESTAMP_LTZ(3))
                    .column("amount", DataTypes.DOUBLE())
                    .build();

    @Test
    void t30_partitionColumnsOfTheFourTypes() {
        TableDescriptor d =
                TableDescriptor.builder(events).partitionKeys("dt", "day", "hour").build();
        assertThat(d.isPartitioned()).isTrue();
        assertThat(d.partitionKeys()).containsExactly("dt", "day", "hour");
        TableDescriptor big =
                TableDescriptor.builder(
                                Schema.newBuilder()
                                        .column("k", DataTypes.BIGINT())
                                        .column("v", DataTypes.STRING())
                                        .build())
                        .partitionKeys("k")
                        .build();
        assertThat(big.partitionKeys()).containsExactly("k");
        assertThat(TableDescriptor.builder(events).build().isPartitioned()).isFalse();
    }

    @Test
    void t30_otherTypesUnknownColumnsAndRepeatsAreRefused() {
        assertThatThrownBy(() -> TableDescriptor.builder(events).partitionKeys("ts").build())
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("partition key 'ts'")
                .hasMessageContaining("STRING, INT, BIGINT or DATE");
        assertThatThrownBy(() -> TableDescriptor.builder(events).partitionKeys("nope").build())
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("partition key 'nope' is not a column");
        assertThatThrownBy(() -> TableDescriptor.builder(events).partitionKeys("dt", "dt").build())
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("twice");
    }

    @Test
    void t30_aPrimaryKeyMustIncludeEveryPartitionColumn() {
        Schema orders =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("dt", DataTypes.DATE())
                        .column("amount", DataTypes.DOUBLE())
                        .primaryKey("id")
                        .build();
        assertThatThrownBy(() -> TableDescriptor.builder(orders).partitionKeys("dt").build())
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("partition key 'dt' must be part of the primary key [id]")
                .hasMessageContaining("PRIMARY KEY (id, dt)");

        Schema keyed =
                Schema.newBuilder()
                        .column("id", DataTypes.BIGINT())
                        .column("dt", DataTypes.DATE())
                        .column("amount", DataTypes.DOUBLE())
                        .primaryKey("id", "dt")
                        .build();
        TableDescriptor d =
                TableDescriptor.builder(keyed).partitionKeys("dt").bucketCount(4).build();
        assertThat(d.bucketKeys())
                .as("the default bucket key is the primary key without the partition keys")
                .containsExactly("id");
    }

    @Test
    void t30_aKeyOfPartitionColumnsOnlyAndBucketingByThemAreRefused() {
        Schema onlyPartition =
                Schema.newBuilder()
                        .column("dt", DataTypes.DATE())
                        .column("amount", DataTypes.DOUBLE())
                        .primaryKey("dt")
                        .build();
        assertThatThrownBy(() -> TableDescriptor.builder(onlyPartition).partitionKeys("dt").build())
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("has only partition keys");
        assertThatThrownBy(
                        () ->
                                TableDescriptor.builder(events)
                                        .partitionKeys("dt")
                                        .bucketKeys("dt")
                                        .build())
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("bucket key 'dt' is a partition key");
        Schema one = Schema.newBuilder().column("dt", DataTypes.STRING()).build();
        assertThatThrownBy(() -> TableDescriptor.builder(one).partitionKeys("dt").build())
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("every column is a partition key");
    }

    @Test
    void partitionKeysTakePartInEqualityAndSurviveCopies() {
        TableDescriptor d = TableDescriptor.builder(events).partitionKeys("dt").build();
        assertThat(d).isNotEqualTo(TableDescriptor.builder(events).build());
        assertThat(d.withProperties(java.util.Map.of("a", "b")).partitionKeys())
                .containsExactly("dt");
        assertThat(d.withSchema(events).partitionKeys()).containsExactly("dt");
    }
}
