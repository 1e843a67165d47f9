package dev.tributary.cluster;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Gets a voter whose metadata log stopped growing while it lags its leader caught up again. A Raft
 * leader that led throughout keeps its old idea of a voter's progress, and Ratis then answers a
 * voter whose disk was wiped (T53) with heartbeats only, for ever (RATIS-2523, reproduced by {@code
 * RaftMetadataStoreITCase}); the same is assumed, not seen, for a voter whose log ends part way.
 * Such a voter never learns the rest of the metadata, so its server never finds the coordinator or
 * the replicas it should copy. A leader elected afterwards starts with no idea of the voter and
 * sends it everything.
 *
 * <p>So when the voter's log has not grown for {@code patience} checks in a row, a leader other
 * than itself is known, and the voter is behind, it asks that leader to hand its leadership to
 * another voter (the coordinator moves with it: a few seconds without one). Behind means: its log
 * ends below the highest commit index another voter reported (Ratis passes the leader's view along
 * with every append it accepted), or, when no voter reported one, it started empty and received
 * nothing since. A voter whose log only applies slowly is not behind in this sense: its log grew.
 * Logic only: the caller runs {@link #check} on its own timer for as long as the voter runs.
 */
final class StalledCatchUp {
    /** The voter as the check sees it. */
    interface Voter {
        /** The index of the last entry in this voter's log (negative: none). */
        long lastLogIndex();

        /** The highest commit index another voter reported to this one, if any did. */
        OptionalLong reportedCommitIndex();

        /** The leader this voter knows of, if any. */
        Optional<String> leaderId();

        /** Asks {@code leader} to hand the leadership to {@code target}; may throw. */
        void transferLeadership(String leader, String target);
    }

    private final String self;
    private final List<String> voters;
    private final int patience;
    private final Voter voter;
    private final boolean startedEmpty;
    private final long lastAtStart;
    private long lastSeen;
    private int stillChecks;
    private int transfers;

    /**
     * @param self this voter's id
     * @param voters every voter's id, in configured order
     * @param patience checks without growth before the leadership is asked to move
     * @param startedEmpty whether this voter started with no metadata log at all
     */
    StalledCatchUp(
            String self, List<String> voters, int patience, boolean startedEmpty, Voter voter) {
        this.self = self;
        this.voters = List.copyOf(voters);
        this.patience = patience;
        this.voter = voter;
        this.startedEmpty = startedEmpty;
        this.lastAtStart = voter.lastLogIndex();
        this.lastSeen = lastAtStart;
    }

    /** One check; may ask the leader to move. */
    void check() {
        long last = voter.lastLogIndex();
        if (last != lastSeen) {
            lastSeen = last;
            stillChecks = 0; // entries arrive
            return;
        }
        Optional<String> leader = voter.leaderId();
        if (leader.isEmpty() || leader.get().equals(self) || !behind(last)) {
            stillChecks = 0; // an election sends everything by itself; a leader is never behind
            return;
        }
        if (++stillChecks < patience) {
            return;
        }
        stillChecks = 0;
        List<String> targets =
                voters.stream().filter(v -> !v.equals(self) && !v.equals(leader.get())).toList();
        if (targets.isEmpty()) {
            return; // two voters: nobody else could lead
        }
        // each time the next one: a target that is down (or refuses) does not block for ever
        voter.transferLeadership(leader.get(), targets.get(transfers++ % targets.size()));
    }

    private boolean behind(long last) {
        OptionalLong committed = voter.reportedCommitIndex();
        if (committed.isPresent()) {
            return last < committed.getAsLong();
        }
        return startedEmpty && last == lastAtStart;
    }
}
