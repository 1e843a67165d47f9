package dev.tributary.cli.command;

import dev.tributary.client.write.WriteResult;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What {@code tributary write --op-column} did: upserts, deletes, and the deletes whose key had no
 * row, as the server reported each one (a delete of an absent key writes nothing; it is counted,
 * not an error). Counted as acknowledgements arrive, so nothing is kept per row.
 */
final class WriteCounts {
    private final AtomicLong upserts = new AtomicLong();
    private final AtomicLong deletes = new AtomicLong();
    private final AtomicLong absent = new AtomicLong();

    void upsert() {
        upserts.incrementAndGet();
    }

    void delete(CompletableFuture<WriteResult> ack) {
        deletes.incrementAndGet();
        ack.thenAccept(
                r -> {
                    if (r.keyWasAbsent()) {
                        absent.incrementAndGet();
                    }
                });
    }

    long upserts() {
        return upserts.get();
    }

    long deletes() {
        return deletes.get();
    }

    long absentDeletes() {
        return absent.get();
    }

    /** After the writer's flush, when every acknowledgement has arrived. */
    String describe() {
        return upserts()
                + " upserts, "
                + deletes()
                + " deletes ("
                + absentDeletes()
                + " of them found no row)";
    }
}
