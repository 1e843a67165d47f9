package dev.tributary.cli.command;

import dev.tributary.cli.input.SchemaParser;
import dev.tributary.cli.output.ReplicaText;
import dev.tributary.cli.output.TextTable;
import dev.tributary.client.Connection;
import dev.tributary.client.admin.BucketReplicaInfo;
import dev.tributary.client.admin.TableAlteration;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.types.Column;
import dev.tributary.common.types.DataTypeParser;
import dev.tributary.common.types.TableDescriptor;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** Tables. */
@Command(
        name = "table",
        mixinStandardHelpOptions = true,
        description = "Creates, alters, drops, lists and describes tables.",
        subcommands = {
            TableCommand.Create.class,
            TableCommand.Alter.class,
            TableCommand.Drop.class,
            TableCommand.ListTables.class,
            TableCommand.Describe.class
        })
public final class TableCommand {

    /** Exactly one source of the schema. */
    static final class SchemaSource {
        @Option(
                names = {"-s", "--schema"},
                description =
                        "Columns as DDL, e.g. \"id BIGINT, name STRING, PRIMARY KEY (id)\"; may end"
                                + " with PARTITIONED BY (col, ...).")
        String ddl;

        @Option(
                names = "--schema-file",
                description =
                        "JSON file: {\"columns\":[{\"name\":..,\"type\":..}],\"primaryKey\":[..],"
                                + "\"partitionKeys\":[..],\"buckets\":N,\"bucketKeys\":[..],"
                                + "\"properties\":{..}}.")
        Path file;
    }

    @Command(name = "create", mixinStandardHelpOptions = true, description = "Creates a table.")
    static final class Create implements Callable<Integer> {
        @Mixin TableArgument target;

        @ArgGroup(exclusive = true, multiplicity = "1")
        SchemaSource schema;

        @Option(
                names = {"-b", "--buckets"},
                description = "Number of buckets (bucket.num), default 1.")
        Integer buckets;

        @Option(
                names = "--bucket-key",
                split = ",",
                description =
                        "Bucket key columns (default: the primary key without the partition"
                                + " keys).")
        List<String> bucketKeys;

        @Option(
                names = "--partitioned-by",
                split = ",",
                paramLabel = "COL",
                description =
                        "Partition key columns (STRING, INT, BIGINT or DATE), like PARTITIONED BY;"
                                + " each partition has --buckets buckets.")
        List<String> partitionKeys;

        @Option(
                names = {"-p", "--property"},
                paramLabel = "KEY=VALUE",
                description = "Table property, e.g. table.datalake.enabled=true (repeatable).")
        Map<String, String> properties = new LinkedHashMap<>();

        @Option(names = "--comment", description = "Table comment.")
        String comment;

        @Option(names = "--if-not-exists", description = "Succeed if it already exists.")
        boolean ifNotExists;

        @Override
        public Integer call() {
            TablePath p = target.path();
            TableDescriptor.Builder b =
                    schema.file != null
                            ? SchemaParser.parseJsonFile(schema.file)
                            : SchemaParser.parseTableDdl(schema.ddl);
            if (partitionKeys != null) {
                b.partitionKeys(partitionKeys);
            }
            if (buckets != null) {
                b.bucketCount(buckets);
            }
            if (bucketKeys != null) {
                b.bucketKeys(bucketKeys);
            }
            b.properties(properties);
            if (comment != null) {
                b.comment(comment);
            }
            TableInfo info;
            try (Connection c = target.connect()) {
                info = c.admin().createTable(p, b.build(), ifNotExists);
            }
            target.out().println("created table " + info.path() + " (id " + info.tableId() + ")");
            return 0;
        }
    }

    @Command(
            name = "alter",
            mixinStandardHelpOptions = true,
            description = "Sets or resets properties and appends nullable columns.")
    static final class Alter implements Callable<Integer> {
        @Mixin TableArgument target;

        @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Sets a property.")
        Map<String, String> set = new LinkedHashMap<>();

        @Option(names = "--reset", paramLabel = "KEY", description = "Resets a property.")
        List<String> reset = new ArrayList<>();

        @Option(
                names = "--add-column",
                paramLabel = "\"NAME TYPE\"",
                description = "Appends a nullable column, e.g. --add-column \"referrer STRING\".")
        List<String> addColumns = new ArrayList<>();

        @Override
        public Integer call() {
            TableAlteration a = TableAlteration.create();
            set.forEach(a::setProperty);
            reset.forEach(a::resetProperty);
            for (String col : addColumns) {
                String t = col.trim();
                int space = t.indexOf(' ');
                if (space < 0) {
                    throw new InvalidInputException(
                            "--add-column '" + col + "': expected \"<name> <TYPE>\"");
                }
                a.addColumn(t.substring(0, space), DataTypeParser.parse(t.substring(space + 1)));
            }
            if (a.isEmpty()) {
                throw new InvalidInputException(
                        "nothing to alter: give --set, --reset or --add-column");
            }
            try (Connection c = target.connect()) {
                TableInfo info = c.admin().alterTable(target.path(), a);
                target.out()
                        .println(
                                "altered table "
                                        + info.path()
                                        + " (schema "
                                        + info.schemaId()
                                        + ")");
            }
            return 0;
        }
    }

    @Command(name = "drop", mixinStandardHelpOptions = true, description = "Drops a table.")
    static final class Drop implements Callable<Integer> {
        @Mixin TableArgument target;

        @Option(names = "--if-exists", description = "Succeed if it does not exist.")
        boolean ifExists;

        @Option(
                names = "--drop-lake-table",
                description =
                        "Also drop the table's lake table and its data (by default it stays,"
                                + " readable by lake engines).")
        boolean dropLakeTable;

        @Override
        public Integer call() {
            try (Connection c = target.connect()) {
                c.admin().dropTable(target.path(), ifExists, dropLakeTable);
            }
            target.out()
                    .println(
                            "dropped table "
                                    + target.table
                                    + (dropLakeTable ? " and its lake table" : ""));
            return 0;
        }
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "Lists the tables of a database.")
    static final class ListTables implements Callable<Integer> {
        @Mixin ConnectionOptions connection;
        @Spec CommandSpec spec;

        @Parameters(paramLabel = "DB", description = "Database name.")
        String database;

        @Override
        public Integer call() {
            try (Connection c = connection.connect()) {
                c.admin().listTables(database).forEach(spec.commandLine().getOut()::println);
            }
            return 0;
        }
    }

    @Command(
            name = "describe",
            mixinStandardHelpOptions = true,
            description =
                    "Shows a table's columns, key, buckets, properties and end offsets, then each"
                            + " bucket's leader, leader epoch, replicas and in-sync replicas"
                            + " (T50; a partitioned table's for the partition named with"
                            + " --partition).")
    static final class Describe implements Callable<Integer> {
        @Mixin TableArgument target;

        @Option(
                names = "--partition",
                paramLabel = "NAME",
                description = "For a partitioned table: whose buckets to show, e.g. dt=2026-12-01.")
        String partition;

        @Override
        public Integer call() {
            PrintWriter out = target.out();
            try (Connection c = target.connect()) {
                TableInfo info = c.admin().describeTable(target.path());
                out.println("table:       " + info.path());
                out.println("id:          " + info.tableId());
                out.println("schema id:   " + info.schemaId());
                out.println(
                        "kind:        "
                                + (info.hasPrimaryKey()
                                        ? "primary key " + info.schema().primaryKey()
                                        : "log"));
                out.println(
                        "buckets:     "
                                + info.bucketCount()
                                + " by "
                                + info.descriptor().bucketKeys()
                                + (info.descriptor().isPartitioned() ? " in each partition" : ""));
                if (info.descriptor().isPartitioned()) {
                    out.println("partitioned: by " + info.descriptor().partitionKeys());
                }
                out.println("created:     " + Instant.ofEpochMilli(info.createdAtMillis()));
                info.descriptor().comment().ifPresent(cm -> out.println("comment:     " + cm));
                TextTable cols = new TextTable("COLUMN", "TYPE", "COMMENT");
                for (Column col : info.schema().columns()) {
                    cols.row(
                            col.name(),
                            col.type().toString(),
                            col.comment() == null ? "" : col.comment());
                }
                cols.print(out);
                if (!info.descriptor().properties().isEmpty()) {
                    out.println("properties:");
                    info.descriptor()
                            .properties()
                            .forEach((k, v) -> out.println("  " + k + " = " + v));
                }
                if (info.descriptor().isPartitioned()) {
                    PartitionCommand.printPartitions(c, info, out);
                } else {
                    out.println("end offsets: " + c.logScanner(info.path()).endOffsets());
                }
                if (!info.descriptor().isPartitioned() || partition != null) {
                    printReplicas(c.admin().describeBuckets(info.path(), partition), out);
                } else {
                    out.println(
                            "replicas:    per partition: add --partition NAME to see its buckets");
                }
            }
            return 0;
        }

        static void printReplicas(List<BucketReplicaInfo> buckets, PrintWriter out) {
            out.println("replicas:    " + ReplicaText.counts(buckets));
            TextTable t =
                    new TextTable("BUCKET", "LEADER", "EPOCH", "REPLICAS", "IN-SYNC", "STATE");
            for (BucketReplicaInfo b : buckets) {
                t.row(
                        b.bucket(),
                        b.leader().isPresent() ? String.valueOf(b.leader().getAsInt()) : "none",
                        b.leaderEpoch(),
                        b.replicas().toString(),
                        b.inSyncReplicas().toString(),
                        b.leader().isEmpty()
                                ? "no leader"
                                : b.underReplicated() ? "under-replicated" : "in sync");
            }
            t.print(out);
        }
    }
}
