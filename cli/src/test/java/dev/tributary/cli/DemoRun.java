package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** One {@code tributary demo} run through the CLI's main entry, and what its live view printed. */
record DemoRun(int exitCode, String out, String err) {
    private static final Pattern ROUND_LINE =
            Pattern.compile(
                    "^\\d\\d:\\d\\d:\\d\\d\\s+(shop\\.\\w+)\\s+(\\d+)\\s+(\\d+:\\d+)\\s+(\\d+)\\s",
                    Pattern.MULTILINE);

    static DemoRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code =
                TributaryCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new DemoRun(code, out.toString(), err.toString());
    }

    /**
     * One run of the distribution itself: {@code java -jar cli/target/tributary-cli-*-all.jar args}
     * in a child JVM, so only what the fat jar carries is on the class path.
     */
    static DemoRun ofDistribution(java.nio.file.Path workDir, String... args) throws Exception {
        java.nio.file.Path jar;
        try (var jars = java.nio.file.Files.list(java.nio.file.Path.of("target"))) {
            jar =
                    jars.filter(f -> f.getFileName().toString().endsWith("-all.jar"))
                            .findFirst()
                            .orElseThrow(
                                    () ->
                                            new IllegalStateException(
                                                    "no fat jar in target/: mvn package"));
        }
        java.util.List<String> command = new java.util.ArrayList<>();
        command.add(
                java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx1g");
        command.add("-jar");
        command.add(jar.toAbsolutePath().toString());
        command.addAll(java.util.List.of(args));
        java.nio.file.Path out = workDir.resolve("demo.out");
        java.nio.file.Path err = workDir.resolve("demo.err");
        Process p =
                new ProcessBuilder(command)
                        .redirectOutput(out.toFile())
                        .redirectError(err.toFile())
                        .start();
        if (!p.waitFor(5, java.util.concurrent.TimeUnit.MINUTES)) {
            p.destroyForcibly().waitFor();
            throw new IllegalStateException(
                    "the demo did not end in 5 minutes: " + java.nio.file.Files.readString(out));
        }
        return new DemoRun(
                p.exitValue(),
                java.nio.file.Files.readString(out),
                java.nio.file.Files.readString(err));
    }

    /** Rows of every committed round the live view printed, summed per table. */
    Map<String, Long> tieredRows() {
        Map<String, Long> rows = new HashMap<>();
        Matcher m = ROUND_LINE.matcher(out);
        while (m.find()) {
            rows.merge(m.group(1), Long.parseLong(m.group(4)), Long::sum);
        }
        return rows;
    }

    /** One round line of the live view. */
    record PrintedRound(String table, long roundId, String epoch, long rows) {}

    /** Every committed or empty round the live view printed, in order. */
    java.util.List<PrintedRound> printedRounds() {
        java.util.List<PrintedRound> rounds = new java.util.ArrayList<>();
        Matcher m = ROUND_LINE.matcher(out);
        while (m.find()) {
            rounds.add(
                    new PrintedRound(
                            m.group(1),
                            Long.parseLong(m.group(2)),
                            m.group(3),
                            Long.parseLong(m.group(4))));
        }
        return rounds;
    }

    /** The closing summary of a table: {rounds, rows}. */
    long[] summary(String table) {
        Matcher m =
                Pattern.compile(
                                "^tiered: "
                                        + Pattern.quote(table)
                                        + "\\s+(\\d+) rounds, (\\d+) rows",
                                Pattern.MULTILINE)
                        .matcher(out);
        assertThat(m.find()).as("a summary line for %s in:%n%s", table, out).isTrue();
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
    }

    /** The closing count of a table: {by union read, in the lake alone}. */
    long[] counts(String table) {
        Matcher m =
                Pattern.compile(
                                "count:\\s+"
                                        + Pattern.quote(table)
                                        + "\\s+(\\d+) by union read, (\\d+) in the lake alone")
                        .matcher(out);
        assertThat(m.find()).as("a count line for %s in:%n%s", table, out).isTrue();
        return new long[] {Long.parseLong(m.group(1)), Long.parseLong(m.group(2))};
    }

    /** Rows the demo wrote to each log table, by its "written:" line. */
    Map<String, Long> writtenToLogTables() {
        Matcher m = Pattern.compile("written: clicks (\\d+), orders (\\d+)").matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return Map.of(
                "shop.clicks",
                Long.parseLong(m.group(1)),
                "shop.orders",
                Long.parseLong(m.group(2)));
    }

    /**
     * The demo's closing lines came after the last rounds (issue 26): for each log table the lake
     * alone holds every row written, the union read agrees, and the summary counts every round the
     * live view printed, whose rows add up to what was written.
     */
    DemoRun assertClosingLinesAfterTheLastRounds() {
        java.util.List<PrintedRound> printed = printedRounds();
        for (Map.Entry<String, Long> w : writtenToLogTables().entrySet()) {
            long[] counts = counts(w.getKey());
            assertThat(counts[1])
                    .as(
                            "rows of %s in the lake alone after the demo wrote %d:%n%s",
                            w.getKey(), w.getValue(), out)
                    .isEqualTo(w.getValue());
            assertThat(counts[0]).as("union count of %s", w.getKey()).isEqualTo(w.getValue());
            long[] summary = summary(w.getKey());
            assertThat(summary[1])
                    .as("rows in the summary of %s", w.getKey())
                    .isEqualTo(w.getValue());
        }
        for (String t : java.util.List.of("shop.clicks", "shop.orders", "shop.customers")) {
            assertThat(summary(t)[0])
                    .as("rounds in the summary of %s", t)
                    .isEqualTo(printed.stream().filter(r -> r.table().equals(t)).count());
        }
        assertThat(out)
                .contains("stopped writing; waiting up to")
                .contains("the lake holds every row written")
                .doesNotContain("gave up waiting");
        return this;
    }

    /** The demo ended well and its live view shows committed rounds of all three tables. */
    DemoRun assertRoundsOfAllTables() {
        assertThat(exitCode).as("stdout:%n%s%nstderr:%n%s", out, err).isZero();
        assertThat(tieredRows())
                .as("committed rounds in the live view:%n%s", out)
                .containsKeys("shop.clicks", "shop.orders", "shop.customers");
        assertThat(out).doesNotContain("demo: ").contains("0 failed");
        return this;
    }
}
