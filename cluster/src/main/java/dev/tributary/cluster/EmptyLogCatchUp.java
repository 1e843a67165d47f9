package dev.tributary.cluster;

import java.util.List;
import java.util.Optional;

/**
 * Gets a voter that started with an empty metadata log (its disk was wiped, T53) caught up when its
 * leader does not send it entries. A Raft leader that led throughout keeps its old idea of the
 * voter's progress, and Ratis then answers the voter's "I have nothing" with heartbeats only, for
 * ever (RATIS-2523): the voter never learns the metadata, so its server never finds the coordinator
 * and never copies its replicas. A leader elected afterwards starts with no idea of it and sends it
 * everything.
 *
 * <p>So while the voter's applied index has not moved for {@code patience} checks in a row and a
 * leader other than itself is known, it asks that leader to hand its leadership to another voter
 * (the coordinator moves with it: a few seconds without one). It stops once the applied index
 * moved, or this voter leads. Logic only: the caller runs {@link #check} on its own timer.
 */
final class EmptyLogCatchUp {
    /** The voter as the check sees it. */
    interface Voter {
        /** The index of the last entry this voter applied (negative: none). */
        long appliedIndex();

        /** The leader this voter knows of, if any. */
        Optional<String> leaderId();

        /** Asks {@code leader} to hand the leadership to {@code target}; may throw. */
        void transferLeadership(String leader, String target);
    }

    private final String self;
    private final List<String> voters;
    private final int patience;
    private final Voter voter;
    private final long appliedAtStart;
    private int stillChecks;

    /**
     * @param self this voter's id
     * @param voters every voter's id, in configured order
     * @param patience checks without progress before the leadership is asked to move
     */
    EmptyLogCatchUp(String self, List<String> voters, int patience, Voter voter) {
        this.self = self;
        this.voters = List.copyOf(voters);
        this.patience = patience;
        this.voter = voter;
        this.appliedAtStart = voter.appliedIndex();
    }

    /**
     * One check.
     *
     * @return whether to keep checking
     */
    boolean check() {
        if (voter.appliedIndex() > appliedAtStart) {
            return false; // entries arrive: caught up or catching up
        }
        Optional<String> leader = voter.leaderId();
        if (leader.isPresent() && leader.get().equals(self)) {
            return false;
        }
        if (leader.isEmpty()) {
            stillChecks = 0; // an election: a new leader sends everything by itself
            return true;
        }
        if (++stillChecks < patience) {
            return true;
        }
        stillChecks = 0;
        Optional<String> target =
                voters.stream().filter(v -> !v.equals(self) && !v.equals(leader.get())).findFirst();
        if (target.isEmpty()) {
            return false; // two voters: nobody else could lead
        }
        voter.transferLeadership(leader.get(), target.get());
        return true;
    }
}
