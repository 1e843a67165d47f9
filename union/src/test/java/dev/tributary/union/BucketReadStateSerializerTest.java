package dev.tributary.union;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BucketReadStateSerializerTest {
    @Test
    void everyPhaseRoundTrips() {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        for (BucketReadState.Phase phase : BucketReadState.Phase.values()) {
            BucketReadState s =
                    new BucketReadState(
                            r.nextInt(1024),
                            r.nextBoolean() ? -1 : r.nextInt(1000),
                            r.nextInt(1000),
                            r.nextInt(100_000),
                            100_000 + r.nextInt(100_000),
                            r.nextBoolean(),
                            phase,
                            r.nextInt(5000),
                            r.nextInt(200_000));
            byte[] bytes = BucketReadStateSerializer.INSTANCE.serialize(s);
            assertThat(
                            BucketReadStateSerializer.INSTANCE.deserialize(
                                    BucketReadStateSerializer.VERSION, bytes))
                    .as("seed %d", seed)
                    .isEqualTo(s);
        }
    }

    @Test
    void unknownVersionsAndGarbageAreCorruptData() {
        byte[] bytes =
                BucketReadStateSerializer.INSTANCE.serialize(
                        BucketReadState.start(1, 5, 10, 20, false));
        assertThatThrownBy(() -> BucketReadStateSerializer.INSTANCE.deserialize(99, bytes))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("99");
        assertThatThrownBy(
                        () ->
                                BucketReadStateSerializer.INSTANCE.deserialize(
                                        BucketReadStateSerializer.VERSION, new byte[] {1, 2}))
                .isInstanceOf(CorruptDataException.class);
    }
}
