package dev.tributary.storage;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.PartitionSpec;
import dev.tributary.common.io.BinaryWriter;
import dev.tributary.common.record.PartitionRouter;
import dev.tributary.common.record.WriteBatch;
import java.util.Arrays;

/**
 * Refuses a record whose partition columns do not hold its partition's values (T30): the store, the
 * KV state and the lake partition the record is tiered into must agree, so a batch with one such
 * record is refused before anything of it is written. Compares the encoded projection of the
 * partition columns with the partition's own encoding, without decoding rows.
 */
final class PartitionCheck {
    private final PartitionRouter router;
    private final PartitionSpec spec;
    private final int[] positions;
    private final byte[] expected;

    PartitionCheck(PartitionRouter router, PartitionSpec spec) {
        this.router = router;
        this.spec = router.normalize(spec);
        this.positions = router.positions();
        this.expected = router.encode(this.spec);
    }

    PartitionSpec spec() {
        return spec;
    }

    /**
     * @param scratch reset and reused; its contents are undefined afterwards
     */
    void check(WriteBatch.Reader r, BinaryWriter scratch, long tableId) {
        scratch.reset();
        r.writeProjection(positions, scratch);
        int n = scratch.position();
        if (n == expected.length
                && Arrays.equals(scratch.buffer(), 0, n, expected, 0, expected.length)) {
            return;
        }
        throw new InvalidInputException(
                "record "
                        + r.index()
                        + " of the write batch for table "
                        + tableId
                        + " belongs to partition "
                        + router.decode(scratch.buffer(), n).name()
                        + ", not to "
                        + spec.name()
                        + "; route rows with PartitionRouter");
    }
}
