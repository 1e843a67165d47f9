package dev.tributary.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tributary.cli.input.ChangeOp;
import dev.tributary.cli.input.CsvLine;
import dev.tributary.cli.input.ValueParser;
import dev.tributary.cli.output.Progress;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.client.write.AppendWriter;
import dev.tributary.client.write.UpsertWriter;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.TributaryException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.record.WriteKind;
import dev.tributary.common.row.Row;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.Schema;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Loads CSV or JSON lines into a table: appends to a log table, upserts into a primary-key table,
 * or, with {@code --op-column}, upserts and deletes as each line says. A bad line stops the load
 * with its line number; every line before it is written.
 */
@Command(
        name = "write",
        mixinStandardHelpOptions = true,
        description = {
            "Writes CSV or JSON lines from stdin or a file into a table.",
            "Log tables get appends, primary-key tables upserts; with --op-column each line of a"
                    + " primary-key table says +I/+U (upsert) or -D (delete). Shows progress on"
                    + " stderr and the final counts on stdout."
        })
public final class WriteCommand implements Callable<Integer> {
    enum Format {
        csv,
        json
    }

    @Mixin ConnectionOptions connection;
    @Spec CommandSpec spec;

    @Parameters(paramLabel = "DB.TABLE", description = "Table path.")
    String table;

    @Option(
            names = {"-f", "--file"},
            description = "Input file (default: stdin).")
    Path file;

    @Option(
            names = "--format",
            defaultValue = "csv",
            description = "csv or json (one object per line), default ${DEFAULT-VALUE}.")
    Format format;

    @Option(
            names = "--header",
            description = "The first CSV line names the columns (else columns are positional).")
    boolean header;

    @Option(names = "--delimiter", defaultValue = ",", description = "CSV separator character.")
    char delimiter;

    @Option(names = "--quiet", description = "No progress output.")
    boolean quiet;

    @Option(
            names = "--op-column",
            paramLabel = "NAME",
            description =
                    "Primary-key tables: the CSV column (needs --header) or JSON field NAME holds"
                            + " each line's change: +I, +U, -D (or insert, update, upsert,"
                            + " delete). A delete needs only the key columns; deleting a key"
                            + " that has no row changes nothing and is counted.")
    String opColumn;

    @Override
    public Integer call() throws IOException {
        TablePath path = TablePath.parse(table);
        try (Connection c = connection.connect();
                BufferedReader in =
                        file == null
                                ? new BufferedReader(
                                        new InputStreamReader(System.in, StandardCharsets.UTF_8))
                                : Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            TableInfo info = c.admin().describeTable(path);
            checkOpColumn(info);
            Progress progress = new Progress(spec.commandLine().getErr(), quiet);
            long written;
            WriteCounts counts = new WriteCounts();
            if (info.hasPrimaryKey()) {
                try (UpsertWriter w = c.upsertWriter(path)) {
                    written =
                            load(
                                    in,
                                    info.schema(),
                                    (kind, row) -> {
                                        if (kind == WriteKind.DELETE) {
                                            counts.delete(w.delete(row));
                                        } else {
                                            counts.upsert();
                                            w.upsert(row);
                                        }
                                    },
                                    progress);
                    w.flush();
                }
            } else {
                try (AppendWriter w = c.appendWriter(path)) {
                    written = load(in, info.schema(), (kind, row) -> w.append(row), progress);
                    w.flush();
                }
            }
            progress.done(written);
            spec.commandLine()
                    .getOut()
                    .println(
                            "wrote "
                                    + written
                                    + " rows to "
                                    + path
                                    + (opColumn == null ? "" : ": " + counts.describe()));
        }
        return 0;
    }

    private void checkOpColumn(TableInfo info) {
        if (opColumn == null) {
            return;
        }
        if (!info.hasPrimaryKey()) {
            throw new InvalidInputException(
                    "--op-column needs a primary-key table; "
                            + info.path()
                            + " is a log table, whose rows are only ever appended (leave out"
                            + " --op-column)");
        }
        if (info.schema().columnNames().contains(opColumn)) {
            throw new InvalidInputException(
                    "--op-column '"
                            + opColumn
                            + "' is a column of "
                            + info.path()
                            + "; name the input's op column something else");
        }
        if (format == Format.csv && !header) {
            throw new InvalidInputException(
                    "--op-column with CSV needs --header: the op column is found by its name");
        }
    }

    /** Where a parsed line goes: its change kind (UPSERT without --op-column) and its row. */
    private interface Sink {
        void accept(WriteKind kind, Row row);
    }

    private long load(BufferedReader in, Schema schema, Sink sink, Progress progress)
            throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<Column> columns = schema.columns();
        int[] positions = null;
        int opField = -1;
        long lineNo = 0;
        long rows = 0;
        String line;
        while ((line = in.readLine()) != null) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            try {
                Object[] values = new Object[columns.size()];
                WriteKind kind = WriteKind.UPSERT;
                if (format == Format.json) {
                    JsonNode node = json.readTree(line);
                    if (!node.isObject()) {
                        throw new InvalidInputException("expected a JSON object");
                    }
                    node.fieldNames()
                            .forEachRemaining(
                                    f -> {
                                        if (!f.equals(opColumn)) {
                                            schema.indexOf(f);
                                        }
                                    });
                    if (opColumn != null) {
                        JsonNode op = node.get(opColumn);
                        kind =
                                ChangeOp.parse(
                                        op == null || op.isNull() ? null : op.asText(), opColumn);
                    }
                    for (int i = 0; i < columns.size(); i++) {
                        values[i] =
                                ValueParser.parse(columns.get(i), node.get(columns.get(i).name()));
                    }
                } else {
                    List<String> fields = CsvLine.split(line, delimiter, lineNo);
                    if (header && positions == null) {
                        positions = new int[fields.size()];
                        for (int i = 0; i < fields.size(); i++) {
                            String name = String.valueOf(fields.get(i)).trim();
                            if (name.equals(opColumn)) {
                                opField = i;
                                positions[i] = -1;
                            } else {
                                positions[i] = schema.indexOf(name);
                            }
                        }
                        if (opColumn != null && opField < 0) {
                            throw new InvalidInputException(
                                    "the header has no op column '"
                                            + opColumn
                                            + "' (--op-column); it names "
                                            + fields);
                        }
                        continue;
                    }
                    int[] pos = positions;
                    if (pos == null && fields.size() != columns.size()) {
                        throw new InvalidInputException(
                                "expected "
                                        + columns.size()
                                        + " fields "
                                        + schema.columnNames()
                                        + ", got "
                                        + fields.size());
                    }
                    if (pos != null && fields.size() != pos.length) {
                        throw new InvalidInputException(
                                "expected "
                                        + pos.length
                                        + " fields like the header, got "
                                        + fields.size());
                    }
                    for (int i = 0; i < fields.size(); i++) {
                        if (i == opField) {
                            kind = ChangeOp.parse(fields.get(i), opColumn);
                            continue;
                        }
                        int col = pos == null ? i : pos[i];
                        values[col] = ValueParser.parse(columns.get(col), fields.get(i));
                    }
                }
                sink.accept(kind, Row.wrap(values));
            } catch (TributaryException e) {
                throw new InvalidInputException(
                        "line "
                                + lineNo
                                + ": "
                                + e.getMessage()
                                + " ("
                                + rows
                                + " rows before it were written)",
                        e);
            } catch (IOException e) {
                throw new InvalidInputException(
                        "line "
                                + lineNo
                                + ": not valid JSON ("
                                + e.getMessage().split("\n")[0]
                                + ")",
                        e);
            }
            rows++;
            progress.update(rows);
        }
        return rows;
    }
}
