package dev.tributary.lake.api.commit;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.id.TablePath;
import java.util.Optional;

/**
 * The round a tiering commit builds on: the newest round the coordinator's record named when it
 * planned the round being committed. It is the lake-side fence against a coordinator that lost its
 * role while a commit of its was under way (a long pause, T19, T49): such a late commit, or its
 * successor's commit of the same offsets, finds in the lake a tiering snapshot of a round it did
 * not build on, and is refused with {@link FencedException} instead of putting the same offsets
 * into the lake twice. The check runs atomically with the commit (see each format's committer), so
 * no pause between checking and committing can get around it.
 *
 * <p>Rounds are ordered by epoch, then round id: epochs only grow per table, across coordinators
 * too (T17). A round that wrote nothing (T27) may be named here although the lake holds no snapshot
 * of it; an older round in the lake is then no reason to refuse.
 *
 * @param epoch the epoch of that round, 0 when the table never tiered
 * @param roundId the id of that round, 0 when the table never tiered
 */
public record TieredRound(long epoch, long roundId) {

    /** The base of a table that never tiered: any tiering snapshot of it in the lake is newer. */
    public static final TieredRound NONE = new TieredRound(0, 0);

    /** The round {@code snapshot} holds. */
    public static TieredRound of(LakeSnapshot snapshot) {
        TieringSnapshotProperties p = snapshot.properties();
        return new TieredRound(p.epoch(), p.roundId());
    }

    /** Whether the tiering snapshot {@code landed} holds a round newer than this base. */
    public boolean isBefore(TieringSnapshotProperties landed) {
        return landed.epoch() > epoch || (landed.epoch() == epoch && landed.roundId() > roundId);
    }

    /**
     * The fence check of a committer: throws when {@code latest}, the table's newest tiering
     * snapshot, holds a round newer than this base other than {@code round} itself (the same round
     * already landed is a retry, which the committer answers as already committed).
     *
     * @throws FencedException naming both rounds
     */
    public void checkNotOvertaken(
            TablePath table, TieringSnapshotProperties round, Optional<LakeSnapshot> latest) {
        if (latest.isPresent()
                && !latest.get().properties().sameRound(round)
                && isBefore(latest.get().properties())) {
            throw refusal(table, round, latest.get());
        }
    }

    /**
     * The error refusing {@code round}: the lake's newest tiering snapshot of the table, {@code
     * landed}, holds a round this commit did not build on.
     */
    private FencedException refusal(
            TablePath table, TieringSnapshotProperties round, LakeSnapshot landed) {
        return new FencedException(
                "round "
                        + round.roundId()
                        + " (epoch "
                        + round.epoch()
                        + ") of '"
                        + table
                        + "' was planned on round "
                        + roundId
                        + " (epoch "
                        + epoch
                        + "), but the lake's newest tiering snapshot "
                        + landed.snapshotId()
                        + " holds round "
                        + landed.properties().roundId()
                        + " (epoch "
                        + landed.properties().epoch()
                        + "), committed meanwhile by another coordinator; the round is dropped and"
                        + " the table reconciled with the lake");
    }
}
