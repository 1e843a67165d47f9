package dev.tributary.union;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.id.TableBucket;
import java.util.Random;
import org.junit.jupiter.api.Test;

class BucketReadStateSerializerTest {
    @Test
    void everyPhaseRoundTrips() {
        long seed = new Random().nextLong();
        Random r = new Random(seed);
        for (BucketReadState.Phase phase : BucketReadState.Phase.values()) {
            boolean partitioned = r.nextBoolean();
            BucketReadState s =
                    new BucketReadState(
                            partitioned ? r.nextInt(10_000) : TableBucket.NO_PARTITION,
                            partitioned ? "dt=2026-12-0" + r.nextInt(10) + "/region=%C3%A9u" : null,
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
    void t40_version1BytesReadAsABucketOfAnUnpartitionedTable() throws Exception {
        // the layout a checkpoint taken before partitions existed holds
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(bytes)) {
            out.writeInt(3);
            out.writeLong(7);
            out.writeLong(0);
            out.writeLong(40);
            out.writeLong(90);
            out.writeBoolean(true);
            out.writeByte(BucketReadState.Phase.STORE.ordinal());
            out.writeLong(0);
            out.writeLong(55);
        }
        assertThat(BucketReadStateSerializer.INSTANCE.deserialize(1, bytes.toByteArray()))
                .isEqualTo(
                        new BucketReadState(
                                TableBucket.NO_PARTITION,
                                null,
                                3,
                                7,
                                0,
                                40,
                                90,
                                true,
                                BucketReadState.Phase.STORE,
                                0,
                                55));
    }

    @Test
    void t32_aPartitionedBucketNeedsItsPartitionsIdAndName() {
        assertThatThrownBy(() -> BucketReadState.start(5, null, 0, -1, 0, 0, false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(
                        () ->
                                BucketReadState.start(
                                        TableBucket.NO_PARTITION, "dt=x", 0, -1, 0, 0, false))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(BucketReadState.start(5, "dt=x", 2, -1, 0, 0, false).describe())
                .isEqualTo("dt=x/2");
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
