package dev.tributary.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.cli.TributaryCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class ClusterRebalanceCommandTest {
    @Test
    void cancelWithADrainIsAUsageErrorNamingWhatToDoBeforeAnyConnection() {
        StringWriter err = new StringWriter();
        int code =
                TributaryCli.execute(
                        new String[] {
                            "cluster", "rebalance", "--cancel", "--drain", "2", "-a", "127.0.0.1:1"
                        },
                        new PrintWriter(new StringWriter()),
                        new PrintWriter(err));
        assertThat(code).isEqualTo(2);
        assertThat(err.toString())
                .contains("--cancel takes no --drain or --undrain")
                .doesNotContain("Exception")
                .doesNotContain("\tat ");
    }
}
