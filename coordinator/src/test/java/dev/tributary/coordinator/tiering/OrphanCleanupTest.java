package dev.tributary.coordinator.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.coordinator.TieringHarness;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.lake.api.commit.OrphanPolicy;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.api.RoundReport;
import dev.tributary.tiering.api.RoundStats;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** T23 on the coordinator: which write results it deletes, and when it sweeps orphans. */
class OrphanCleanupTest {
    private final TieringHarness h = new TieringHarness();
    private final byte[] a = {1};
    private final byte[] b = {2};

    private RoundPlan round(TableInfo t) {
        h.advance(t.freshness());
        h.writeAll(t, 10);
        return h.request("job");
    }

    private CompletableFuture<Long> commit(RoundPlan p, List<byte[]> results, List<byte[]> gone) {
        return commit("job", p, results, gone);
    }

    private CompletableFuture<Long> commit(
            String job, RoundPlan p, List<byte[]> results, List<byte[]> gone) {
        CompletableFuture<Long> f =
                h.tiering()
                        .commit(
                                new RoundCommit(
                                        job,
                                        p.tableId(),
                                        p.epoch(),
                                        p.roundId(),
                                        RoundCommit.keyed(TieringHarness.fullEnds(p)),
                                        results,
                                        gone,
                                        RoundStats.EMPTY,
                                        false));
        h.loop.runReady();
        return f;
    }

    @Test
    @DisplayName("T23 results a failed round reports are deleted at once")
    void resultsOfAFailedRoundAreAborted() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        RoundPlan p = round(t);
        h.heartbeat(
                "job",
                List.of(),
                List.of(RoundReport.failed(t.tableId(), p.epoch(), "split failed", List.of(a))),
                false);

        assertThat(h.lake.aborted()).containsExactly(a);
        h.assertState(t, TieringState.FAILED);
    }

    @Test
    @DisplayName("T19 T23 a fenced commit's results are deleted: that attempt can never commit")
    void resultsOfAFencedCommitAreAborted() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        RoundPlan p = round(t);
        // the job goes silent, the table is failed and handed to another job
        h.advance(h.config.heartbeatTimeout().plus(h.config.backoffMax()));
        RoundPlan newer = h.request("other");
        assertThat(newer.epoch()).isGreaterThan(p.epoch());

        assertThat(commit(p, List.of(a), List.of(b))).isCompletedExceptionally();
        assertThat(h.lake.aborted()).containsExactlyInAnyOrder(a, b);
        assertThat(h.lake.commits()).isEmpty();
    }

    @Test
    @DisplayName("T23 a late duplicate of a committed attempt never deletes its live files")
    void aDuplicateOfTheLastCommittedRoundIsNotAborted() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        RoundPlan p = round(t);
        commit(p, List.of(a), List.of()).join();

        assertThat(commit(p, List.of(a), List.of())).isCompletedExceptionally();
        assertThat(h.lake.aborted()).isEmpty();
    }

    @Test
    @DisplayName("T23 the first commit after a failure sweeps the files of every dead attempt")
    void theCommitAfterAFailureSweepsOrphans() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        commit(round(t), List.of(a), List.of()).join();
        assertThat(h.lake.sweeps()).as("nothing failed since the start's own sweep").hasSize(0);

        RoundPlan p = round(t);
        // the job dies mid-round: nobody reports; the heartbeat timeout fails the attempt
        h.advance(h.config.heartbeatTimeout().plus(h.config.heartbeatTimeout()));
        assertThat(h.tiering().tableStatus(t.tableId()).orElseThrow().lastFailure())
                .contains("no heartbeat");
        h.advance(h.config.backoffMax());
        RoundPlan retry = h.request("other");
        commit("other", retry, List.of(b), List.of()).join();

        assertThat(h.lake.sweeps())
                .singleElement()
                .satisfies(
                        s -> {
                            assertThat(s.tableId()).isEqualTo(t.tableId());
                            assertThat(s.deadUpToEpoch())
                                    .isEqualTo(retry.epoch())
                                    .isGreaterThan(p.epoch());
                        });
        h.advance(t.freshness());
        h.writeAll(t, 10);
        commit("other", h.request("other"), List.of(a), List.of()).join();
        assertThat(h.lake.sweeps()).as("one sweep per failure").hasSize(1);
    }

    @Test
    @DisplayName("T23 after a restart the first commit sweeps: a crash may have left files")
    void theFirstCommitAfterARestartSweeps() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        commit(round(t), List.of(a), List.of()).join();
        h.restart();
        commit(round(t), List.of(b), List.of()).join();

        List<OrphanPolicy> sweeps = h.lake.sweeps();
        assertThat(sweeps).hasSize(1);
        assertThat(h.tiering().record(t.tableId()).orElseThrow().tieredOffsets())
                .isEqualTo(new TreeMap<>(Map.of(0, 20L)));
    }
}
