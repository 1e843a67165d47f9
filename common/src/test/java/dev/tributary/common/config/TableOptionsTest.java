package dev.tributary.common.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidConfigException;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The table option registry and its checks (T56). */
class TableOptionsTest {

    @Test
    void t56_typoNamesTheClosestKnownKey() {
        assertThatThrownBy(
                        () ->
                                TableOptionsValidator.validate(
                                        Map.of("table.datalake.freshnes", "10s")))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessage(
                        "unknown table option 'table.datalake.freshnes'; did you mean"
                                + " 'table.datalake.freshness'?");
        assertThatThrownBy(() -> TableOptionsValidator.validate("table.log.tll", "1d"))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("did you mean 'table.log.ttl'?");
        assertThatThrownBy(
                        () -> TableOptionsValidator.validate("table.auto-partiton.enabled", "true"))
                .hasMessageContaining("did you mean 'table.auto-partition.enabled'?");
    }

    @Test
    void t56_farOffKeyGetsNoSuggestionButWhatToDo() {
        assertThatThrownBy(() -> TableOptionsValidator.validate("table.color", "blue"))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageStartingWith("unknown table option 'table.color': ")
                .hasMessageNotContaining("did you mean")
                .hasMessageContaining("table.datalake.paimon.");
        assertThat(TableOptionsValidator.closestKey("table.datalake.compaction")).isEmpty();
        assertThat(TableOptionsValidator.closestKey("table.x")).isEmpty();
    }

    @Test
    void t56_valueThatDoesNotParseNamesKeyValueAndForm() {
        assertThatThrownBy(() -> TableOptionsValidator.validate("table.datalake.freshness", "soon"))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("'soon'")
                .hasMessageContaining("'table.datalake.freshness'")
                .hasMessageContaining("a duration such as");
        assertThatThrownBy(
                        () ->
                                TableOptionsValidator.validate(
                                        Map.of("table.datalake.compaction.max-files", "1")))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("between 2 and 10000");
        assertThatThrownBy(() -> TableOptionsValidator.validate("table.datalake.enabled", "yes"))
                .hasMessageContaining("true or false");
    }

    @Test
    void t56_passThroughAndUserKeysAreLetThrough() {
        assertThatCode(
                        () ->
                                TableOptionsValidator.validate(
                                        Map.of(
                                                "table.datalake.paimon.file.format", "orc",
                                                "table.datalake.iceberg.write.format.default",
                                                        "avro",
                                                "owner", "team-a",
                                                "table.datalake.freshness", "10s")))
                .doesNotThrowAnyException();
        // the bare prefix names no native property
        assertThatThrownBy(() -> TableOptionsValidator.validate("table.datalake.paimon.", "x"))
                .isInstanceOf(InvalidConfigException.class);
        assertThat(
                        TableOptions.lakePassThrough(
                                Map.of(
                                        "table.datalake.paimon.file.format", "orc",
                                        "table.datalake.iceberg.x", "1",
                                        "table.datalake.freshness", "1s"),
                                "paimon"))
                .containsExactly(Map.entry("file.format", "orc"));
    }

    @Test
    void t56_registryHoldsEveryTableOptionOnceWithDescription() {
        Set<String> keys = new HashSet<>();
        for (ConfigOption<?> o : TableOptions.all()) {
            assertThat(o.key()).startsWith(TableOptions.PREFIX);
            assertThat(keys.add(o.key())).as("duplicate %s", o.key()).isTrue();
            assertThat(o.description()).as(o.key()).isNotBlank();
            assertThat(TableOptions.isLakePassThrough(o.key())).as(o.key()).isFalse();
            assertThat(TableOptions.find(o.key())).containsSame(o);
        }
        assertThat(keys).hasSize(24);
    }

    @Test
    void t56_tableConfigParsesOnceAndToleratesStoredUnknownKeys() {
        TableConfig c =
                TableConfig.of(
                        Map.of(
                                "table.datalake.freshness", "10s",
                                "table.datalake.freshnes", "20s",
                                "table.log.ttl", "never",
                                "table.datalake.paimon.file.format", "orc",
                                "owner", "team-a"));
        assertThat(c.get(TableOptions.DATALAKE_FRESHNESS)).isEqualTo(Duration.ofSeconds(10));
        assertThat(c.get(TableOptions.LOG_TTL)).isEqualTo(TableOptions.LOG_TTL.defaultValue());
        assertThat(c.getOptional(TableOptions.DATALAKE_LAG_TARGET)).isEmpty();
        assertThat(c.warnings())
                .hasSize(2)
                .anySatisfy(w -> assertThat(w).contains("did you mean 'table.datalake.freshness'"))
                .anySatisfy(w -> assertThat(w).contains("'never'").contains("table.log.ttl"));
        assertThat(TableConfig.of(Map.of()).warnings()).isEmpty();
        ConfigOption<Integer> notATableOption =
                ConfigOptions.key("server.x").intType().defaultValue(1);
        assertThatThrownBy(() -> c.get(notATableOption))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void editDistanceCountsSingleCharacterEdits() {
        assertThat(TableOptionsValidator.editDistance("abc", "abc")).isZero();
        assertThat(TableOptionsValidator.editDistance("abc", "ab")).isEqualTo(1);
        assertThat(TableOptionsValidator.editDistance("abc", "axc")).isEqualTo(1);
        assertThat(TableOptionsValidator.editDistance("", "abc")).isEqualTo(3);
        assertThat(TableOptionsValidator.editDistance("kitten", "sitting")).isEqualTo(3);
    }
}
