package dev.tributary.tiering.soak;

import dev.tributary.client.Connection;
import dev.tributary.client.lookup.Lookuper;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Lookups of the primary-key table while faults happen (T50): every 100 ms a batch of random keys
 * through the soak's client connection. Each row a lookup returns must be the row of the key asked
 * for, and the audit checks that its upsert ({@code op-<n>}) is in the table's changelog at the end
 * ({@link StoreAudit}): a lookup never sees a write that a failover later takes back. Lookups may
 * fail while a bucket has no leader; failures are counted, not problems.
 */
public final class SoakLookups implements AutoCloseable {
    private static final int KEYS_PER_LOOKUP = 20;

    private final Lookuper lookuper;
    private final Random random;
    private final BitSet seen = new BitSet();
    private final List<String> problems = new ArrayList<>();
    private final Map<String, Integer> failures = new ConcurrentHashMap<>();
    private final ScheduledExecutorService thread =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread t = new Thread(r, "soak-lookups");
                        t.setDaemon(true);
                        return t;
                    });
    private long rowsAnswered;
    private long lookups;

    public SoakLookups(Connection conn, TablePath pkTable, long seed) {
        this.lookuper = conn.lookuper(pkTable);
        this.random = new Random(seed);
    }

    public void start() {
        thread.scheduleWithFixedDelay(this::lookUp, 0, 100, TimeUnit.MILLISECONDS);
    }

    private void lookUp() {
        List<Row> keys = new ArrayList<>(KEYS_PER_LOOKUP);
        for (int i = 0; i < KEYS_PER_LOOKUP; i++) {
            keys.add(Row.of((long) random.nextInt(SoakWriters.PK_KEYS)));
        }
        List<Optional<Row>> rows;
        try {
            rows = lookuper.lookupAll(keys);
        } catch (RuntimeException e) {
            failures.merge(e.getClass().getSimpleName(), 1, Integer::sum);
            return;
        }
        synchronized (this) {
            lookups++;
            for (int i = 0; i < keys.size(); i++) {
                if (rows.get(i).isEmpty()) {
                    continue;
                }
                rowsAnswered++;
                Row row = rows.get(i).get();
                Object asked = keys.get(i).getField(0);
                String name = String.valueOf(row.getField(1));
                if (!asked.equals(row.getField(0)) || !name.startsWith("op-")) {
                    problem("a lookup of key " + asked + " returned " + row);
                    continue;
                }
                try {
                    seen.set(Integer.parseInt(name.substring("op-".length())));
                } catch (NumberFormatException | IndexOutOfBoundsException e) {
                    problem("a lookup of key " + asked + " returned " + row);
                }
            }
        }
    }

    private void problem(String p) {
        if (problems.size() < 50) {
            problems.add(p);
        }
    }

    /** Stops looking up; waits for a lookup in flight. */
    public void stop() throws InterruptedException {
        thread.shutdown();
        thread.awaitTermination(2, TimeUnit.MINUTES);
    }

    /** The upserts ({@code op-<n>}) lookups returned. */
    public synchronized BitSet seen() {
        return (BitSet) seen.clone();
    }

    /** Rows returned that could not have been written to the key asked for. */
    public synchronized List<String> problems() {
        return List.copyOf(problems);
    }

    /** One line: lookups answered, rows returned, failed lookups by error. */
    public synchronized String summary() {
        return String.format(
                "lookups during faults: %d answered (%d rows, %d distinct upserts), failed %s",
                lookups, rowsAnswered, seen.cardinality(), new java.util.TreeMap<>(failures));
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
