package dev.tributary.cli.plan;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.tributary.cli.TributaryCli;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tributary plan --file}: the what-if mode needs no server. */
class PlanCommandTest {
    static final String WALKTHROUGH =
            Path.of("..", "conf", "plan", "seed-walkthrough.yaml").toString();

    @TempDir Path dir;

    @Test
    @DisplayName(
            "T44 what-if: the seed's walkthrough with its timeline (clicks 30 s, orders 120 s,"
                    + " customers 220 s) and recommendations")
    void walkthrough() {
        PlanCommandITCase.Run run =
                PlanCommandITCase.cli("plan", "--file", WALKTHROUGH, "--timeline", "4min");
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out())
                .contains("What-if plan of " + WALKTHROUGH)
                .contains("policy fifo")
                .containsPattern("T=30s +clicks +round 1 committed after 30s")
                .containsPattern("T=120s +orders +round 1 committed after 1m30s")
                .containsPattern("T=220s +customers +round 1 committed after 3m10s")
                .containsPattern("T=90s +clicks +pending: round 2 due, 1min after its last commit")
                .containsPattern("T=120s +clicks +round 2 to tiering-job after 30s in the queue")
                .contains("Recommendations, each simulated on the same workload:");
    }

    @Test
    @DisplayName("T44 what-if with --policy, --json and --save-workload")
    void jsonAndSave() throws Exception {
        Path saved = dir.resolve("w.yaml");
        PlanCommandITCase.Run run =
                PlanCommandITCase.cli(
                        "plan",
                        "--file",
                        WALKTHROUGH,
                        "--policy",
                        "deadline",
                        "--json",
                        "--no-recommendations",
                        "--save-workload",
                        saved.toString());
        assertThat(run.code()).as(run.err()).isZero();
        JsonNode plan = new ObjectMapper().readTree(run.out());
        assertThat(plan.get("workload").get("coordinator").get("queue-policy").asText())
                .isEqualTo("deadline");
        assertThat(plan.get("tables")).hasSize(3);
        assertThat(plan.get("recommendations")).isEmpty();
        assertThat(Files.readString(saved)).contains("queue-policy: deadline", "name: clicks");
        // the saved file plans again
        assertThat(
                        PlanCommandITCase.cli(
                                        "plan", "--file", saved.toString(), "--no-recommendations")
                                .code())
                .isZero();
    }

    @Test
    @DisplayName("T44 a user's mistakes: one line naming the problem, exit 1, no stack trace")
    void mistakes() throws Exception {
        Path bad = dir.resolve("bad.yaml");
        Files.writeString(bad, "jobs: [{id: j, parallelism: 2}]\ntables: [{name: t, bukets: 4}]\n");
        PlanCommandITCase.Run run = PlanCommandITCase.cli("plan", "--file", bad.toString());
        assertThat(run.code()).isEqualTo(TributaryCli.USER_ERROR);
        assertThat(run.err())
                .startsWith("error: tables[0]: unknown key 'bukets'")
                .doesNotContain("\tat ");
        run = PlanCommandITCase.cli("plan", "--file", dir.resolve("missing.yaml").toString());
        assertThat(run.err()).contains("does not exist");
        run = PlanCommandITCase.cli("plan", "--file", WALKTHROUGH, "--policy", "lifo");
        assertThat(run.err()).contains("--policy 'lifo' is not a queue policy: fifo or deadline");
        run = PlanCommandITCase.cli("plan", "--file", WALKTHROUGH, "--horizon", "soon");
        assertThat(run.err()).contains("--horizon: 'soon' is not a duration");
    }
}
