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
                                    "--tiering.commit.order",
                                    "assignment"
                                }))
                .containsExactlyInAnyOrderEntriesOf(
                        Map.of(
                                "coordinator", "h:1",
                                "datalake.paimon.warehouse", "/w",
                                "tiering.commit.order", "assignment"));
    }

    @Test
    void badArgumentsGetATypedErrorThatSaysWhatToDo() {
        assertThatThrownBy(() -> TieringJobMain.parse(new String[] {"coordinator"}))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("--key value");
        assertThatThrownBy(() -> TieringJobMain.parse(new String[] {"--coordinator"}))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("needs a value");
        assertThatThrownBy(() -> TieringJobMain.main(new String[] {"--x", "1"}))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("--coordinator");
    }
}
