package dev.tributary.coordinator.tiering;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.coordinator.TieringHarness;
import dev.tributary.coordinator.metadata.TableChange;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.RoundPlan;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** T13 on the coordinator: it names rounds past their freshness in heartbeat answers. */
class ForceFinishTest {
    private final TieringHarness h = new TieringHarness();

    private List<Attempt> beat(RoundPlan p) {
        return h.heartbeat("job", List.of(new Attempt(p.tableId(), p.epoch())), List.of(), false)
                .forceFinish();
    }

    @Test
    @DisplayName("T13 a round running for its table's freshness is named for force-finish")
    void aRoundPastItsFreshnessIsForceFinished() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofSeconds(10));
        h.advance(t.freshness());
        h.writeAll(t, 10);
        RoundPlan p = h.request("job");

        h.advanceAlive(Duration.ofSeconds(9), "job");
        assertThat(beat(p)).isEmpty();
        h.advanceAlive(Duration.ofSeconds(1), "job");
        assertThat(beat(p)).containsExactly(new Attempt(p.tableId(), p.epoch()));
    }

    @Test
    @DisplayName("T10 T13 a freshness shortened during a round cuts that round at the new value")
    void aFreshnessAlteredDuringTheRoundAppliesToIt() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(10));
        h.advance(t.freshness());
        h.writeAll(t, 10);
        RoundPlan p = h.request("job");
        h.advanceAlive(Duration.ofSeconds(30), "job");
        assertThat(beat(p)).isEmpty();

        h.core.alterTable(t.path(), List.of(TableChange.set("table.datalake.freshness", "20s")));
        assertThat(beat(p)).containsExactly(new Attempt(p.tableId(), p.epoch()));
    }

    @Test
    @DisplayName("T13 a committing round is not named: its commit decides")
    void aCommittingRoundIsNotNamed() {
        h.io.autoRun(false);
        TableInfo t = h.lakeTable("t", 1, Duration.ofSeconds(10));
        h.advance(t.freshness());
        h.writeAll(t, 10);
        RoundPlan p = h.request("job");
        h.commitAll("job", p);
        h.advanceAlive(Duration.ofSeconds(20), "job");
        assertThat(beat(p)).isEmpty();
    }
}
