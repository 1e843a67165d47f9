package dev.tributary.tiering.job;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TieringJobTest {

    @Test
    @DisplayName(
            "a tiering job restarts after a failure that reached Flink, on a cluster too (Flink's"
                    + " default without checkpoints is to end the job)")
    void restartsByDefault() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        TieringJob.keepRunningAfterFailures(env);
        assertThat(env.getConfiguration().get(RestartStrategyOptions.RESTART_STRATEGY))
                .isEqualTo("exponential-delay");
    }

    @Test
    @DisplayName("a restart strategy from the user's Flink configuration is kept")
    void keepsTheUsersStrategy() {
        Configuration user = new Configuration();
        user.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(user);
        TieringJob.keepRunningAfterFailures(env);
        assertThat(env.getConfiguration().get(RestartStrategyOptions.RESTART_STRATEGY))
                .isEqualTo("fixed-delay");
    }
}
