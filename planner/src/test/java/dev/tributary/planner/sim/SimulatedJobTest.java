package dev.tributary.planner.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.tributary.coordinator.tiering.QueuePolicy;
import dev.tributary.planner.sim.SimulationResult.Event;
import dev.tributary.planner.sim.SimulationResult.EventKind;
import dev.tributary.planner.workload.JobLoad;
import dev.tributary.planner.workload.ReaderModel;
import dev.tributary.planner.workload.TableLoad;
import dev.tributary.planner.workload.Workload;
import dev.tributary.tiering.api.CommitOrder;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The modeled job on the real coordinator: round durations follow from bytes, readers, skew,
 * overhead and commit time exactly as the model says, and the coordinator's scheduling does the
 * rest.
 */
class SimulatedJobTest {
    /** 10 MB/s per reader, 100 ms per split, 400 ms per commit. */
    static final ReaderModel READER =
            new ReaderModel(10e6, 5e6, Duration.ofMillis(100), Duration.ofMillis(400), 1_000_000);

    static SimulationResult run(int parallelism, ReaderModel reader, TableLoad... tables) {
        Workload w =
                new Workload(
                        QueuePolicy.DEADLINE,
                        CommitOrder.COMPLETION,
                        Duration.ZERO,
                        List.of(new JobLoad("job", null, parallelism, reader)),
                        List.of(tables));
        return new TieringSimulator(w, new SimulationSettings(Duration.ofMinutes(20), null, 3))
                .run();
    }

    static TableLoad log(
            String name, int buckets, long freshnessSec, double bytesPerSec, double skew) {
        return new TableLoad(
                name,
                null,
                buckets,
                Duration.ofSeconds(freshnessSec),
                null,
                false,
                bytesPerSec / 100,
                100,
                skew,
                0,
                true,
                null,
                null);
    }

    @Test
    @DisplayName(
            "T44 T4 a round alone on enough readers: overhead + its slowest split's bytes /"
                    + " throughput + commit; the lag peaks at freshness + 2 rounds")
    void roundDurationFromBytes() {
        // 4 buckets, 4 MB/s: each bucket gets 1 MB/s; a round reads (freshness + round) of it
        SimulationResult r = run(4, READER, log("t", 4, 30, 4e6, 1));
        SimulationResult.TableOutcome t = r.table("t");
        // D = 100 ms + (30 s + D) x 1 MB/s / 10 MB/s + 400 ms  =>  D = 3.5 s / 0.9 = 3.889 s
        assertThat(t.roundAvgMillis()).isCloseTo(3_889L, within(15L));
        assertThat(t.queueWaitAvgMillis()).isZero();
        // the seed's rule: peak = freshness + 2 rounds (the cutoff is taken at the hand-out)
        assertThat(t.lagPeakMillis()).isCloseTo(30_000L + 2 * 3_889L, within(40L));
        assertThat(t.forceFinished()).isZero();
        assertThat(t.dataShare()).isCloseTo(3_389.0 / 3_889, within(0.01));
    }

    @Test
    @DisplayName(
            "T44 jitter: rounds scatter around the model, the mean round stays, p99 and peak lag"
                    + " grow; the same seed gives the same run")
    void jitter() {
        TableLoad t = log("t", 4, 10, 8e6, 1);
        SimulationResult exact = run(4, READER, t);
        SimulationResult scattered = run(4, READER.withJitter(0.5), t);
        assertThat(scattered.table("t").roundAvgMillis())
                .isCloseTo(
                        exact.table("t").roundAvgMillis(),
                        within(exact.table("t").roundAvgMillis() / 8));
        assertThat(scattered.table("t").roundMaxMillis())
                .isGreaterThan(exact.table("t").roundMaxMillis() * 3 / 2);
        assertThat(scattered.table("t").lagPeakMillis())
                .isGreaterThan(exact.table("t").lagPeakMillis());
        assertThat(run(4, READER.withJitter(0.5), t).tables()).isEqualTo(scattered.tables());
    }

    @Test
    @DisplayName("T44 a table's own lake commit time replaces its job's")
    void tableCommitTime() {
        TableLoad t = log("t", 4, 30, 0.04e6, 1);
        long jobs = run(4, READER, t).table("t").roundAvgMillis();
        long own =
                run(4, READER, t.withCommitTime(Duration.ofMillis(2_400)))
                        .table("t")
                        .roundAvgMillis();
        assertThat(own - jobs).isCloseTo(2_000L, within(10L));
    }

    @Test
    @DisplayName("T44 T3 fewer readers than splits: the round runs in waves")
    void waves() {
        // 8 buckets on 2 readers: 4 waves of (100 ms + 1 MB-ish) splits
        SimulationResult one = run(8, READER, log("t", 8, 30, 8e6, 1));
        SimulationResult two = run(2, READER, log("t", 8, 30, 8e6, 1));
        long d8 = one.table("t").roundAvgMillis();
        long d2 = two.table("t").roundAvgMillis();
        // with 8 readers: 0.5 s + 0.1 x (30 + D) => D = 3.5/0.9; with 2: 4 x (0.1 + 0.1 x
        // (30+D)/... )
        assertThat(d2).isGreaterThan(3 * (d8 - 400));
        Event granted = two.eventsOf("t", EventKind.GRANTED).get(1);
        assertThat(granted.splits()).isEqualTo(8);
        assertThat(granted.idleReaders()).isEqualTo(2);
    }

    @Test
    @DisplayName(
            "T44 T4 T5 a hot bucket sets the round: skew 3 makes its split three times the mean,"
                    + " unless T5 cuts it")
    void hotBucket() {
        ReaderModel uncut =
                new ReaderModel(
                        10e6, 5e6, Duration.ofMillis(100), Duration.ofMillis(400), Long.MAX_VALUE);
        SimulationResult even = run(8, uncut, log("t", 8, 60, 8e6, 1));
        SimulationResult hot = run(8, uncut, log("t", 8, 60, 8e6, 3));
        // D = 0.5 s + (60 s + D) x (bucket rate / 10 MB/s): even 1 MB/s, hot 3 MB/s
        assertThat(even.table("t").roundAvgMillis()).isCloseTo(7_222L, within(15L));
        // (the first rounds read less, so the mean approaches the fixed point from below)
        assertThat(hot.table("t").roundAvgMillis()).isCloseTo(26_429L, within(400L));
        // with split-max-records 1,000,000 the hot bucket's ~2 million records are cut in 3
        SimulationResult cut = run(8, READER, log("t", 8, 60, 8e6, 3));
        assertThat(cut.eventsOf("t", EventKind.GRANTED).get(1).splits()).isEqualTo(10);
        assertThat(cut.table("t").roundAvgMillis()).isLessThan(12_000);
    }

    @Test
    @DisplayName("T44 T5 a log bucket past split-max-records is cut into several splits")
    void bigBucketsAreCut() {
        ReaderModel small =
                new ReaderModel(10e6, 5e6, Duration.ofMillis(100), Duration.ZERO, 10_000);
        // 2 buckets of 50,000 records per 10 s round: 5+ splits each
        SimulationResult r = run(16, small, log("t", 2, 10, 1e6, 1));
        Event g = r.eventsOf("t", EventKind.GRANTED).get(2);
        assertThat(g.splits()).isGreaterThanOrEqualTo(10);
    }

    @Test
    @DisplayName(
            "T44 T7 T14 a primary-key table never tiered first reads its KV state at the snapshot"
                    + " throughput; later rounds read its changelog")
    void pkFirstRoundReadsTheState() {
        TableLoad pk =
                new TableLoad(
                        "pk",
                        null,
                        4,
                        Duration.ofMinutes(1),
                        null,
                        true,
                        1000,
                        100,
                        1,
                        400_000_000,
                        false,
                        null,
                        null);
        SimulationResult r = run(4, READER, pk);
        SimulationResult.TableOutcome t = r.table("pk");
        // 100 MB per bucket at 5 MB/s = 20 s, + 100 ms + 400 ms commit; force-finish does not cut
        // snapshot splits even though... (20.5 s < 60 s here anyway)
        assertThat(t.firstRoundMillis()).isCloseTo(20_500L, within(5L));
        assertThat(t.roundAvgMillis()).isLessThan(1_000);
    }

    @Test
    @DisplayName(
            "T44 T13 rounds longer than the freshness are force-finished: partial commits, the rest"
                    + " queued at once")
    void forceFinish() {
        // 2 readers, 16 buckets of 10 MB/s-worth: far more than 10 s of work per round
        SimulationResult r = run(2, READER, log("t", 16, 10, 16e6, 1));
        SimulationResult.TableOutcome t = r.table("t");
        assertThat(t.forceFinished()).isGreaterThan(t.rounds() / 2);
        assertThat(t.met()).isFalse();
        assertThat(r.eventsOf("t", EventKind.FORCE_FINISHED)).isNotEmpty();
        Event ff = r.eventsOf("t", EventKind.FORCE_FINISHED).get(0);
        assertThat(ff.durationMillis()).isEqualTo(10_000);
    }

    @Test
    @DisplayName("T44 T3 read pipelining: spare readers take the next table while one still reads")
    void pipelining() {
        TableLoad a = log("a", 2, 20, 2e6, 1);
        TableLoad b = log("b", 2, 20, 2e6, 1);
        SimulationResult r = run(4, READER, a, b);
        // both first rounds granted at the same instant, each on 2 of the 4 readers
        long ga = r.eventsOf("a", EventKind.GRANTED).get(0).atMillis();
        Event gb = r.eventsOf("b", EventKind.GRANTED).get(0);
        assertThat(gb.atMillis()).isEqualTo(ga);
        assertThat(gb.idleReaders()).isEqualTo(2);
    }
}
