package dev.tributary.cli.demo;

import dev.tributary.client.Connection;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.row.Row;
import dev.tributary.common.time.Clock;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A steady shop workload: clicks and orders appended, customers upserted and sometimes deleted.
 * {@link #tick} writes one slice of it; the caller decides how often (the demo: every 100 ms), so
 * this class holds no thread.
 */
public final class DemoWorkload implements AutoCloseable {
    private static final String[] URLS = {
        "/", "/search", "/product/42", "/product/7", "/cart", "/checkout", "/account", "/help"
    };
    private static final String[] CITIES = {
        "Berlin", "Lisbon", "Oslo", "Porto", "Kyoto", "Austin", "Lyon", "Quito"
    };
    private static final int CUSTOMER_KEYS = 5_000;

    private final Clock clock;
    private final Random random;
    private final int clicksPerTick;
    private final int ordersPerTick;
    private final int customersPerTick;
    private final AppendWriter clicks;
    private final AppendWriter orders;
    private final UpsertWriter customers;

    private final AtomicLong clicksWritten = new AtomicLong();
    private final AtomicLong ordersWritten = new AtomicLong();
    private final AtomicLong upserts = new AtomicLong();
    private final AtomicLong deletes = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    private long nextOrderId;

    /**
     * @param rowsPerTick rows per tick over all three tables (clicks get 60%, orders 20%, customers
     *     20%)
     */
    public DemoWorkload(Connection conn, Clock clock, long seed, int rowsPerTick) {
        this.clock = clock;
        this.random = new Random(seed);
        this.clicksPerTick = Math.max(1, rowsPerTick * 6 / 10);
        this.ordersPerTick = Math.max(1, rowsPerTick * 2 / 10);
        this.customersPerTick = Math.max(1, rowsPerTick * 2 / 10);
        this.clicks = conn.appendWriter(DemoTables.CLICKS);
        this.orders = conn.appendWriter(DemoTables.ORDERS);
        this.customers = conn.upsertWriter(DemoTables.CUSTOMERS);
    }

    /** Writes one slice; acknowledgements are counted as they arrive. */
    public synchronized void tick() {
        long now = clock.currentTimeMillis();
        for (int i = 0; i < clicksPerTick; i++) {
            long user = random.nextInt(CUSTOMER_KEYS);
            count(
                    clicks.append(Row.of(user, URLS[random.nextInt(URLS.length)], now)),
                    clicksWritten);
        }
        for (int i = 0; i < ordersPerTick; i++) {
            Row order =
                    Row.of(
                            nextOrderId++,
                            (long) random.nextInt(CUSTOMER_KEYS),
                            random.nextInt(50_000),
                            now,
                            DemoTables.day(now));
            count(orders.append(order), ordersWritten);
        }
        for (int i = 0; i < customersPerTick; i++) {
            long id = random.nextInt(CUSTOMER_KEYS);
            Row c = Row.of(id, "customer-" + id, CITIES[random.nextInt(CITIES.length)], now);
            // one change in ten removes a customer; later upserts bring some back
            if (random.nextInt(10) == 0) {
                count(customers.delete(c), deletes);
            } else {
                count(customers.upsert(c), upserts);
            }
        }
    }

    private void count(java.util.concurrent.CompletableFuture<?> ack, AtomicLong counter) {
        ack.whenComplete(
                (r, e) -> {
                    if (e == null) {
                        counter.incrementAndGet();
                    } else {
                        failed.incrementAndGet();
                        firstFailure.compareAndSet(null, e);
                    }
                });
    }

    public long clicksWritten() {
        return clicksWritten.get();
    }

    public long ordersWritten() {
        return ordersWritten.get();
    }

    public long customerUpserts() {
        return upserts.get();
    }

    public long customerDeletes() {
        return deletes.get();
    }

    public long failedWrites() {
        return failed.get();
    }

    public Throwable firstFailure() {
        return firstFailure.get();
    }

    /** Flushes what is buffered and closes the writers. */
    @Override
    public synchronized void close() {
        try {
            clicks.flush();
            orders.flush();
            customers.flush();
        } finally {
            clicks.close();
            orders.close();
            customers.close();
        }
    }
}
