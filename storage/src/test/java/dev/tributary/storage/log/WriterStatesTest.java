package dev.tributary.storage.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.CorruptDataException;
import dev.tributary.common.exception.OutOfOrderSequenceException;
import dev.tributary.common.id.TableBucket;
import org.junit.jupiter.api.Test;

class WriterStatesTest {
    private static final TableBucket BUCKET = new TableBucket(3, 1);

    private static WriterStates.Entry entry(long seq, long base, long end, long ts) {
        return new WriterStates.Entry(seq, base, end, ts, WriterStates.NONE);
    }

    @Test
    void t42_unknownWritersAndTheNextSequenceAreAcceptedTheLastIsADuplicate() {
        WriterStates s = new WriterStates(BUCKET);
        assertThat(s.check(7, 0)).isNull();
        assertThat(s.check(8, 41))
                .as("an unknown (new or expired) writer starts anywhere")
                .isNull();
        s.record(7, entry(0, 0, 5, 100));
        assertThat(s.check(7, 1)).isNull();
        assertThat(s.check(7, 0)).isEqualTo(entry(0, 0, 5, 100));
    }

    @Test
    void t42_gapsAndStaleRetriesAreRefusedWithATypedError() {
        WriterStates s = new WriterStates(BUCKET);
        s.record(7, entry(4, 10, 15, 100));
        assertThatThrownBy(() -> s.check(7, 6))
                .isInstanceOf(OutOfOrderSequenceException.class)
                .hasMessageContaining("does not follow")
                .hasMessageContaining("new writer id");
        assertThatThrownBy(() -> s.check(7, 3))
                .isInstanceOf(OutOfOrderSequenceException.class)
                .hasMessageContaining("stale retry");
    }

    @Test
    void t42_expiryForgetsWritersIdleSinceBeforeTheCutoff() {
        WriterStates s = new WriterStates(BUCKET);
        s.record(1, entry(0, 0, 1, 100));
        s.record(2, entry(0, 1, 2, 200));
        assertThat(s.expire(150)).isEqualTo(1);
        assertThat(s.get(1)).isNull();
        assertThat(s.get(2)).isNotNull();
    }

    @Test
    void encodesAndDecodesWithItsOffsetAndRefusesDamage() {
        WriterStates s = new WriterStates(BUCKET);
        s.record(-5, entry(9, 100, 104, 1_000));
        s.record(Long.MAX_VALUE, entry(0, 104, 104, 2_000));
        byte[] bytes = s.encode(104);

        WriterStates.Decoded d = WriterStates.decode(BUCKET, bytes);
        assertThat(d.offset()).isEqualTo(104);
        assertThat(d.states().get(-5)).isEqualTo(entry(9, 100, 104, 1_000));
        assertThat(d.states().get(Long.MAX_VALUE)).isEqualTo(entry(0, 104, 104, 2_000));

        bytes[10] ^= 1;
        assertThatThrownBy(() -> WriterStates.decode(BUCKET, bytes))
                .isInstanceOf(CorruptDataException.class);
    }
}
