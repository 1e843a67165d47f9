package dev.tributary.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableAlteration;
import dev.tributary.client.lookup.Lookuper;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.DataTypes;
import dev.tributary.common.types.Schema;
import dev.tributary.common.types.TableDescriptor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * T36 through the real server and client: a new table gets the server's lake format's bucket
 * function, the client routes and looks up with it and the store accepts it; it is refused where
 * the format cannot bucket a lake table's key, cannot be altered, and survives a restart under a
 * server configured for another format.
 */
class BucketFunctionITCase {
    private static final Schema CUSTOMERS =
            Schema.newBuilder()
                    .column("id", DataTypes.STRING())
                    .column("name", DataTypes.STRING())
                    .column("visits", DataTypes.INT())
                    .primaryKey("id")
                    .build();

    @TempDir Path dir;

    @Test
    void t36_theFunctionIsChosenAtCreateUsedByClientAndStoreAndNeverChanges() throws Exception {
        TablePath customers = TablePath.of("shop", "customers");
        try (TributaryServer server = TestServers.start(dir, Map.of("datalake.format", "iceberg"));
                Connection conn = Connection.open(server.rpcTarget())) {
            conn.admin().createDatabase("shop", false);
            conn.admin()
                    .createTable(
                            customers,
                            TableDescriptor.builder(CUSTOMERS).bucketCount(12).build(),
                            false);
            assertThat(conn.admin().describeTable(customers).descriptor().properties())
                    .containsEntry("table.bucket.function", "iceberg");
            upsertAndLookUp(conn, customers, 0);

            Schema composite =
                    Schema.newBuilder()
                            .column("a", DataTypes.INT())
                            .column("b", DataTypes.STRING())
                            .primaryKey("a", "b")
                            .build();
            assertThatThrownBy(
                            () ->
                                    conn.admin()
                                            .createTable(
                                                    TablePath.of("shop", "pairs"),
                                                    TableDescriptor.builder(composite)
                                                            .property(
                                                                    "table.datalake.enabled",
                                                                    "true")
                                                            .build(),
                                                    false))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("[a, b]")
                    .hasMessageContaining("table.bucket.function=tributary");
            assertThat(conn.admin().listTables("shop")).containsExactly("customers");
            // IF NOT EXISTS of an existing table answers with it, even for a descriptor the
            // server would refuse now
            Schema compositeCustomers =
                    Schema.newBuilder()
                            .column("id", DataTypes.STRING())
                            .column("name", DataTypes.STRING())
                            .primaryKey("id", "name")
                            .build();
            assertThat(
                            conn.admin()
                                    .createTable(
                                            customers,
                                            TableDescriptor.builder(compositeCustomers)
                                                    .property("table.datalake.enabled", "true")
                                                    .build(),
                                            true)
                                    .descriptor()
                                    .bucketKeys())
                    .containsExactly("id");

            assertThatThrownBy(
                            () ->
                                    conn.admin()
                                            .alterTable(
                                                    customers,
                                                    TableAlteration.create()
                                                            .setProperty(
                                                                    "table.bucket.function",
                                                                    "paimon")))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("cannot be changed from 'iceberg' to 'paimon'");
        }
        // the function is the table's, not the server's: a server tiering into Paimon keeps it
        try (TributaryServer server = TestServers.start(dir, Map.of("datalake.format", "paimon"));
                Connection conn = Connection.open(server.rpcTarget())) {
            assertThat(conn.admin().describeTable(customers).descriptor().properties())
                    .containsEntry("table.bucket.function", "iceberg");
            upsertAndLookUp(conn, customers, 1);
        }
    }

    /** Writes 500 keys through the client's router (the store checks each) and reads them back. */
    private static void upsertAndLookUp(Connection conn, TablePath path, int visits)
            throws Exception {
        List<CompletableFuture<?>> acks = new ArrayList<>();
        try (UpsertWriter w = conn.upsertWriter(path)) {
            for (int i = 0; i < 500; i++) {
                acks.add(w.upsert(Row.of("customer-" + i + "-ü", "n" + i, visits)));
            }
            w.flush();
        }
        CompletableFuture.allOf(acks.toArray(new CompletableFuture[0])).get();
        Lookuper lookuper = conn.lookuper(path);
        for (int i = 0; i < 500; i += 7) {
            Optional<Row> row = lookuper.lookup(Row.of("customer-" + i + "-ü"));
            assertThat(row).contains(Row.of("customer-" + i + "-ü", "n" + i, visits));
        }
    }
}
