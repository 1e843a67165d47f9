package dev.tributary.common.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.row.BucketFunction;
import dev.tributary.common.row.BucketFunctionType;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.util.List;
import org.junit.jupiter.api.Test;

class BucketRouterTest {
    @Test
    void primaryKeyTablesRouteByTheKeyHash() {
        Schema s =
                Schema.newBuilder()
                        .column("k", DataTypes.INT())
                        .column("v", DataTypes.STRING())
                        .primaryKey("k")
                        .build();
        TableDescriptor d = TableDescriptor.builder(s).bucketCount(8).build();
        BucketRouter router = BucketRouter.of(d);
        BucketFunction f = BucketFunction.of(BucketFunctionType.TRIBUTARY, s, List.of("k"), 8);
        assertThat(router.routesByKey()).isTrue();
        for (int k = 0; k < 200; k++) {
            // a delete carries only the key: it must land where the upsert did
            assertThat(router.bucketOf(Row.of(k, null)))
                    .isEqualTo(router.bucketOf(Row.of(k, "x" + k)))
                    .isEqualTo(f.bucketOf(Row.of(k, "y")));
        }
    }

    @Test
    void logTablesWithoutBucketKeySpreadBatchesRoundRobin() {
        Schema s = Schema.newBuilder().column("v", DataTypes.STRING()).build();
        BucketRouter router = BucketRouter.of(TableDescriptor.builder(s).bucketCount(3).build());
        assertThat(router.routesByKey()).isFalse();
        assertThat(
                        List.of(
                                router.nextBucket(),
                                router.nextBucket(),
                                router.nextBucket(),
                                router.nextBucket()))
                .containsExactly(0, 1, 2, 0);
        assertThatThrownBy(() -> router.bucketOf(Row.of("a")))
                .isInstanceOf(IllegalStateException.class);
    }
}
