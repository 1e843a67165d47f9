package dev.tributary.storage.replica;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.exception.NotEnoughReplicasException;
import dev.tributary.common.id.TableBucket;
import dev.tributary.common.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * A bucket leader's view of its replicas (T50): how far each follower's log reaches, which replicas
 * are in sync, the high watermark, and the appends waiting for it.
 *
 * <p>A follower's progress comes from its fetches: a fetch from offset {@code f} says its log holds
 * every record below {@code f}. A follower is caught up when a fetch reaches the leader's log end
 * as it was at that fetch or at the follower's previous one (Kafka's rule: a follower fetching
 * steadily behind a busy leader stays in sync; one that stops fetching or falls further behind does
 * not). A member not caught up for {@code lagTimeMaxMillis} is proposed for removal from the
 * in-sync set; a follower outside it whose log reaches the high watermark and the start of this
 * leader's epoch is proposed to join.
 *
 * <p>The in-sync set is metadata, written by the coordinator: a change is proposed here, one at a
 * time, and takes effect with {@link #onIsrCommitted}. Meanwhile the high watermark is computed
 * over the <em>maximal</em> set (KIP-497): the committed members, still including one proposed for
 * removal, plus one proposed to join. So the leader never acknowledges a record that a replica the
 * committed set names, one an election may pick, does not have.
 *
 * <p>The coordinator's answer to a proposal ({@link #onIsrWritten}) comes ahead of this server's
 * apply of the metadata ({@link #onIsrCommitted}), which may still deliver older sets of the bucket
 * after it. So neither a proposal in flight nor a set the coordinator answered as written leaves
 * the maximal set until the applied metadata shows that very set (or the proposal is refused, or a
 * later proposal is written): an older applied set without a joiner must not let the high watermark
 * pass the joiner's log while the metadata names it in sync (found by the fault soak: a replica a
 * move added was made leader without records acknowledged meanwhile).
 *
 * <p>The high watermark is the lowest log end among the leader and the maximal set, and never goes
 * back. An append is acknowledged once it is below it while the committed set has at least {@code
 * minInsync} members; with fewer, appends are refused before they are written ({@link
 * #checkCanAppend}), and waiting ones fail with {@link NotEnoughReplicasException} (written, not
 * acknowledged: an idempotent writer's retry adds no duplicate).
 *
 * <p>Thread safe (one monitor); futures complete outside it, since their callbacks may append.
 */
public final class InSyncReplicas {
    /** What the leader answers a follower's fetch with, besides the records. */
    public record FetchOutcome(long highWatermark, Optional<Set<Integer>> proposedIsr) {}

    private static final class Follower {
        long logEnd = -1; // unknown until its first fetch to this leader
        long lastFetchMillis;
        long leaderEndAtLastFetch;
        long lastCaughtUpMillis;
    }

    private final TableBucket bucket;
    private final int leaderId;
    private final long epochStartOffset;
    private final int minInsync;
    private final long lagTimeMaxMillis;
    private final Clock clock;
    private final Map<Integer, Follower> followers = new TreeMap<>();
    private List<Integer> replicas;
    private final TreeMap<Long, List<CompletableFuture<Void>>> waiting = new TreeMap<>();
    private Set<Integer> committed; // the set the applied metadata holds
    private Set<Integer> pending; // a proposed in-sync set not answered yet, or null
    private Set<Integer> written; // answered as written, not yet seen applied, or null
    private long leaderEnd;
    private long highWatermark;

    /** Why this replica stopped leading, once it did: every later append fails with it. */
    private RuntimeException stopped;

    /**
     * Starts leading: every committed member gets a full {@code lagTimeMaxMillis} to fetch.
     *
     * @param replicas every replica of the bucket, the leader included
     * @param isr the committed in-sync set, the leader included
     * @param epochStartOffset the leader's log end when this epoch began
     * @param highWatermark the leader's high watermark so far
     */
    public InSyncReplicas(
            TableBucket bucket,
            int leaderId,
            List<Integer> replicas,
            Set<Integer> isr,
            long epochStartOffset,
            long highWatermark,
            int minInsync,
            long lagTimeMaxMillis,
            Clock clock) {
        if (!replicas.contains(leaderId) || !isr.contains(leaderId)) {
            throw new IllegalArgumentException(
                    "leader "
                            + leaderId
                            + " must be a replica and in sync: "
                            + replicas
                            + ", "
                            + isr);
        }
        if (!replicas.containsAll(isr)) {
            throw new IllegalArgumentException("in-sync set " + isr + " is not within " + replicas);
        }
        this.bucket = bucket;
        this.leaderId = leaderId;
        this.epochStartOffset = epochStartOffset;
        this.minInsync = minInsync;
        this.lagTimeMaxMillis = lagTimeMaxMillis;
        this.clock = clock;
        this.committed = Set.copyOf(isr);
        this.replicas = List.copyOf(replicas);
        this.leaderEnd = epochStartOffset;
        this.highWatermark = Math.min(highWatermark, epochStartOffset);
        long now = clock.currentTimeMillis();
        for (int r : replicas) {
            if (r != leaderId) {
                Follower f = new Follower();
                f.lastCaughtUpMillis = now;
                f.lastFetchMillis = now;
                followers.put(r, f);
            }
        }
    }

    /**
     * Refuses an append before it is written if too few replicas are in sync.
     *
     * @throws NotEnoughReplicasException nothing may be appended now
     */
    public synchronized void checkCanAppend() {
        if (stopped != null) {
            throw stopped;
        }
        if (latest().size() < minInsync) {
            throw notEnough("nothing was appended");
        }
    }

    /**
     * The leader's own log advanced to {@code durableEnd} (records it wrote and made durable).
     *
     * @return a future completed once every record below {@code awaitEnd} is acknowledged
     */
    public CompletableFuture<Void> onLeaderAppend(long durableEnd, long awaitEnd) {
        CompletableFuture<Void> f = new CompletableFuture<>();
        List<Runnable> ready;
        synchronized (this) {
            if (stopped != null) {
                // an append that raced the end of the leadership: nobody would acknowledge it
                // (a stopping server's calls would hang until its shutdown timeout)
                return CompletableFuture.failedFuture(stopped);
            }
            leaderEnd = Math.max(leaderEnd, durableEnd);
            waiting.computeIfAbsent(awaitEnd, e -> new ArrayList<>()).add(f);
            ready = advance();
        }
        complete(ready);
        return f;
    }

    /**
     * The leader's own log is durable to {@code durableEnd} (it may have got there before the
     * append that wrote it asked for its acknowledgement).
     */
    public void onLeaderDurable(long durableEnd) {
        List<Runnable> ready;
        synchronized (this) {
            leaderEnd = Math.max(leaderEnd, durableEnd);
            ready = advance();
        }
        complete(ready);
    }

    /**
     * A follower fetched from {@code fetchOffset}: its log holds every record below it.
     *
     * @throws InvalidInputException if it is not a replica of the bucket, or claims records the
     *     leader does not have (it must cut its log first)
     */
    public FetchOutcome onFollowerFetch(int followerId, long fetchOffset) {
        List<Runnable> ready;
        FetchOutcome outcome;
        synchronized (this) {
            Follower f = followers.get(followerId);
            if (f == null) {
                throw new InvalidInputException(
                        "server " + followerId + " is not a follower of bucket " + bucket);
            }
            if (fetchOffset > leaderEnd || fetchOffset < 0) {
                throw new InvalidInputException(
                        "server "
                                + followerId
                                + " fetches bucket "
                                + bucket
                                + " from offset "
                                + fetchOffset
                                + ", past the leader's end "
                                + leaderEnd
                                + ": it must cut its log to the leader's first");
            }
            long now = clock.currentTimeMillis();
            if (fetchOffset >= leaderEnd) {
                f.lastCaughtUpMillis = now;
            } else if (fetchOffset >= f.leaderEndAtLastFetch) {
                f.lastCaughtUpMillis = Math.max(f.lastCaughtUpMillis, f.lastFetchMillis);
            }
            f.logEnd = fetchOffset;
            f.lastFetchMillis = now;
            f.leaderEndAtLastFetch = leaderEnd;
            Optional<Set<Integer>> proposal = Optional.empty();
            if (pending == null
                    && !latest().contains(followerId)
                    && replicas.contains(followerId)
                    && fetchOffset >= highWatermark
                    && fetchOffset >= epochStartOffset) {
                Set<Integer> grown = new TreeSet<>(latest());
                grown.add(followerId);
                pending = Collections.unmodifiableSet(grown);
                proposal = Optional.of(pending);
            }
            ready = advance();
            outcome = new FetchOutcome(highWatermark, proposal);
        }
        complete(ready);
        return outcome;
    }

    /**
     * Proposes removing the members not caught up for {@code lagTimeMaxMillis}, unless a change is
     * pending already. A follower whose last fetch asked from the leader's end is caught up however
     * long ago that was (Kafka's rule): an idle bucket's follower, whose fetch the leader holds
     * until new records come, is not lagging. Called periodically.
     */
    public synchronized Optional<Set<Integer>> proposeShrink() {
        if (pending != null) {
            return Optional.empty();
        }
        long now = clock.currentTimeMillis();
        Set<Integer> kept = new TreeSet<>(latest());
        kept.removeIf(
                r -> {
                    Follower f = followers.get(r);
                    return r != leaderId
                            && f.logEnd < leaderEnd
                            && now - f.lastCaughtUpMillis > lagTimeMaxMillis;
                });
        if (kept.size() == latest().size()) {
            return Optional.empty();
        }
        pending = Collections.unmodifiableSet(kept);
        return Optional.of(pending);
    }

    /**
     * The bucket's replicas changed in this epoch (it moves to other servers): a new replica
     * becomes a follower that has fetched nothing yet, outside the in-sync set until it catches up;
     * a replica no longer listed stops counting, unless it is still in the in-sync set.
     */
    public synchronized void onReplicasChanged(List<Integer> replicas) {
        this.replicas = List.copyOf(replicas);
        long now = clock.currentTimeMillis();
        for (int r : replicas) {
            if (r != leaderId && !followers.containsKey(r)) {
                Follower f = new Follower();
                f.lastCaughtUpMillis = now;
                f.lastFetchMillis = now;
                followers.put(r, f);
            }
        }
        forgetFormerReplicas();
    }

    /**
     * Drops the followers that are no longer replicas once no in-sync set names them: a move that
     * ended changes the replicas before the in-sync set that leaves them out is committed, and a
     * former replica still fetching must not be proposed to join again.
     */
    private void forgetFormerReplicas() {
        Set<Integer> maximal = maximal();
        followers.keySet().removeIf(r -> !replicas.contains(r) && !maximal.contains(r));
    }

    /**
     * This server applied metadata holding {@code isr} as the bucket's in-sync set: the pending or
     * written change, an older set, or a newer one. Only the set it shows is known committed here;
     * a proposal or written set it does not show stays in the maximal set.
     */
    public void onIsrCommitted(Set<Integer> isr) {
        List<Runnable> ready;
        synchronized (this) {
            if (!isr.contains(leaderId) || !followers.keySet().containsAll(without(isr))) {
                throw new IllegalArgumentException(
                        "in-sync set " + isr + " of bucket " + bucket + " must hold its leader");
            }
            committed = Set.copyOf(isr);
            if (committed.equals(pending)) {
                pending = null;
            }
            if (committed.equals(written)) {
                written = null;
            }
            forgetFormerReplicas();
            ready = advance();
        }
        complete(ready);
    }

    /**
     * The coordinator answered the proposal {@code proposed} with the set it wrote: the newest set
     * the metadata holds, until this server applies it. Ignored unless that proposal is still
     * pending: the applied metadata may have shown it already.
     */
    public void onIsrWritten(Set<Integer> proposed, Set<Integer> writtenSet) {
        List<Runnable> ready = List.of();
        synchronized (this) {
            if (proposed.equals(pending)) {
                pending = null;
                written = committed.equals(writtenSet) ? null : Set.copyOf(writtenSet);
                forgetFormerReplicas();
                ready = advance();
            }
        }
        complete(ready);
    }

    /**
     * The proposal {@code proposed} failed or was refused (e.g. a newer epoch): if still pending, a
     * new one may follow.
     */
    public synchronized void onIsrChangeRefused(Set<Integer> proposed) {
        if (proposed.equals(pending)) {
            pending = null;
            forgetFormerReplicas();
        }
    }

    /**
     * This replica stopped leading: every append still waiting fails with {@code cause} (its
     * records may be cut away by the next leader's log, so they are never acknowledged here), and
     * so does every later one.
     */
    public void stopLeading(RuntimeException cause) {
        List<CompletableFuture<Void>> cut = new ArrayList<>();
        synchronized (this) {
            stopped = cause;
            waiting.values().forEach(cut::addAll);
            waiting.clear();
        }
        cut.forEach(f -> f.completeExceptionally(cause));
    }

    public synchronized long highWatermark() {
        return highWatermark;
    }

    /** The newest in-sync set the metadata holds: as written, or else as applied here. */
    public synchronized Set<Integer> isr() {
        return latest();
    }

    private Set<Integer> latest() {
        return written != null ? written : committed;
    }

    public synchronized Optional<Set<Integer>> pendingIsr() {
        return Optional.ofNullable(pending);
    }

    private Set<Integer> without(Set<Integer> isr) {
        Set<Integer> out = new TreeSet<>(isr);
        out.remove(leaderId);
        return out;
    }

    /** The applied set, with a proposal in flight and a set answered as written. */
    private Set<Integer> maximal() {
        Set<Integer> maximal = new TreeSet<>(committed);
        if (pending != null) {
            maximal.addAll(pending);
        }
        if (written != null) {
            maximal.addAll(written);
        }
        return maximal;
    }

    /** Recomputes the high watermark; returns how to complete the covered waiters. */
    private List<Runnable> advance() {
        long hw = leaderEnd;
        for (int r : maximal()) {
            if (r != leaderId) {
                hw = Math.min(hw, followers.get(r).logEnd);
            }
        }
        highWatermark = Math.max(highWatermark, hw);
        List<Runnable> ready = new ArrayList<>();
        var covered = waiting.headMap(highWatermark, true);
        if (covered.isEmpty()) {
            return ready;
        }
        RuntimeException tooFew =
                latest().size() < minInsync
                        ? notEnough("the records were written but not acknowledged")
                        : null;
        for (List<CompletableFuture<Void>> fs : covered.values()) {
            for (CompletableFuture<Void> f : fs) {
                ready.add(
                        tooFew != null
                                ? () -> f.completeExceptionally(tooFew)
                                : () -> f.complete(null));
            }
        }
        covered.clear();
        return ready;
    }

    private NotEnoughReplicasException notEnough(String what) {
        return new NotEnoughReplicasException(
                "bucket "
                        + bucket
                        + " has "
                        + latest().size()
                        + " in-sync replicas "
                        + new TreeSet<>(latest())
                        + ", fewer than its min.insync.replicas "
                        + minInsync
                        + ": "
                        + what
                        + "; retry once the replicas catch up");
    }

    private static void complete(List<Runnable> ready) {
        ready.forEach(Runnable::run);
    }
}
