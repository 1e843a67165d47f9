package dev.tributary.flink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.flink.source.UnionEnumeratorState;
import dev.tributary.flink.source.UnionSplit;
import dev.tributary.flink.source.UnionSplitSerializer;
import dev.tributary.union.BucketReadState;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Splits and the enumerator's checkpoint cross Flink checkpoints: their bytes round-trip. */
class UnionStateSerializersTest {
    @Test
    void splitsAndEnumeratorStateRoundTrip() throws Exception {
        UnionSplit a = new UnionSplit(BucketReadState.start(0, 3, 100, 250, true));
        UnionSplit b =
                new UnionSplit(
                        new BucketReadState(
                                -1,
                                null,
                                7,
                                -1,
                                0,
                                0,
                                10,
                                false,
                                BucketReadState.Phase.STORE,
                                0,
                                4));
        // T32: a partitioned table's split carries its partition across a checkpoint
        UnionSplit c = new UnionSplit(BucketReadState.start(12, "dt=2026-12-01", 7, 3, 5, 9, true));
        UnionSplitSerializer s = UnionSplitSerializer.INSTANCE;
        assertThat(s.deserialize(s.getVersion(), s.serialize(a))).isEqualTo(a);
        assertThat(s.deserialize(s.getVersion(), s.serialize(b)).splitId()).isEqualTo("bucket-7");
        assertThat(s.deserialize(s.getVersion(), s.serialize(c))).isEqualTo(c);
        assertThat(c.splitId()).isEqualTo("partition-12-bucket-7");

        UnionEnumeratorState state = new UnionEnumeratorState(true, List.of(a, b, c));
        UnionEnumeratorState.Serializer es = UnionEnumeratorState.Serializer.INSTANCE;
        assertThat(es.deserialize(es.getVersion(), es.serialize(state))).isEqualTo(state);
        UnionEnumeratorState empty = new UnionEnumeratorState(false, List.of());
        assertThat(es.deserialize(es.getVersion(), es.serialize(empty))).isEqualTo(empty);
        // T32: a streaming read of a partitioned table remembers the partitions it planned
        UnionEnumeratorState discovering =
                new UnionEnumeratorState(true, true, java.util.Set.of(12L, 3L), List.of(c));
        assertThat(es.deserialize(es.getVersion(), es.serialize(discovering)))
                .isEqualTo(discovering);
    }
}
