package dev.tributary.common.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The README's list of table options is the registry's (T56): every option with its default and
 * description, so the list cannot go stale. {@code -Dreadme.update=true} rewrites it.
 */
class TableOptionsReadmeTest {
    private static final String BEGIN = "<!-- table-options:begin -->\n";
    private static final String END = "<!-- table-options:end -->";

    @org.junit.jupiter.api.Test
    void t56_readmeListsEveryTableOptionWithDefaultAndDescription() throws Exception {
        Path readme = Path.of("..", "README.md");
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        assertThat(begin).as("README has the table-options markers").isPositive();
        assertThat(end).isGreaterThan(begin);
        String want = render();
        if (Boolean.getBoolean("readme.update")) {
            Files.writeString(
                    readme,
                    text.substring(0, begin + BEGIN.length()) + want + text.substring(end),
                    StandardCharsets.UTF_8);
            return;
        }
        assertThat(text.substring(begin + BEGIN.length(), end))
                .as("README table options; rerun with -Dreadme.update=true to rewrite")
                .isEqualTo(want);
    }

    /** One Markdown table row per option, in registry order. */
    static String render() {
        StringBuilder b = new StringBuilder();
        b.append("| Option | Default | Description |\n");
        b.append("|---|---|---|\n");
        for (ConfigOption<?> o : TableOptions.all()) {
            b.append("| `")
                    .append(o.key())
                    .append("` | ")
                    .append(defaultOf(o))
                    .append(" | ")
                    .append(o.description().replace("|", "\\|"))
                    .append(" Values: ")
                    .append(o.expectedForm().replace("|", "\\|"))
                    .append(". |\n");
        }
        return b.toString();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static String defaultOf(ConfigOption o) {
        if (!o.hasDefault()) {
            return "(none)";
        }
        String v = o.format(o.defaultValue());
        return v.isEmpty() ? "(empty)" : "`" + v + "`";
    }
}
