package dev.tributary.cli.command;

import dev.tributary.cli.output.TextTable;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Runs Flink SQL on an embedded MiniCluster against the server, with the server's tables in the
 * current catalog ({@code tributary}, database {@code default}): a SELECT is a union read of the
 * lake and the store's fresh tail (T40, T41).
 */
@Command(
        name = "query",
        mixinStandardHelpOptions = true,
        description = {
            "Runs Flink SQL against the server on an embedded Flink MiniCluster and prints the"
                    + " result as a table.",
            "The server's tables are in the current catalog 'tributary' (e.g. SELECT * FROM"
                    + " shop.orders); SELECT reads the lake and the store's fresh tail at once.",
            "Several statements may be separated by ';' (the last one's result is printed)."
        })
public final class QueryCommand implements Callable<Integer> {
    @Mixin ConnectionOptions connection;
    @Spec CommandSpec spec;

    @Parameters(
            paramLabel = "SQL",
            description = "The statement(s), e.g. \"SELECT * FROM shop.orders\".")
    String sql;

    @Option(
            names = "--explain",
            description =
                    "Print the plan (with the filters pushed into the lake read) instead of running.")
    boolean explain;

    @Option(
            names = "--streaming",
            description =
                    "Run in streaming mode: a SELECT keeps following the log (stop with --limit or Ctrl-C).")
    boolean streaming;

    @Option(names = "--limit", description = "Print at most this many rows.")
    Long limit;

    @Option(
            names = "--parallelism",
            defaultValue = "2",
            description = "Parallelism of the MiniCluster's job (default: ${DEFAULT-VALUE}).")
    int parallelism;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        EnvironmentSettings settings =
                streaming
                        ? EnvironmentSettings.inStreamingMode()
                        : EnvironmentSettings.inBatchMode();
        TableEnvironment env = TableEnvironment.create(settings);
        env.getConfig().set("parallelism.default", Integer.toString(parallelism));
        StringBuilder ddl =
                new StringBuilder(
                                "CREATE CATALOG tributary WITH ('type' = 'tributary', 'address' = '")
                        .append(escape(connection.address))
                        .append('\'');
        if (connection.token != null && !connection.token.isEmpty()) {
            ddl.append(", 'token' = '").append(escape(connection.token)).append('\'');
        }
        env.executeSql(ddl.append(')').toString());
        env.executeSql("USE CATALOG tributary");
        List<String> statements = split(sql);
        if (statements.isEmpty()) {
            throw new dev.tributary.common.exception.InvalidInputException(
                    "no SQL statement given");
        }
        for (int i = 0; i < statements.size() - 1; i++) {
            env.executeSql(statements.get(i)).await();
        }
        String last = statements.get(statements.size() - 1);
        if (explain) {
            out.println(env.explainSql(last));
            out.flush();
            return 0;
        }
        TableResult result = env.executeSql(last);
        List<String> names = result.getResolvedSchema().getColumnNames();
        boolean changelog =
                streaming
                        && result.getResultKind() != org.apache.flink.table.api.ResultKind.SUCCESS;
        List<String> header = new ArrayList<>();
        if (changelog) {
            header.add("op");
        }
        header.addAll(names);
        TextTable table = new TextTable(header.toArray(new String[0]));
        long rows = 0;
        try (CloseableIterator<Row> it = result.collect()) {
            while (it.hasNext() && (limit == null || rows < limit)) {
                Row r = it.next();
                List<Object> cells = new ArrayList<>();
                if (changelog) {
                    cells.add(r.getKind().shortString());
                }
                for (int i = 0; i < r.getArity(); i++) {
                    cells.add(r.getField(i));
                }
                table.row(cells.toArray());
                rows++;
                if (streaming) {
                    // a following query never ends: show rows as they come
                    out.println(String.join("\t", cells.stream().map(String::valueOf).toList()));
                    out.flush();
                }
            }
        }
        if (!streaming) {
            table.print(out);
            out.println(rows + (rows == 1 ? " row" : " rows"));
        }
        out.flush();
        return 0;
    }

    private static String escape(String s) {
        return s.replace("'", "''");
    }

    /** Statements separated by ';' outside quotes. */
    static List<String> split(String sql) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (char c : sql.toCharArray()) {
            if (c == '\'') {
                quoted = !quoted;
            }
            if (c == ';' && !quoted) {
                if (!cur.toString().isBlank()) {
                    out.add(cur.toString().trim());
                }
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        if (!cur.toString().isBlank()) {
            out.add(cur.toString().trim());
        }
        return out;
    }
}
