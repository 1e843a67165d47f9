package dev.tributary.tiering.process;

import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.admin.TableTieringStatus;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.Schema;
import dev.tributary.tiering.testutil.TestSchemas;

/** The two lake tables of the process tests: a log table and a PK table. */
final class ShopTables {
    static final TablePath CLICKS = TablePath.of("shop", "clicks");
    static final TablePath CUSTOMERS = TablePath.of("shop", "customers");

    static final Schema LOG_SCHEMA = TestSchemas.LOG;
    static final Schema PK_SCHEMA = TestSchemas.PK;

    /** Rounds start a freshness apart and are force-finished after one (T13). */
    static final String FRESHNESS = "2s";

    final TableInfo clicks;
    final TableInfo customers;

    private ShopTables(TableInfo clicks, TableInfo customers) {
        this.clicks = clicks;
        this.customers = customers;
    }

    static ShopTables create(TieringServer server) {
        return new ShopTables(
                server.createLakeTable(CLICKS, LOG_SCHEMA, 4, FRESHNESS),
                server.createLakeTable(CUSTOMERS, PK_SCHEMA, 3, FRESHNESS));
    }

    /**
     * True when {@code jobId} holds the table's current round and that round has not committed: the
     * table is TIERING under the job, and the last finished round (if any) is of an older epoch.
     */
    static boolean heldUncommittedBy(TableTieringStatus s, String jobId) {
        return "TIERING".equals(s.state())
                && s.jobId().filter(jobId::equals).isPresent()
                && s.lastRound().map(r -> r.epoch() < s.epoch()).orElse(true);
    }
}
