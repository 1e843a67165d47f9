package dev.tributary.coordinator.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.common.exception.FencedException;
import dev.tributary.common.exception.InvalidInputException;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A bucket's replicas, leader and in-sync set, and the transitions the coordinator applies. */
class BucketReplicasTest {
    private static final BucketReplicas THREE = BucketReplicas.initial(List.of(2, 3, 1));

    @Test
    void aNewBucketIsLedByItsFirstReplicaWithEveryReplicaInSync() {
        assertThat(THREE.leader()).isEqualTo(2);
        assertThat(THREE.leaderEpoch()).isZero();
        assertThat(THREE.isr()).containsExactly(2, 3, 1);
        assertThat(BucketReplicas.single(7))
                .isEqualTo(new BucketReplicas(List.of(7), 7, 0, List.of(7)));
    }

    @Test
    void aDeadLeaderIsFollowedByTheFirstAliveInSyncReplicaInTheNextEpoch() {
        BucketReplicas after = THREE.afterServerDied(2, Set.of(1, 3)::contains);
        assertThat(after).isEqualTo(new BucketReplicas(List.of(2, 3, 1), 3, 1, List.of(3, 1)));

        // a replica that is not in sync never leads, however alive
        BucketReplicas lagging = new BucketReplicas(List.of(2, 3, 1), 2, 4, List.of(2, 1));
        assertThat(lagging.afterServerDied(2, Set.of(1, 3)::contains))
                .isEqualTo(new BucketReplicas(List.of(2, 3, 1), 1, 5, List.of(1)));
    }

    @Test
    void thePreferredLeaderLeadsAgainOnceInSyncAndAllowedTo() {
        BucketReplicas failedOver = new BucketReplicas(List.of(2, 3, 1), 3, 1, List.of(3, 1));
        assertThat(failedOver.withPreferredLeader(s -> true))
                .as("not in sync yet")
                .isSameAs(failedOver);
        BucketReplicas rejoined = new BucketReplicas(List.of(2, 3, 1), 3, 1, List.of(2, 3, 1));
        assertThat(rejoined.withPreferredLeader(s -> true))
                .isEqualTo(new BucketReplicas(List.of(2, 3, 1), 2, 2, List.of(2, 3, 1)));
        assertThat(rejoined.withPreferredLeader(s -> s != 2))
                .as("dead or draining")
                .isSameAs(rejoined);
        assertThat(THREE.withPreferredLeader(s -> true)).as("leads already").isSameAs(THREE);
        BucketReplicas leaderless = new BucketReplicas(List.of(2, 3, 1), -1, 3, List.of(2));
        assertThat(leaderless.withPreferredLeader(s -> true)).isSameAs(leaderless);
        BucketReplicas moving = rejoined.moveTo(List.of(3, 1, 4));
        assertThat(moving.withPreferredLeader(s -> true)).isSameAs(moving);
    }

    @Test
    void aDeadFollowerOnlyLeavesTheInSyncSet() {
        assertThat(THREE.afterServerDied(3, Set.of(1, 2)::contains))
                .isEqualTo(new BucketReplicas(List.of(2, 3, 1), 2, 0, List.of(2, 1)));
        BucketReplicas outOfSync = new BucketReplicas(List.of(2, 3, 1), 2, 0, List.of(2));
        assertThat(outOfSync.afterServerDied(3, s -> false)).isSameAs(outOfSync);
    }

    @Test
    void withNoInSyncReplicaAliveTheBucketWaitsForOneOfThemNotForAnyReplica() {
        BucketReplicas lastOne = new BucketReplicas(List.of(2, 3, 1), 2, 3, List.of(2, 1));
        BucketReplicas leaderless =
                lastOne.afterServerDied(2, Set.of(3)::contains).afterServerDied(1, s -> false);
        assertThat(leaderless.hasLeader()).isFalse();
        assertThat(leaderless.leaderEpoch()).isEqualTo(4);
        assertThat(leaderless.isr())
                .as("both may hold acknowledged records: neither is dropped")
                .containsExactly(2, 1);

        assertThat(leaderless.afterServerReturned(3, s -> true))
                .as("3 was not in sync: no unclean election")
                .isSameAs(leaderless);
        assertThat(leaderless.afterServerReturned(1, s -> true))
                .isEqualTo(new BucketReplicas(List.of(2, 3, 1), 1, 5, List.of(2, 1)));
        // the other in-sync member still dead leaves the set: the new leader has every record
        assertThat(leaderless.afterServerReturned(1, Set.of(1, 3)::contains))
                .isEqualTo(new BucketReplicas(List.of(2, 3, 1), 1, 5, List.of(1)));
    }

    @Test
    void aServerBackWithoutItsDataLeavesTheInSyncSetEvenAsItsLastMember() {
        // it led: the first alive in-sync replica of the others leads in the next epoch
        assertThat(THREE.afterServerLostData(2, Set.of(3, 1)::contains))
                .isEqualTo(new BucketReplicas(List.of(2, 3, 1), 3, 1, List.of(3, 1)));
        // it followed: it only leaves the set
        assertThat(THREE.afterServerLostData(1, Set.of(2, 3)::contains))
                .isEqualTo(new BucketReplicas(List.of(2, 3, 1), 2, 0, List.of(2, 3)));
        // leaderless because both in-sync replicas were away: the other one leads when alive
        BucketReplicas leaderless = new BucketReplicas(List.of(2, 3, 1), -1, 4, List.of(2, 1));
        assertThat(leaderless.afterServerLostData(2, Set.of(1)::contains))
                .isEqualTo(new BucketReplicas(List.of(2, 3, 1), 1, 5, List.of(1)));
        assertThat(leaderless.afterServerLostData(2, s -> false))
                .as("it may not lead with nothing; the other in-sync replica leads once back")
                .isEqualTo(new BucketReplicas(List.of(2, 3, 1), -1, 4, List.of(1)));
        // the last in-sync replica lost the acknowledged records: nobody leads without an
        // unclean election
        BucketReplicas alone = new BucketReplicas(List.of(2, 3, 1), 2, 6, List.of(2));
        assertThat(alone.afterServerLostData(2, Set.of(3, 1)::contains))
                .isEqualTo(new BucketReplicas(List.of(2, 3, 1), -1, 7, List.of(2)));
        assertThat(THREE.afterServerLostData(2, s -> false).afterServerLostData(2, s -> true))
                .as("once out of the set, nothing more changes")
                .isEqualTo(THREE.afterServerLostData(2, s -> false));
    }

    @Test
    void theLeaderChangesItsInSyncSetOnlyInItsOwnEpochAndKeepsItself() {
        BucketReplicas shrunk = THREE.withIsr(0, List.of(1, 2));
        assertThat(shrunk.isr()).as("kept in replica order").containsExactly(2, 1);
        assertThat(shrunk.withIsr(0, List.of(2, 3, 1)).isr()).containsExactly(2, 3, 1);

        BucketReplicas next = THREE.afterServerDied(2, s -> true);
        assertThatThrownBy(() -> next.withIsr(0, List.of(3)))
                .isInstanceOf(FencedException.class)
                .hasMessageContaining("is at epoch 1, led by server 3");
        assertThatThrownBy(() -> THREE.withIsr(0, List.of(3, 1)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("drops its leader 2");
        assertThatThrownBy(() -> THREE.withIsr(0, List.of(2, 9)))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("not replicas");
    }

    @Test
    void malformedReplicaSetsAreRefused() {
        assertThatThrownBy(() -> new BucketReplicas(List.of(1, 1), 1, 0, List.of(1)))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> new BucketReplicas(List.of(1, 2), 2, 0, List.of(1)))
                .hasMessageContaining("not in the in-sync set");
        assertThatThrownBy(() -> new BucketReplicas(List.of(1, 2), 1, 0, List.of(2, 1)))
                .hasMessageContaining("not a non-empty subset");
        assertThatThrownBy(() -> new BucketReplicas(List.of(1, 2), 1, 0, List.of()))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> new BucketReplicas(List.of(1, -2), 1, 0, List.of(1)))
                .hasMessageContaining("never negative");
    }

    @Test
    @DisplayName(
            "a move adds the new replicas outside the in-sync set and ends only once every target"
                    + " replica is in sync; a leader that stays keeps its epoch")
    void moveKeepingTheLeader() {
        BucketReplicas moving = THREE.moveTo(List.of(2, 4, 1));
        assertThat(moving.replicas()).containsExactly(2, 3, 1, 4);
        assertThat(moving.isr()).containsExactly(2, 3, 1);
        assertThat(moving.target()).containsExactly(2, 4, 1);
        assertThat(moving.finishMove(s -> true)).as("4 is not in sync yet").isEqualTo(moving);

        BucketReplicas caughtUp = moving.withIsr(0, List.of(2, 3, 1, 4));
        assertThat(caughtUp.isr()).containsExactly(2, 3, 1, 4);
        BucketReplicas done = caughtUp.finishMove(s -> true);
        assertThat(done).isEqualTo(new BucketReplicas(List.of(2, 4, 1), 2, 0, List.of(2, 4, 1)));
        assertThat(done.moving()).isFalse();
    }

    @Test
    @DisplayName(
            "a move away from the leader hands the leadership to an alive target replica in the next"
                    + " epoch; a move survives a death of an old replica meanwhile")
    void moveAwayFromTheLeader() {
        BucketReplicas moving = THREE.moveTo(List.of(3, 4, 1));
        BucketReplicas caughtUp =
                moving.afterServerDied(1, s -> s != 1).withIsr(0, List.of(2, 3, 4));
        assertThat(caughtUp.target()).as("kept by the other transitions").containsExactly(3, 4, 1);
        assertThat(caughtUp.finishMove(s -> true)).as("1 is not in sync").isEqualTo(caughtUp);
        BucketReplicas all = caughtUp.withIsr(0, List.of(2, 3, 1, 4));
        BucketReplicas done = all.finishMove(s -> s != 3);
        assertThat(done).isEqualTo(new BucketReplicas(List.of(3, 4, 1), 4, 1, List.of(3, 4, 1)));
        assertThat(all.finishMove(s -> false)).as("nobody alive to lead").isEqualTo(all);
        assertThatThrownBy(() -> THREE.moveTo(List.of(4, 4)))
                .isInstanceOf(InvalidInputException.class);
        assertThatThrownBy(() -> new BucketReplicas(List.of(1, 2), 1, 0, List.of(1), List.of(3)))
                .hasMessageContaining("move target");
    }

    @Test
    @DisplayName(
            "a new target for a move under way drops the replicas outside both the in-sync set and"
                    + " the new target; back to where it started, the move ends at once")
    void redirectAndUndoAMove() {
        BucketReplicas moving = THREE.moveTo(List.of(2, 4, 1)); // 3 -> 4
        BucketReplicas redirected = moving.moveTo(List.of(2, 5, 1)); // 4 died: 5 instead
        assertThat(redirected.replicas()).containsExactly(2, 3, 1, 5);
        assertThat(redirected.isr()).containsExactly(2, 3, 1);
        assertThat(redirected.target()).containsExactly(2, 5, 1);

        BucketReplicas undone = redirected.moveTo(List.of(2, 3, 1)).finishMove(s -> true);
        assertThat(undone).isEqualTo(THREE);
        assertThat(undone.moving()).isFalse();

        // an in-sync replica stays until the move ends, even outside the new target
        BucketReplicas caughtUp = moving.withIsr(0, List.of(2, 3, 1, 4));
        assertThat(caughtUp.moveTo(List.of(2, 5, 1)).replicas()).containsExactly(2, 3, 1, 4, 5);
    }

    @Test
    @DisplayName(
            "a cancelled move goes back to the replicas the bucket held before, however often it"
                    + " was redirected, and ends once they are in sync")
    void cancelAMove() {
        assertThat(THREE.cancelMove()).as("not moving").isSameAs(THREE);
        BucketReplicas moving = THREE.moveTo(List.of(2, 4, 1)).moveTo(List.of(2, 5, 1));
        assertThat(moving.cancelMove().finishMove(s -> true)).isEqualTo(THREE);

        // the added replica caught up and leads (the old leader died): it hands back
        BucketReplicas ledByTheNewOne =
                THREE.moveTo(List.of(4, 3, 1))
                        .withIsr(0, List.of(2, 3, 1, 4))
                        .afterServerDied(2, s -> s == 4);
        assertThat(ledByTheNewOne.leader()).isEqualTo(4);
        BucketReplicas back = ledByTheNewOne.cancelMove();
        assertThat(back.target()).containsExactly(2, 3, 1);
        assertThat(back.finishMove(s -> true)).as("2 is not in sync").isEqualTo(back);
        BucketReplicas done = back.withIsr(1, List.of(2, 3, 1, 4)).finishMove(s -> true);
        assertThat(done).isEqualTo(new BucketReplicas(List.of(2, 3, 1), 2, 2, List.of(2, 3, 1)));

        // a reordering (a preferred leader change) is cancelled too
        BucketReplicas reordered = THREE.moveTo(List.of(1, 2, 3));
        assertThat(reordered.cancelMove().finishMove(s -> true)).isEqualTo(THREE);
    }
}
