package dev.tributary.tiering.enumerate;

import dev.tributary.common.exception.RetriableException;
import dev.tributary.common.id.LakeBucket;
import dev.tributary.common.time.Clock;
import dev.tributary.tiering.api.Attempt;
import dev.tributary.tiering.api.CommitOutcome;
import dev.tributary.tiering.api.HeartbeatResult;
import dev.tributary.tiering.api.JobSettings;
import dev.tributary.tiering.api.MaintenanceAttempt;
import dev.tributary.tiering.api.MaintenanceCommit;
import dev.tributary.tiering.api.MaintenanceGrant;
import dev.tributary.tiering.api.MaintenanceOutcome;
import dev.tributary.tiering.api.RoundCommit;
import dev.tributary.tiering.api.RoundPlan;
import dev.tributary.tiering.commit.RoundResultMerger;
import dev.tributary.tiering.event.CompactionEvent;
import dev.tributary.tiering.event.CompactionResultEvent;
import dev.tributary.tiering.event.RoundControlEvent;
import dev.tributary.tiering.event.SplitResultEvent;
import dev.tributary.tiering.split.SplitPlanner;
import dev.tributary.tiering.split.TieringSplit;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The tiering enumerator's logic, free of Flink and threads: which table to ask for and when, which
 * reader gets which split, when a round is force-finished, and when a finished round is committed.
 * Every method runs on one thread (the Flink enumerator's coordinator thread, or a test);
 * asynchronous outcomes come back through the {@code on*} methods.
 *
 * <ul>
 *   <li>A table is requested whenever a reader waits and no split is queued (T3, T27); a table with
 *       nothing new is finished at once and the next one requested.
 *   <li>Readers hold one split at a time; queued splits of all granted tables are served in grant
 *       order, so spare readers move on to the next table while others finish (T3).
 *   <li>When a round has run for its table's freshness it is force-finished (T13, T14).
 *   <li>A failed split, a lost reader or a failed commit fails only its table's round (T22); the
 *       files its finished splits wrote go to the coordinator for deletion (T23).
 *   <li>Results of rounds that are no longer current are dropped (T20).
 *   <li>A finished round is committed at once; the coordinator enforces the commit order (T25).
 *   <li>Compaction (T38) never takes tiering's place: the job accepts a grant only when it asks for
 *       a table anyway (a reader waits, no split is queued), holds at most one grant, and starts a
 *       bucket's compaction only on a waiting reader with no tiering split queued, at most the
 *       coordinator's maintenance slots at a time. The reader compacts in the background and keeps
 *       asking for splits, so a round that arrives meanwhile gets that reader at once.
 * </ul>
 */
public final class TieringScheduler {
    private static final Logger LOG = LoggerFactory.getLogger(TieringScheduler.class);

    private final Clock clock;
    private final SchedulerSettings settings;
    private final SplitPlanner planner;
    private final EnumeratorEffects effects;

    private final Deque<TieringSplit> queue = new ArrayDeque<>();
    private final TreeSet<Integer> awaiting = new TreeSet<>();
    private final Map<Long, Round> rounds = new LinkedHashMap<>();
    private boolean registered;

    /** The id the coordinator registered this job under; commits name it. */
    private String jobId;

    private Duration heartbeatInterval;
    private boolean requestOutstanding;
    private long lastRequestStartNanos;
    private boolean lastRequestEmpty;
    private boolean heartbeatOutstanding;
    private long lastHeartbeatNanos;
    private boolean heartbeatSent;
    private long droppedResults;
    private int maintenanceSlots;
    private Compaction compaction;

    public TieringScheduler(
            Clock clock,
            SchedulerSettings settings,
            SplitPlanner planner,
            EnumeratorEffects effects) {
        this.clock = clock;
        this.settings = settings;
        this.planner = planner;
        this.effects = effects;
    }

    // ---------------------------------------------------------------- coordinator protocol

    /** The coordinator accepted the job; its settings hold from now on. */
    public void onRegistered(JobSettings job) {
        registered = true;
        jobId = job.jobId();
        heartbeatInterval = job.heartbeatInterval();
        maintenanceSlots = job.maintenanceSlots();
        LOG.info(
                "registered as {}: heartbeat every {}, commit order {}, commit timeout {}",
                job.jobId(),
                job.heartbeatInterval(),
                job.commitOrder(),
                job.commitTimeout());
        onTick();
    }

    public void onTableGranted(RoundPlan plan) {
        requestOutstanding = false;
        lastRequestEmpty = false;
        Round previous = rounds.get(plan.tableId());
        if (previous != null) {
            // the coordinator re-granted the table: our older attempt is stale
            LOG.warn(
                    "{} granted again with epoch {}; abandoning epoch {}",
                    plan.path(),
                    plan.epoch(),
                    previous.plan().epoch());
            if (previous.state() == Round.State.READING) {
                failRound(previous, "abandoned: the coordinator granted the table again");
            }
        }
        List<TieringSplit> splits = planner.plan(plan);
        Round round = new Round(plan, splits, clock.nanoTime());
        rounds.put(plan.tableId(), round);
        LOG.info(
                "round {} of {} (epoch {}): {} splits over {} buckets",
                plan.roundId(),
                plan.path(),
                plan.epoch(),
                splits.size(),
                plan.buckets().size());
        if (splits.isEmpty()) {
            finishReading(round);
        } else {
            queue.addAll(splits);
        }
        assignQueued();
        maybeRequestTable();
    }

    /** The coordinator answered a table request with compaction work (T38). */
    public void onCompactionGranted(MaintenanceGrant grant) {
        requestOutstanding = false;
        lastRequestEmpty = false;
        if (compaction != null) {
            // not asked for: give it back at once, the coordinator plans it again
            effects.reportCompactionFailed(
                    grant.attempt(), "the job already compacts " + compaction.attempt(), List.of());
        } else {
            compaction = new Compaction(grant, clock.nanoTime());
            LOG.info(
                    "compaction {} of {}: {} partition buckets over {} files",
                    grant.maintenanceId(),
                    grant.path(),
                    grant.units().size(),
                    grant.maxFiles());
            if (grant.units().isEmpty()) {
                finishCompaction();
            }
        }
        assignQueued();
        maybeRequestTable();
    }

    /** A reader ended a bucket's compaction. */
    public void onCompactionResult(int subtask, CompactionResultEvent result) {
        Compaction c = compaction;
        if (c == null
                || !c.matches(result.tableId(), result.maintenanceId())
                || !c.ended(subtask, result.unit())) {
            if (result.result() != null) {
                // a cancelled or stale compaction finished anyway: its files go
                effects.reportCompactionFailed(
                        new MaintenanceAttempt(result.tableId(), result.maintenanceId()),
                        "result of a compaction that is no longer running",
                        List.of(result.result()));
            }
            return;
        }
        if (result.failed()) {
            LOG.warn(
                    "compaction {} of bucket {} failed: {}",
                    result.maintenanceId(),
                    result.bucket(),
                    result.error());
            failCompaction(result.unit() + " failed: " + result.error());
        } else {
            c.addResult(result.result());
            if (c.allEnded()) {
                finishCompaction();
            }
        }
        assignQueued();
        maybeRequestTable();
    }

    public void onCompactionCommitDone(
            MaintenanceAttempt attempt, MaintenanceOutcome outcome, Throwable error) {
        if (compaction != null && compaction.attempt().equals(attempt)) {
            compaction = null;
        }
        if (error != null) {
            LOG.warn("commit of {} failed; the coordinator plans it again", attempt, error);
        } else {
            LOG.info(
                    "{}: {}{}",
                    attempt,
                    outcome.kind(),
                    outcome.message() == null ? "" : " (" + outcome.message() + ")");
        }
        maybeRequestTable();
    }

    public void onNoTable() {
        requestOutstanding = false;
        lastRequestEmpty = true;
        maybeRequestTable();
    }

    public void onRequestFailed(Throwable error) {
        warnRetrying("table request failed; retrying", error);
        requestOutstanding = false;
        lastRequestEmpty = true;
    }

    public void onHeartbeatDone(HeartbeatResult response) {
        heartbeatOutstanding = false;
        if (compaction != null && response.fencedMaintenance().contains(compaction.attempt())) {
            failCompaction("the coordinator fenced this compaction");
        }
        for (Attempt stale : response.staleAttempts()) {
            Round r = rounds.get(stale.tableId());
            if (r != null
                    && r.plan().epoch() == stale.epoch()
                    && r.state() == Round.State.READING) {
                LOG.warn("coordinator no longer recognises {}; abandoning it", r.attempt());
                failRound(r, "abandoned: the coordinator fenced this attempt");
            }
        }
        for (Attempt ff : response.forceFinish()) {
            Round r = rounds.get(ff.tableId());
            if (r != null
                    && r.plan().epoch() == ff.epoch()
                    && r.state() == Round.State.READING
                    && !r.forceFinished()) {
                forceFinish(r);
            }
        }
        assignQueued();
        maybeRequestTable();
    }

    public void onHeartbeatFailed(Throwable error) {
        heartbeatOutstanding = false;
        warnRetrying("heartbeat failed; retrying at the next interval", error);
    }

    /**
     * A retriable failure (the coordinator failing over, a timeout) in one line, since it repeats
     * every interval until a coordinator answers; anything else with its stack trace.
     */
    private static void warnRetrying(String what, Throwable error) {
        Throwable e =
                error instanceof CompletionException && error.getCause() != null
                        ? error.getCause()
                        : error;
        if (e instanceof RetriableException) {
            LOG.warn("{}: {}", what, e.getMessage());
        } else {
            LOG.warn(what, e);
        }
    }

    public void onCommitDone(Attempt attempt, CommitOutcome outcome, Throwable error) {
        Round round = rounds.get(attempt.tableId());
        if (round != null && round.plan().epoch() == attempt.epoch()) {
            round.moveTo(Round.State.DONE);
            rounds.remove(attempt.tableId());
        }
        if (error != null) {
            LOG.warn("commit of {} failed; reporting the round failed", attempt, error);
            // no files to discard: the commit may still be running at the coordinator, which
            // deletes what it could not commit itself
            effects.reportFailed(attempt, "commit failed: " + error, List.of());
        } else if (outcome == CommitOutcome.FENCED) {
            LOG.info("commit of {} was fenced: the attempt is stale, nothing committed", attempt);
        }
        maybeRequestTable();
    }

    // ---------------------------------------------------------------- readers

    public void onSplitRequest(int subtask) {
        awaiting.add(subtask);
        assignQueued();
        maybeRequestTable();
    }

    /** A reader ended a split (successfully or not). */
    public void onSplitResult(int subtask, SplitResultEvent result) {
        Round round = rounds.get(result.tableId());
        if (round == null
                || !round.matches(result.epoch(), result.roundId())
                || round.state() != Round.State.READING
                || !round.finished(result)) {
            droppedResults++;
            LOG.info("dropping result of stale split {} from reader {}", result.splitId(), subtask);
            return;
        }
        if (result.failed()) {
            LOG.warn(
                    "split {} of {} failed: {}",
                    result.splitId(),
                    round.plan().path(),
                    result.error());
            failRound(round, "split " + result.splitId() + " failed: " + result.error());
        } else if (round.allSplitsEnded()) {
            finishReading(round);
        }
    }

    /**
     * A reader was lost (its splits come back from Flink): every round it was working on fails,
     * other tables go on (T22).
     */
    public void onReaderLost(int subtask) {
        awaiting.remove(subtask);
        if (compaction != null && compaction.runsOn(subtask)) {
            failCompaction("reader " + subtask + " was lost");
        }
        for (Round r : new ArrayList<>(rounds.values())) {
            if (r.state() == Round.State.READING && r.holdsSplitOn(subtask)) {
                failRound(r, "reader " + subtask + " was lost");
            }
        }
    }

    // ---------------------------------------------------------------- time

    /** Periodic: heartbeats, round ceilings, table requests held back by the request interval. */
    public void onTick() {
        long now = clock.nanoTime();
        if (registered
                && !heartbeatOutstanding
                && (!heartbeatSent || now - lastHeartbeatNanos >= heartbeatInterval.toNanos())) {
            heartbeatOutstanding = true;
            heartbeatSent = true;
            lastHeartbeatNanos = now;
            effects.heartbeat(
                    inFlight(), compaction == null ? List.of() : List.of(compaction.attempt()));
        }
        if (compaction != null
                && compaction.state() == Compaction.State.COMPACTING
                && compaction.deadlinePassed(now)) {
            failCompaction("not done within the grant's timeout");
        }
        for (Round r : new ArrayList<>(rounds.values())) {
            if (r.state() != Round.State.READING) {
                continue;
            }
            if (!r.forceFinished() && r.deadlinePassed(now)) {
                forceFinish(r);
            } else if (r.stuck(now, settings.stuckAfter())) {
                // a reader that never answers must not hold the table forever (Fluss #3810)
                failRound(
                        r,
                        "log splits still open a freshness after force-finish: reader lost or"
                                + " stuck");
            }
        }
        maybeRequestTable();
    }

    /** Attempts this job works on, for heartbeats (reading and committing rounds). */
    public List<Attempt> inFlight() {
        List<Attempt> out = new ArrayList<>();
        for (Round r : rounds.values()) {
            out.add(r.attempt());
        }
        return out;
    }

    /** The compaction grant in progress, if any. */
    public Optional<MaintenanceAttempt> compaction() {
        return compaction == null ? Optional.empty() : Optional.of(compaction.attempt());
    }

    public int queuedSplits() {
        return queue.size();
    }

    public long droppedResults() {
        return droppedResults;
    }

    public Optional<Boolean> isForceFinished(long tableId) {
        Round r = rounds.get(tableId);
        return r == null ? Optional.empty() : Optional.of(r.forceFinished());
    }

    // ---------------------------------------------------------------- internals

    private void forceFinish(Round round) {
        round.markForceFinished();
        int skipped = 0;
        for (Iterator<TieringSplit> it = queue.iterator(); it.hasNext(); ) {
            TieringSplit s = it.next();
            if (s.tableId() == round.plan().tableId()) {
                it.remove();
                round.skipped(s);
                skipped++;
            }
        }
        LOG.info(
                "round {} of {} reached its freshness {}: force-finishing ({} splits skipped, {}"
                        + " running)",
                round.plan().roundId(),
                round.plan().path(),
                round.plan().freshness(),
                skipped,
                round.holders().size());
        RoundControlEvent event = control(RoundControlEvent.Kind.FORCE_FINISH, round);
        for (int subtask : new TreeSet<>(round.holders().values())) {
            effects.sendToReader(subtask, event);
        }
        if (round.allSplitsEnded()) {
            finishReading(round);
        }
    }

    private void finishReading(Round round) {
        round.moveTo(Round.State.COMMITTING);
        RoundPlan p = round.plan();
        RoundCommit request =
                RoundResultMerger.merge(
                        jobId,
                        p.tableId(),
                        p.epoch(),
                        p.roundId(),
                        round.forceFinished(),
                        round.splits(),
                        round.results(),
                        round.skippedSplits());
        effects.commit(round.attempt(), request);
    }

    /**
     * Fails a reading round: queued splits are dropped, readers abort their part, and the
     * coordinator is told, with the results of splits that already ended so it deletes their files
     * (T23); for an attempt it already fenced, the report does only that.
     */
    private void failRound(Round round, String reason) {
        queue.removeIf(s -> s.tableId() == round.plan().tableId());
        RoundControlEvent abort = control(RoundControlEvent.Kind.ABORT, round);
        for (int subtask : new TreeSet<>(round.holders().values())) {
            effects.sendToReader(subtask, abort);
        }
        round.moveTo(Round.State.DONE);
        rounds.remove(round.plan().tableId());
        effects.reportFailed(round.attempt(), reason, round.writtenResults());
        maybeRequestTable();
    }

    private void assignQueued() {
        while (!awaiting.isEmpty() && !queue.isEmpty()) {
            int subtask = idleReader(awaiting.first());
            awaiting.remove(subtask);
            TieringSplit split = queue.pollFirst();
            rounds.get(split.tableId()).assigned(split, subtask);
            effects.assignSplit(subtask, split);
        }
        // compaction only on readers that wait for tiering work that is not there
        Compaction c = compaction;
        while (c != null
                && queue.isEmpty()
                && c.hasPending()
                && c.runningCount() < maintenanceSlots) {
            Integer reader = null;
            for (int r : awaiting) {
                if (!c.runsOn(r)) {
                    reader = r;
                    break;
                }
            }
            if (reader == null) {
                return;
            }
            LakeBucket unit = c.start(reader);
            effects.sendToReader(
                    reader, CompactionEvent.of(CompactionEvent.Kind.START, c.grant(), unit));
        }
    }

    /** A waiting reader for a split, one that is not compacting if there is one. */
    private int idleReader(int fallback) {
        if (compaction != null) {
            for (int r : awaiting) {
                if (!compaction.runsOn(r)) {
                    return r;
                }
            }
        }
        return fallback;
    }

    private void finishCompaction() {
        Compaction c = compaction;
        c.committing();
        effects.commitCompaction(
                c.attempt(), new MaintenanceCommit(jobId, c.attempt(), c.results()));
    }

    /** Stops the grant everywhere and tells the coordinator, with the results to delete. */
    private void failCompaction(String reason) {
        Compaction c = compaction;
        if (c == null || c.state() != Compaction.State.COMPACTING) {
            return;
        }
        c.running()
                .forEach(
                        (reader, unit) ->
                                effects.sendToReader(
                                        reader,
                                        CompactionEvent.of(
                                                CompactionEvent.Kind.CANCEL, c.grant(), unit)));
        compaction = null;
        LOG.info("compaction {} abandoned: {}", c.attempt(), reason);
        effects.reportCompactionFailed(c.attempt(), reason, c.results());
    }

    private void maybeRequestTable() {
        if (!registered || requestOutstanding || !queue.isEmpty() || awaiting.isEmpty()) {
            return;
        }
        long now = clock.nanoTime();
        if (lastRequestEmpty
                && now - lastRequestStartNanos < settings.minRequestInterval().toNanos()) {
            return;
        }
        requestOutstanding = true;
        lastRequestStartNanos = now;
        effects.requestTable(maintenanceSlots > 0 && compaction == null);
    }

    private static RoundControlEvent control(RoundControlEvent.Kind kind, Round round) {
        RoundPlan p = round.plan();
        return new RoundControlEvent(kind, p.tableId(), p.epoch(), p.roundId());
    }
}
