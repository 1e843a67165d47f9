package dev.tributary.cli.command;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Loads CSV or JSON lines into a table: appends to a log table, upserts into a primary-key table. A
 * bad line stops the load with its line number; every line before it is written.
 */
@Command(
        name = "write",
        mixinStandardHelpOptions = true,
        description = {
            "Writes CSV or JSON lines from stdin or a file into a table.",
            "Log tables get appends, primary-key tables upserts. Shows progress on stderr and the"
                    + " final count on stdout."
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
            Progress progress = new Progress(spec.commandLine().getErr(), quiet);
            long written;
            if (info.hasPrimaryKey()) {
                try (UpsertWriter w = c.upsertWriter(path)) {
                    written = load(in, info.schema(), w::upsert, progress);
                    w.flush();
                }
            } else {
                try (AppendWriter w = c.appendWriter(path)) {
                    written = load(in, info.schema(), w::append, progress);
                    w.flush();
                }
            }
            progress.done(written);
            spec.commandLine().getOut().println("wrote " + written + " rows to " + path);
        }
        return 0;
    }

    private long load(BufferedReader in, Schema schema, Consumer<Row> sink, Progress progress)
            throws IOException {
        ObjectMapper json = new ObjectMapper();
        List<Column> columns = schema.columns();
        int[] positions = null;
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
                if (format == Format.json) {
                    JsonNode node = json.readTree(line);
                    if (!node.isObject()) {
                        throw new InvalidInputException("expected a JSON object");
                    }
                    node.fieldNames().forEachRemaining(schema::indexOf);
                    for (int i = 0; i < columns.size(); i++) {
                        values[i] =
                                ValueParser.parse(columns.get(i), node.get(columns.get(i).name()));
                    }
                } else {
                    List<String> fields = CsvLine.split(line, delimiter, lineNo);
                    if (header && positions == null) {
                        positions = new int[fields.size()];
                        for (int i = 0; i < fields.size(); i++) {
                            positions[i] = schema.indexOf(String.valueOf(fields.get(i)).trim());
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
                        int col = pos == null ? i : pos[i];
                        values[col] = ValueParser.parse(columns.get(col), fields.get(i));
                    }
                }
                sink.accept(Row.wrap(values));
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
