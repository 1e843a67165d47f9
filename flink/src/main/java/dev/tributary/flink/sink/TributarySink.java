package dev.tributary.flink.sink;

import dev.tributary.client.Connection;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.row.Row;
import dev.tributary.flink.catalog.ConnectionConfig;
import dev.tributary.flink.types.RowConverter;
import java.io.IOException;
import org.apache.flink.api.connector.sink2.Sink;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.table.data.RowData;

/**
 * The Sink V2 of a Tributary table: one client writer per task, flushed at every checkpoint and at
 * the end of input, so a checkpoint completes only once every row before it is acknowledged
 * (durable on the server). Retries of a batch after an ambiguous failure go through the client's
 * writer; rows replayed after a Flink failover since the last checkpoint are written again
 * (at-least-once for log tables; idempotent for PK tables, whose upserts converge).
 */
final class TributarySink implements Sink<RowData> {
    private static final long serialVersionUID = 1L;

    private final ConnectionConfig connection;
    private final String table;
    private final boolean primaryKey;
    private final RowConverter converter;

    TributarySink(
            ConnectionConfig connection, String table, boolean primaryKey, RowConverter converter) {
        this.connection = connection;
        this.table = table;
        this.primaryKey = primaryKey;
        this.converter = converter;
    }

    @Override
    public SinkWriter<RowData> createWriter(WriterInitContext context) {
        return new Writer();
    }

    private final class Writer implements SinkWriter<RowData> {
        private final Connection conn = connection.connect();
        private final AppendWriter append =
                primaryKey ? null : conn.appendWriter(TablePath.parse(table));
        private final UpsertWriter upsert =
                primaryKey ? conn.upsertWriter(TablePath.parse(table)) : null;

        @Override
        public void write(RowData element, Context context) {
            Row row = converter.toTributary(element);
            switch (element.getRowKind()) {
                case INSERT, UPDATE_AFTER -> {
                    if (primaryKey) {
                        upsert.upsert(row);
                    } else {
                        append.append(row);
                    }
                }
                case DELETE -> {
                    if (!primaryKey) {
                        throw new InvalidInputException(
                                "log table "
                                        + table
                                        + " accepts inserts only; the query produces deletes."
                                        + " Write such results into a primary-key table");
                    }
                    upsert.delete(row);
                }
                case UPDATE_BEFORE -> {
                    // the UPDATE_AFTER that follows replaces the row
                }
            }
        }

        @Override
        public void flush(boolean endOfInput) throws IOException {
            if (primaryKey) {
                upsert.flush();
            } else {
                append.flush();
            }
        }

        @Override
        public void close() {
            try {
                if (append != null) {
                    append.close();
                }
                if (upsert != null) {
                    upsert.close();
                }
            } finally {
                conn.close();
            }
        }
    }
}
