package dev.tributary.tiering.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
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

    @Test
    @DisplayName(
            "a tiering job checkpoints (its state is empty) so that Flink forgets the splits it"
                    + " assigned, and a failed checkpoint does not fail it")
    void checkpointsByDefault() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        TieringJob.checkpointToForgetAssignedSplits(env, Duration.ofSeconds(45));
        assertThat(env.getCheckpointConfig().isCheckpointingEnabled()).isTrue();
        assertThat(env.getCheckpointConfig().getCheckpointInterval()).isEqualTo(45_000L);
        assertThat(env.getCheckpointConfig().getTolerableCheckpointFailureNumber())
                .isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    @DisplayName("a checkpoint interval from the user's Flink configuration is kept")
    void keepsTheUsersCheckpointInterval() {
        Configuration user = new Configuration();
        user.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMinutes(7));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(user);
        TieringJob.checkpointToForgetAssignedSplits(env, Duration.ofSeconds(45));
        assertThat(env.getCheckpointConfig().getCheckpointInterval()).isEqualTo(420_000L);
    }
}
