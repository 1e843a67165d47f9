package dev.tributary.tiering.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.InvalidInputException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TieringJobMainTest {
    @Test
    void keyValuePairsBecomeSettingsInBothForms() {
        assertThat(
                        TieringJobMain.parse(
                                new String[] {
                                    "--coordinator",
                                    "h:1",
                                    "--datalake.paimon.warehouse=/w",
                                    "--tiering.job.group",
                                    "analytics"
                                }))
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "coordinator", "h:1",
                                "datalake.paimon.warehouse", "/w",
                                "tiering.job.group", "analytics"));
    }

    @Test
    void badArgumentsGetATypedErrorThatSaysWhatToDo() {
        assertThatThrownBy(() -> TieringJobMain.parse(new String[] {"coordinator"}))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("--key value");
        assertThatThrownBy(() -> TieringJobMain.parse(new String[] {"--coordinator"}))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("needs a value");
        // a coordinator-owned (or misspelled) tiering key is refused, not silently ignored
        assertThatThrownBy(
                        () ->
                                TieringJobMain.parse(
                                        new String[] {"--tiering.commit.timeout", "5min"}))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining(
                        "--tiering.commit.timeout is not a setting of the tiering job")
                .hasMessageContaining("tiering.job.group")
                .hasMessageContaining("server's configuration");
        assertThatThrownBy(() -> TieringJobMain.main(new String[] {"--x", "1"}))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("--coordinator");
    }
}
