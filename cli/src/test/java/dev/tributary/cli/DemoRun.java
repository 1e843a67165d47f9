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

    /** Rows of every committed round the live view printed, summed per table. */
    Map<String, Long> tieredRows() {
        Map<String, Long> rows = new HashMap<>();
        Matcher m = ROUND_LINE.matcher(out);
        while (m.find()) {
            rows.merge(m.group(1), Long.parseLong(m.group(4)), Long::sum);
        }
        return rows;
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
