package dev.tributary.planner.advice;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.coordinator.tiering.QueuePolicy;
import dev.tributary.planner.PlanReport;
import dev.tributary.planner.TieringPlanner;
import dev.tributary.planner.report.PlanText;
import dev.tributary.planner.sim.SimulationResult;
import dev.tributary.planner.sim.SimulationSettings;
import dev.tributary.planner.workload.JobLoad;
import dev.tributary.planner.workload.ReaderModel;
import dev.tributary.planner.workload.TableLoad;
import dev.tributary.planner.workload.Workload;
import dev.tributary.planner.yaml.WorkloadFile;
import dev.tributary.tiering.api.CommitOrder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Each recommendation is a simulated change that makes a missing table meet its target. */
class RecommenderTest {
    static final SimulationSettings SETTINGS =
            new SimulationSettings(Duration.ofMinutes(30), null, 5);
    static final ReaderModel READER =
            new ReaderModel(10e6, 10e6, Duration.ofMillis(100), Duration.ofMillis(300), 1_000_000);

    static Workload workload(int parallelism, ReaderModel reader, TableLoad... tables) {
        return new Workload(
                QueuePolicy.DEADLINE,
                CommitOrder.COMPLETION,
                Duration.ZERO,
                List.of(new JobLoad("job", null, parallelism, reader)),
                List.of(tables));
    }

    static TableLoad table(
            String name, int buckets, long freshnessSec, double bytesPerSec, boolean pk) {
        return new TableLoad(
                name,
                null,
                buckets,
                Duration.ofSeconds(freshnessSec),
                null,
                pk,
                bytesPerSec / 100,
                100,
                1,
                0,
                true,
                null,
                null);
    }

    static Recommendation only(PlanReport r, Recommendation.Kind kind) {
        List<Recommendation> of =
                r.recommendations().stream().filter(x -> x.kind() == kind).toList();
        assertThat(of).as(PlanText.format(r, 0)).hasSize(1);
        return of.get(0);
    }

    @Test
    @DisplayName(
            "T44 T16 fifo with tables queueing: the deadline policy is suggested first; it cuts"
                    + " the 1-min table's p99 by more than half without making another table miss")
    void deadlinePolicy() throws IOException {
        var file = Paths.get("..", "conf", "plan", "seed-walkthrough-archives.yaml");
        WorkloadFile.Parsed p =
                WorkloadFile.parse(Files.readString(file, StandardCharsets.UTF_8), file.toString());
        PlanReport r = TieringPlanner.plan(p.workload(), p.settings(), true);
        Recommendation first = r.recommendations().get(0);
        assertThat(first.kind()).as(PlanText.format(r, 0)).isEqualTo(Recommendation.Kind.POLICY);
        assertThat(first.variant().queuePolicy()).isEqualTo(QueuePolicy.DEADLINE);
        assertThat(first.nowMissed()).isEmpty();
        assertThat(first.result().table("clicks").lagP99Millis())
                .isLessThan(r.prediction().table("clicks").lagP99Millis() / 2);
        assertThat(PlanText.format(r, 0))
                .contains("1. queue policy: fifo -> deadline")
                .contains("clicks still misses (p99 8m42s -> 3m27s)");
    }

    @Test
    @DisplayName(
            "T44 an overloaded job: more parallelism, the fewest readers with which every table of"
                    + " its group meets its target")
    void parallelism() {
        Workload w =
                workload(
                        1,
                        READER,
                        table("a", 8, 30, 4e6, false),
                        table("b", 8, 30, 4e6, false),
                        table("c", 8, 30, 4e6, false));
        PlanReport r = TieringPlanner.plan(w, SETTINGS, true);
        assertThat(r.allMet()).isFalse();
        Recommendation rec = only(r, Recommendation.Kind.PARALLELISM);
        int p = rec.variant().jobs().get(0).parallelism();
        assertThat(rec.result().tables()).allMatch(SimulationResult.TableOutcome::met);
        // and one reader fewer does not do it
        SimulationResult fewer =
                TieringPlanner.predict(w.withJob("job", j -> j.withParallelism(p - 1)), SETTINGS);
        assertThat(fewer.tables()).anyMatch(t -> !t.met());
        assertThat(rec.change()).contains("1 -> " + p + " readers");
    }

    @Test
    @DisplayName(
            "T44 a read-bound table with few buckets and readers to spare: more buckets (a"
                    + " re-create), where more readers or a looser freshness do not help")
    void buckets() {
        // a primary-key table's changelog range is never cut (T5): 2 buckets, 2 splits
        Workload w = workload(8, READER, table("pk", 2, 30, 10e6, true));
        PlanReport r = TieringPlanner.plan(w, SETTINGS, true);
        assertThat(r.prediction().table("pk").met()).isFalse();
        assertThat(r.prediction().table("pk").dataShare()).isGreaterThan(0.9);
        Recommendation rec = only(r, Recommendation.Kind.BUCKETS);
        assertThat(rec.recreate()).isTrue();
        assertThat(rec.how()).contains("re-create");
        assertThat(rec.variant().table("pk").buckets()).isGreaterThan(2);
        assertThat(rec.result().table("pk").met()).isTrue();
        assertThat(r.recommendations()).noneMatch(x -> x.kind() == Recommendation.Kind.PARALLELISM);
    }

    @Test
    @DisplayName(
            "T44 rounds bound by per-split overhead: a looser freshness meets the (looser) target;"
                    + " so do more readers")
    void looserFreshness() {
        ReaderModel slowSplits =
                new ReaderModel(
                        10e6, 10e6, Duration.ofSeconds(1), Duration.ofMillis(300), 1_000_000);
        Workload w = workload(2, slowSplits, table("t", 16, 10, 0.1e6, false));
        PlanReport r = TieringPlanner.plan(w, SETTINGS, true);
        assertThat(r.prediction().table("t").met()).isFalse();
        Recommendation f = only(r, Recommendation.Kind.FRESHNESS);
        assertThat(f.variant().table("t").freshness()).isGreaterThan(Duration.ofSeconds(10));
        assertThat(f.how()).contains("table.datalake.freshness=");
        assertThat(f.result().table("t").met()).isTrue();
        only(r, Recommendation.Kind.PARALLELISM);
    }

    @Test
    @DisplayName(
            "T44 a small table waiting behind a heavy one: the heavy one in its own group and job")
    void separateGroup() {
        Workload w =
                workload(
                        4,
                        READER,
                        table("heavy", 16, 60, 12e6, false),
                        table("small", 1, 5, 0.01e6, false));
        PlanReport r = TieringPlanner.plan(w, SETTINGS, true);
        assertThat(r.prediction().table("small").met()).as(PlanText.format(r, 0)).isFalse();
        Recommendation g = only(r, Recommendation.Kind.GROUP);
        assertThat(g.change()).contains("move heavy");
        assertThat(g.variant().jobs()).hasSize(2);
        assertThat(g.variant().table("heavy").group()).isEqualTo("heavy");
        assertThat(g.result().table("small").met()).isTrue();
        assertThat(g.how()).contains("table.datalake.tiering.group=heavy");
    }

    @Test
    @DisplayName("T44 nothing to recommend when every table meets its target")
    void nothingWhenMet() {
        Workload w = workload(4, READER, table("t", 4, 60, 0.1e6, false));
        PlanReport r = TieringPlanner.plan(w, SETTINGS, true);
        assertThat(r.allMet()).isTrue();
        assertThat(r.recommendations()).isEmpty();
        assertThat(r.simulations()).isEqualTo(1);
    }
}
