package dev.tributary.coordinator.tiering;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.StorageException;
import dev.tributary.coordinator.FakeLake;
import dev.tributary.coordinator.TieringHarness;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.lake.api.commit.TieringSnapshotProperties;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.BucketPlan;
import dev.tributary.tiering.api.CommitOrder;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.api.RoundReport;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CommitTest {
    private final TieringHarness h = new TieringHarness();

    private RoundPlan firstRound(TableInfo t, long perBucket) {
        h.advance(t.freshness());
        h.writeAll(t, perBucket);
        return h.request("job");
    }

    private static Throwable cause(CompletableFuture<?> f) {
        assertThat(f).isCompletedExceptionally();
        try {
            f.join();
            throw new AssertionError("not failed");
        } catch (CompletionException e) {
            return e.getCause();
        }
    }

    @Test
    @DisplayName(
            "T19 T28 a commit records offsets, snapshot id, time and round stats atomically, then Tiered -> Scheduled")
    void t19CommitRecords() {
        TableInfo t = h.lakeTable("t", 2, Duration.ofMinutes(1));
        RoundPlan p = firstRound(t, 10);
        long start = h.clock.currentTimeMillis();
        h.io.autoRun(false);
        CompletableFuture<Long> f = h.commitAll("job", p);
        assertThat(h.tiering().tableStatus(t.tableId()).orElseThrow().commitInFlight()).isTrue();
        h.advanceAlive(Duration.ofSeconds(4), "job"); // a slow lake commit
        h.io.runOne();
        h.loop.runReady();
        long snap = f.join();
        var rec = h.tiering().record(t.tableId()).orElseThrow();
        var round = h.tiering().tableStatus(t.tableId()).orElseThrow().lastRound();
        assertThat(round.startMillis()).isEqualTo(start);
        assertThat(round.endMillis()).isEqualTo(start + 4000);
        assertThat(round.durationMillis()).isEqualTo(4000);
        // the lake's figures (FakeLake: one file per result, its length in bytes), and the job's
        assertThat(round.rows()).isEqualTo(1);
        assertThat(round.bytes()).isEqualTo(3);
        assertThat(round.files()).isEqualTo(1);
        assertThat(round.recordsRead()).isEqualTo(10);
        assertThat(round.bytesRead()).isEqualTo(100);
        assertThat(round.forceFinished()).isFalse();
        assertThat(round.lakeSnapshotId()).isEqualTo(snap);
        assertThat(rec.tieredOffsets())
                .containsExactlyEntriesOf(new java.util.TreeMap<>(Map.of(0, 10L, 1, 10L)));
        assertThat(rec.lakeSnapshotId()).isEqualTo(snap);
        assertThat(rec.lastTieredTimeMillis()).isEqualTo(h.clock.currentTimeMillis());
        assertThat(h.store.tieringRecord(t.tableId()).orElseThrow()).isEqualTo(rec);
        h.assertState(t, TieringState.SCHEDULED);
        var lakeReq = h.lake.commits().get(0);
        assertThat(lakeReq.props().epoch()).isEqualTo(p.epoch());
        assertThat(lakeReq.props().roundId()).isEqualTo(p.roundId());
        assertThat(lakeReq.results())
                .singleElement()
                .satisfies(r -> assertThat(r).containsExactly(1, 2, 3));
        assertThat(lakeReq.props().bucketOffsets()).isEqualTo(rec.tieredOffsets());
    }

    @Test
    @DisplayName(
            "T19 a stale attempt paused before its commit never reaches the lake after it was timed out and reassigned")
    void t19PausedStaleAttemptIsFenced() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        RoundPlan a = firstRound(t, 10);
        // Job A pauses (GC, network partition) past the timeout.
        h.advance(h.config.heartbeatTimeout().plusSeconds(2));
        h.advance(h.config.backoffBase());
        h.assertState(t, TieringState.PENDING);
        RoundPlan b = h.request("job-b");
        assertThat(b.epoch()).isGreaterThan(a.epoch());
        // A wakes up and commits: fenced, nothing in the lake.
        Throwable e = cause(h.commitAll("job", a));
        assertThat(e).isInstanceOf(FencedException.class).hasMessageContaining("stale");
        assertThat(h.lake.commits()).isEmpty();
        // B commits fine.
        h.commitAll("job-b", b).join();
        assertThat(h.lake.commits()).hasSize(1);
    }

    @Test
    @DisplayName(
            "T19 while a lake commit is in flight the table is neither timed out nor reassigned; the outcome is recorded first")
    void t19CommitInFlightHoldsTheTable() {
        h.io.autoRun(false);
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        RoundPlan p = firstRound(t, 10);
        CompletableFuture<Long> f = h.commitAll("job", p);
        assertThat(f).isNotDone();
        assertThat(h.io.size()).isEqualTo(1);
        // The job dies while the lake commit is slow (but within tiering.commit.timeout).
        h.advance(h.config.commitTimeout().minusSeconds(1));
        h.assertState(t, TieringState.TIERING);
        assertThat(h.request("other")).isNull();
        // A retry of the same commit joins the running one.
        assertThat(h.commitAll("job", p)).isSameAs(f);
        h.io.runOne();
        h.loop.runReady();
        assertThat(f.join()).isPositive();
        assertThat(h.store.tieringRecord(t.tableId()).orElseThrow().tieredOffsets())
                .containsEntry(0, 10L);
        h.assertState(t, TieringState.SCHEDULED);
    }

    @Test
    @DisplayName(
            "T21 T22 a lake commit past tiering.commit.timeout fails the round and the table moves on")
    void aCommitPastTheTimeoutFailsTheRoundInsteadOfHoldingTheTable() {
        h.io.autoRun(false);
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        RoundPlan p = firstRound(t, 10);
        CompletableFuture<Long> f = h.commitAll("job", p);
        h.advance(h.config.commitTimeout());

        assertThat(cause(f)).isInstanceOf(StorageException.class).hasMessageContaining("timeout");
        h.assertState(t, TieringState.FAILED);
        // the commit never started (the lake I/O pool was busy): it will never run
        h.io.runOne();
        h.loop.runReady();
        assertThat(h.lake.commits()).isEmpty();
        h.advance(h.config.backoffBase());
        RoundPlan retry = h.request("job");
        assertThat(retry.epoch()).isGreaterThan(p.epoch());
        assertThat(retry.buckets()).containsExactly(BucketPlan.log(0, 0, 10));
    }

    @Test
    @DisplayName(
            "T19 commit validation: offsets past the cutoff or before the start are rejected and fail only the round")
    void t19OffsetsValidated() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        RoundPlan p = firstRound(t, 10);
        Throwable e = cause(h.commit("job", p, Map.of(0, 11L), false));
        assertThat(e).isInstanceOf(InvalidInputException.class).hasMessageContaining("[0, 10]");
        h.assertState(t, TieringState.FAILED);
        assertThat(h.lake.commits()).isEmpty();
    }

    @Test
    @DisplayName(
            "T20 results of a stale round id, or of a dropped and re-created table, are fenced")
    void t20StaleRoundAndRecreatedTable() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        RoundPlan p = firstRound(t, 10);
        var wrongRound =
                h.tiering()
                        .commit(
                                RoundCommit.of(
                                        "job",
                                        p.tableId(),
                                        p.epoch(),
                                        p.roundId() + 1,
                                        Map.of(0, 10L),
                                        List.of(),
                                        null,
                                        false));
        assertThat(cause(wrongRound))
                .isInstanceOf(FencedException.class)
                .hasMessageContaining("round");
        h.core.dropTable(t.path(), false);
        TableInfo again = h.lakeTable("t", 1, Duration.ofMinutes(1));
        assertThat(again.tableId()).isNotEqualTo(t.tableId());
        assertThat(cause(h.commitAll("job", p))).isInstanceOf(FencedException.class);
        assertThat(h.lake.commits()).isEmpty();
        assertThat(h.store.tieringRecord(again.tableId()).orElseThrow().tieredOffsets()).isEmpty();
    }

    @Test
    @DisplayName(
            "T20 a table dropped while its commit runs is not resurrected by the commit's record")
    void t20DropDuringCommit() {
        h.io.autoRun(false);
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        RoundPlan p = firstRound(t, 10);
        CompletableFuture<Long> f = h.commitAll("job", p);
        h.core.dropTable(t.path(), false);
        h.io.runOne();
        h.loop.runReady();
        assertThat(f).isDone();
        assertThat(h.store.load().tables()).doesNotContainKey(t.tableId());
        assertThat(h.store.tieringRecord(t.tableId())).isEmpty();
        assertThat(h.tiering().state(t.tableId())).isEmpty();
    }

    @Test
    @DisplayName(
            "T21 a lake snapshot the coordinator never recorded (crash between the two) is adopted before the next round")
    void t21AdoptUnknownSnapshotAfterRestart() {
        TableInfo t = h.lakeTable("t", 2, Duration.ofMinutes(1));
        RoundPlan p = firstRound(t, 10);
        h.commitAll("job", p).join();
        h.writeAll(t, 10);
        h.advance(Duration.ofMinutes(1));
        RoundPlan p2 = h.request("job");
        // The lake commit of round 2 lands, then the coordinator crashes before recording it.
        var props =
                TieringSnapshotProperties.of(
                        t.tableId(),
                        p2.epoch(),
                        p2.roundId(),
                        Map.of(0, 20L, 1, 20L),
                        h.clock.currentTimeMillis());
        long lakeSnap = h.lake.append(props);
        h.restart();
        h.writeAll(t, 5);
        h.advance(Duration.ofMinutes(1));
        var rec = h.tiering().record(t.tableId()).orElseThrow();
        assertThat(rec.lakeSnapshotId()).isEqualTo(lakeSnap);
        assertThat(rec.tieredOffsets()).containsEntry(0, 20L).containsEntry(1, 20L);
        RoundPlan p3 = h.request("job");
        assertThat(p3.buckets())
                .containsExactly(BucketPlan.log(0, 20, 25), BucketPlan.log(1, 20, 25));
        assertThat(p3.epoch()).isGreaterThan(p2.epoch());
    }

    @Test
    @DisplayName(
            "T21 a lake commit that landed but reported an error is reconciled: no data lost, none duplicated")
    void t21AmbiguousCommitReconciled() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        RoundPlan p = firstRound(t, 10);
        h.lake.failNextCommit(FakeLake.Mode.COMMIT_THEN_FAIL);
        assertThat(cause(h.commitAll("job", p))).isInstanceOf(StorageException.class);
        h.assertState(t, TieringState.FAILED);
        h.advance(h.config.backoffBase());
        h.assertState(t, TieringState.PENDING);
        assertThat(h.tiering().record(t.tableId()).orElseThrow().tieredOffsets())
                .containsEntry(0, 10L);
        assertThat(h.request("job")).isNull(); // nothing new: the 10 records are in the lake once
        h.writeAll(t, 3);
        h.advance(Duration.ofMinutes(1));
        assertThat(h.request("job").buckets()).containsExactly(BucketPlan.log(0, 10, 13));
    }

    @Test
    @DisplayName(
            "T19 T49 a round the lake refuses (another coordinator's late round landed) is dropped,"
                    + " its files deleted, and the table goes on from the lake's round")
    void t49ARoundTheLakeFencesIsDroppedAndTheTableAdoptsTheLakesRound() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        RoundPlan p1 = firstRound(t, 10);
        h.commitAll("job", p1).join();
        h.writeAll(t, 10);
        h.advance(Duration.ofMinutes(1));
        RoundPlan p2 = h.request("job");
        assertThat(p2.buckets()).containsExactly(BucketPlan.log(0, 10, 20));
        // a coordinator paused in its commit of the same offsets wakes and lands it
        h.lake.append(
                TieringSnapshotProperties.of(
                        t.tableId(),
                        p1.epoch(),
                        p1.roundId() + 1,
                        Map.of(0, 20L),
                        h.clock.currentTimeMillis()));
        int abortedBefore = h.lake.aborted().size();

        assertThat(cause(h.commitAll("job", p2)))
                .isInstanceOf(StorageException.class)
                .hasRootCauseInstanceOf(FencedException.class);
        assertThat(h.lake.snapshots(t.tableId())).hasSize(2);
        assertThat(h.lake.aborted()).hasSizeGreaterThan(abortedBefore);
        h.assertState(t, TieringState.FAILED);
        h.advance(h.config.backoffBase());
        h.assertState(t, TieringState.PENDING);
        assertThat(h.tiering().record(t.tableId()).orElseThrow().tieredOffsets())
                .containsEntry(0, 20L);
        assertThat(h.request("job")).as("[10, 20) is in the lake once").isNull();
        h.writeAll(t, 3);
        h.advance(Duration.ofMinutes(1));
        assertThat(h.request("job").buckets()).containsExactly(BucketPlan.log(0, 20, 23));
    }

    @Test
    @DisplayName(
            "T27 T21 a round that wrote nothing (records that cancel out) is no rollback after a"
                    + " restart: the lake's newest round is older than the record's, not behind it")
    void t27AnEmptyRoundIsNoRollbackAfterARestart() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        RoundPlan p1 = firstRound(t, 10);
        h.commitAll("job", p1).join();
        h.writeAll(t, 4);
        h.advance(Duration.ofMinutes(1));
        RoundPlan p2 = h.request("job");
        h.commitNothing("job", p2, Map.of(0, 14L)).join();
        assertThat(h.lake.snapshots(t.tableId())).hasSize(1);
        h.restart();
        h.writeAll(t, 3);
        h.advance(Duration.ofMinutes(1));
        RoundPlan p3 = h.request("job");
        assertThat(h.tiering().tableStatus(t.tableId()).orElseThrow().lastFailure()).isNull();
        assertThat(p3).isNotNull();
        assertThat(p3.buckets()).containsExactly(BucketPlan.log(0, 14, 17));
    }

    @Test
    @DisplayName("T21 a lake behind the record stops the table visibly instead of re-tiering")
    void t21ALakeBehindTheRecordStopsTheTableVisibly() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        RoundPlan p = firstRound(t, 10);
        h.commitAll("job", p).join();
        // the lake table was rolled back to an older tiering snapshot
        h.lake.append(
                TieringSnapshotProperties.of(
                        t.tableId(), 1, 1, Map.of(0, 3L), h.clock.currentTimeMillis()));
        h.restart();
        h.writeAll(t, 5);
        h.advance(Duration.ofMinutes(5));

        assertThat(h.request("job")).as("no round may run from an inconsistent lake").isNull();
        var status = h.tiering().tableStatus(t.tableId()).orElseThrow();
        assertThat(status.lastFailure()).contains("rolled back");
        assertThat(status.consecutiveFailures()).isPositive();
        assertThat(h.tiering().record(t.tableId()).orElseThrow().tieredOffsets())
                .containsEntry(0, 10L);
    }

    @Test
    @DisplayName("T21 malformed tiering properties in the lake fail reconciliation visibly")
    void t21MalformedPropertiesFailReconciliationVisiblyUntilRepaired() {
        TableInfo t = h.lakeTable("t", 1, Duration.ofMinutes(1));
        RoundPlan p = firstRound(t, 10);
        h.commitAll("job", p).join();
        h.lake.corruptProperties(true);
        h.restart();
        h.writeAll(t, 5);
        h.advance(Duration.ofMinutes(5));

        assertThat(h.request("job")).as("never a silent re-tier").isNull();
        assertThat(h.tiering().tableStatus(t.tableId()).orElseThrow().lastFailure())
                .contains("malformed");

        h.lake.corruptProperties(false);
        h.advance(h.config.backoffMax());
        assertThat(h.request("job").buckets())
                .as("once the lake reads again, tiering resumes where it was")
                .containsExactly(BucketPlan.log(0, 10, 15));
    }

    @Test
    @DisplayName(
            "T22 a failed round fails only that table; it retries with exponential backoff up to the max")
    void t22BackoffPerTable() {
        TableInfo bad = h.lakeTable("bad", 1, Duration.ofMinutes(1));
        TableInfo good = h.lakeTable("good", 1, Duration.ofMinutes(1));
        h.advance(Duration.ofMinutes(1));
        h.writeAll(bad, 5);
        h.writeAll(good, 5);
        long base = h.config.backoffBase().toMillis();
        for (int i = 1; i <= 12; i++) {
            RoundPlan p = h.request("job");
            while (p != null && p.tableId() != bad.tableId()) {
                h.commitAll("job", p).join();
                h.writeAll(good, 1);
                p = h.request("job");
            }
            assertThat(p).as("attempt %d", i).isNotNull();
            h.heartbeat(
                    "job",
                    List.of(),
                    List.of(RoundReport.failed(bad.tableId(), p.epoch(), "schema mismatch")),
                    false);
            h.assertState(bad, TieringState.FAILED);
            long expected = Math.min(h.config.backoffMax().toMillis(), base << (i - 1));
            h.advanceMillis(expected - 1);
            h.assertState(bad, TieringState.FAILED);
            h.advanceMillis(1);
            h.assertState(bad, TieringState.PENDING);
        }
        var st = h.tiering().tableStatus(bad.tableId()).orElseThrow();
        assertThat(st.consecutiveFailures()).isEqualTo(12);
        assertThat(st.lastFailure()).isEqualTo("schema mismatch");
        assertThat(h.tiering().tableStatus(good.tableId()).orElseThrow().totalFailures()).isZero();
        // A success resets the backoff.
        RoundPlan p = h.request("job");
        while (p.tableId() != bad.tableId()) {
            h.commitAll("job", p).join();
            p = h.request("job");
        }
        h.commitAll("job", p).join();
        assertThat(h.tiering().tableStatus(bad.tableId()).orElseThrow().consecutiveFailures())
                .isZero();
    }

    @Test
    @DisplayName(
            "T22 a failing lake commit fails the round and retries with backoff; other tables keep committing")
    void t22LakeCommitFailure() {
        TableInfo a = h.lakeTable("a", 1, Duration.ofMinutes(1));
        TableInfo b = h.lakeTable("b", 1, Duration.ofMinutes(1));
        h.advance(Duration.ofMinutes(1));
        h.writeAll(a, 5);
        h.writeAll(b, 5);
        RoundPlan pa = h.request("job");
        RoundPlan pb = h.request("job");
        h.lake.failNextCommit(FakeLake.Mode.FAIL);
        assertThat(cause(h.commitAll("job", pa))).isInstanceOf(StorageException.class);
        assertThat(h.commitAll("job", pb).join()).isPositive();
        assertThat(h.state(pa.tableId())).isEqualTo(TieringState.FAILED);
        assertThat(h.state(pb.tableId())).isEqualTo(TieringState.SCHEDULED);
    }

    @Test
    @DisplayName(
            "T24 commits of different tables run concurrently on the pool; a slow one does not block another")
    void t24ConcurrentCommits() {
        h.io.autoRun(false);
        TableInfo a = h.lakeTable("a", 1, Duration.ofMinutes(1));
        TableInfo b = h.lakeTable("b", 1, Duration.ofMinutes(1));
        h.advance(Duration.ofMinutes(1));
        h.writeAll(a, 5);
        h.writeAll(b, 5);
        RoundPlan pa = h.request("job");
        RoundPlan pb = h.request("job");
        CompletableFuture<Long> fa = h.commitAll("job", pa);
        CompletableFuture<Long> fb = h.commitAll("job", pb);
        assertThat(h.io.size()).isEqualTo(2); // both submitted, neither waits for the other
        assertThat(fa).isNotDone();
        assertThat(fb).isNotDone();
    }

    @Test
    @DisplayName(
            "T25 completion order: a later-assigned table commits first; assignment order holds it until earlier ones resolve")
    void t25CommitOrder() {
        for (CommitOrder order : CommitOrder.values()) {
            TieringHarness x = new TieringHarness(TieringConfig.defaults().withCommitOrder(order));
            TableInfo a = x.lakeTable("a", 1, Duration.ofMinutes(1));
            TableInfo b = x.lakeTable("b", 1, Duration.ofMinutes(1));
            x.advance(Duration.ofMinutes(1));
            x.writeAll(a, 5);
            x.writeAll(b, 5);
            RoundPlan first = x.request("job");
            RoundPlan second = x.request("job");
            CompletableFuture<Long> f2 = x.commitAll("job", second);
            if (order == CommitOrder.COMPLETION) {
                assertThat(f2).isCompleted();
                assertThat(x.lake.commits())
                        .extracting(c -> c.props().tableId())
                        .containsExactly(second.tableId());
            } else {
                assertThat(f2).isNotDone();
                assertThat(x.lake.commits()).isEmpty();
                // Held commits are not timed out.
                x.advance(Duration.ofSeconds(5));
                x.heartbeat(
                        "job",
                        List.of(new Attempt(first.tableId(), first.epoch())),
                        List.of(),
                        false);
                x.advance(Duration.ofSeconds(5));
                x.commitAll("job", first).join();
                assertThat(f2).isCompleted();
                assertThat(x.lake.commits())
                        .extracting(c -> c.props().tableId())
                        .containsExactly(first.tableId(), second.tableId());
            }
        }
    }

    @Test
    @DisplayName("T25 assignment order: a failed earlier table releases the held commit")
    void t25FailureReleasesHeldCommit() {
        TieringHarness x =
                new TieringHarness(
                        TieringConfig.defaults().withCommitOrder(CommitOrder.ASSIGNMENT));
        TableInfo a = x.lakeTable("a", 1, Duration.ofMinutes(1));
        TableInfo b = x.lakeTable("b", 1, Duration.ofMinutes(1));
        x.advance(Duration.ofMinutes(1));
        x.writeAll(a, 5);
        x.writeAll(b, 5);
        RoundPlan first = x.request("job");
        RoundPlan second = x.request("job");
        CompletableFuture<Long> f2 = x.commitAll("job", second);
        x.heartbeat(
                "job",
                List.of(),
                List.of(RoundReport.failed(first.tableId(), first.epoch(), "x")),
                false);
        assertThat(f2).isCompleted();
    }

    @Test
    @DisplayName(
            "T1 T7 round plans: only buckets with new data; a PK bucket never tiered reads its newest KV snapshot")
    void t1t7Plans() {
        TableInfo log = h.lakeTable("log", 4, Duration.ofMinutes(1));
        TableInfo pk = h.table("pk", 3, Duration.ofMinutes(1), true, Map.of());
        h.buckets.write(log.tableId(), 1, 7);
        h.buckets.write(log.tableId(), 3, 2);
        h.buckets.write(pk.tableId(), 0, 50);
        h.buckets.snapshot(pk.tableId(), 0, 9, 40);
        h.buckets.write(pk.tableId(), 1, 30); // no snapshot: log from 0
        h.advance(Duration.ofMinutes(1));
        RoundPlan r1 = h.request("job");
        RoundPlan r2 = h.request("job");
        final RoundPlan pl = r1.tableId() == log.tableId() ? r1 : r2;
        final RoundPlan pp = r1.tableId() == log.tableId() ? r2 : r1;
        assertThat(pl.buckets()).containsExactly(BucketPlan.log(1, 0, 7), BucketPlan.log(3, 0, 2));
        assertThat(pp.buckets())
                .containsExactly(BucketPlan.snapshot(0, 9, 40), BucketPlan.log(1, 0, 30));
        // before the snapshot's offset: the state would miss changes
        assertThatThrownBy(() -> h.commit("job", pp, Map.of(0, 39L), false).join())
                .hasCauseInstanceOf(InvalidInputException.class)
                .hasMessageContaining("must end at the snapshot's log offset 40");
        h.commitAll("job", pl).join();
        h.buckets.write(log.tableId(), 1, 3);
        h.advance(Duration.ofMinutes(1));
        RoundPlan next = h.request("job");
        if (next.tableId() != log.tableId()) {
            next = h.request("job");
        }
        assertThat(next.tableId()).isEqualTo(log.tableId());
        assertThat(next.buckets()).containsExactly(BucketPlan.log(1, 7, 10));
    }

    @Test
    @DisplayName("T7 after a snapshot round the bucket continues from the snapshot's log offset")
    void t7ContinuesFromSnapshotOffset() {
        TableInfo pk = h.table("pk", 1, Duration.ofMinutes(1), true, Map.of());
        h.buckets.write(pk.tableId(), 0, 50);
        h.buckets.snapshot(pk.tableId(), 0, 9, 40);
        h.advance(Duration.ofMinutes(1));
        RoundPlan p = h.request("job");
        h.commitAll("job", p).join();
        assertThat(h.tiering().record(pk.tableId()).orElseThrow().tieredOffsets())
                .containsEntry(0, 40L);
        h.advance(Duration.ofMinutes(1));
        assertThat(h.request("job").buckets()).containsExactly(BucketPlan.log(0, 40, 50));
    }

    @Test
    @DisplayName(
            "T52 a snapshot split granted again on the bucket's new leader ends at that leader's"
                    + " later snapshot; the bucket continues from there")
    void t52SnapshotSplitEndsAtALaterSnapshot() {
        TableInfo pk = h.table("pk", 1, Duration.ofMinutes(1), true, Map.of());
        h.buckets.write(pk.tableId(), 0, 50);
        h.buckets.snapshot(pk.tableId(), 0, 9, 40);
        h.advance(Duration.ofMinutes(1));
        RoundPlan p = h.request("job");
        assertThat(p.buckets()).containsExactly(BucketPlan.snapshot(0, 9, 40));
        h.commit("job", p, Map.of(0, 46L), false).join();
        assertThat(h.tiering().record(pk.tableId()).orElseThrow().tieredOffsets())
                .containsEntry(0, 46L);
        h.advance(Duration.ofMinutes(1));
        assertThat(h.request("job").buckets()).containsExactly(BucketPlan.log(0, 46, 50));
    }
}
