package dev.tributary.cli.command;

import dev.tributary.cli.output.LogDirectory;
import dev.tributary.cli.output.TextTable;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.Throwables;
import dev.tributary.common.exception.TributaryException;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.flink.table.api.SqlParserException;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.ValidationException;
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

    @Option(
            names = "--log-dir",
            paramLabel = "DIR",
            defaultValue = "${sys:java.io.tmpdir}/tributary-${sys:user.name}/log",
            description =
                    "Where Flink's and the lake libraries' messages go (DIR/tributary.log; default:"
                            + " ${DEFAULT-VALUE}): the terminal shows only the result and"
                            + " Tributary's own errors.")
    Path logDir;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        List<String> statements = split(sql);
        if (statements.isEmpty()) {
            throw new InvalidInputException("no SQL statement given");
        }
        try {
            // before Flink logs its first line
            LogDirectory.use(logDir);
        } catch (IOException e) {
            throw new InvalidInputException(
                    "--log-dir " + logDir + " cannot be created (" + e.getMessage() + ")", e);
        }
        // the clusters stop only after the result has been read (and its iterator closed)
        try (QueryClusters clusters = new QueryClusters()) {
            TableEnvironment env = clusters.tableEnvironment(streaming, parallelism);
            StringBuilder ddl =
                    new StringBuilder(
                                    "CREATE CATALOG tributary WITH ('type' = 'tributary',"
                                            + " 'address' = '")
                            .append(escape(connection.address))
                            .append('\'');
            if (connection.token != null && !connection.token.isEmpty()) {
                ddl.append(", 'token' = '").append(escape(connection.token)).append('\'');
            }
            env.executeSql(ddl.append(')').toString());
            env.executeSql("USE CATALOG tributary");
            for (String statement : statements.subList(0, statements.size() - 1)) {
                userSql(
                        statement,
                        () -> {
                            env.executeSql(statement).await();
                            return null;
                        });
            }
            String last = statements.get(statements.size() - 1);
            if (explain) {
                out.println(userSql(last, () -> env.explainSql(last)));
                out.flush();
                return 0;
            }
            print(userSql(last, () -> env.executeSql(last)), out);
        }
        return 0;
    }

    private void print(TableResult result, PrintWriter out) throws Exception {
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
    }

    /**
     * A statement Flink could not parse or validate is the user's mistake: one clear line; a parse
     * error names the statement, since Flink's message often does not say where it failed.
     */
    private static <T> T userSql(String sql, Callable<T> statement) throws Exception {
        try {
            return statement.call();
        } catch (ValidationException | SqlParserException e) {
            if (Throwables.causedBy(e, TributaryException.class)) {
                // Tributary's own error (unknown table, server down) says it best
                throw e;
            }
            String message =
                    e instanceof SqlParserException
                            ? firstLine(e.getMessage())
                                    + " in: "
                                    + abbreviate(sql.replaceAll("\\s+", " "))
                            // a validation message's later lines say why (e.g. both schemas)
                            : oneLine(e.getMessage());
            throw new InvalidInputException(message, e);
        }
    }

    private static String abbreviate(String sql) {
        return sql.length() <= 100 ? sql : sql.substring(0, 97) + "...";
    }

    private static String oneLine(String message) {
        return message == null || message.isBlank()
                ? "invalid SQL"
                : message.strip().replaceAll("\\s*\\n\\s*", " ");
    }

    /** Flink's parser appends every token it expected, one per line, after the first line. */
    private static String firstLine(String message) {
        if (message == null || message.isBlank()) {
            return "invalid SQL";
        }
        String first = message.strip().lines().findFirst().orElse("").strip();
        return first.endsWith(".") ? first.substring(0, first.length() - 1) : first;
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
