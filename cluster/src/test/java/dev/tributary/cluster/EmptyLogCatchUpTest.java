package dev.tributary.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** When a voter that started empty has the leadership moved, and when it leaves it alone. */
class EmptyLogCatchUpTest {
    private static final class FakeVoter implements EmptyLogCatchUp.Voter {
        long applied = -1;
        Optional<String> leader = Optional.empty();
        final List<String> transfers = new ArrayList<>();

        @Override
        public long appliedIndex() {
            return applied;
        }

        @Override
        public Optional<String> leaderId() {
            return leader;
        }

        @Override
        public void transferLeadership(String leader, String target) {
            transfers.add(leader + "->" + target);
        }
    }

    @Test
    void aLeaderThatSendsNothingIsAskedToHandOverAfterThePatienceRanOut() {
        FakeVoter v = new FakeVoter();
        EmptyLogCatchUp c = new EmptyLogCatchUp("3", List.of("1", "2", "3"), 3, v);
        assertThat(c.check()).isTrue(); // no leader known: an election may fix it by itself
        v.leader = Optional.of("2");
        assertThat(c.check()).isTrue();
        assertThat(c.check()).isTrue();
        assertThat(v.transfers).isEmpty();
        assertThat(c.check()).isTrue();
        assertThat(v.transfers).containsExactly("2->1");
        // still nothing three checks later: asked again
        c.check();
        c.check();
        c.check();
        assertThat(v.transfers).containsExactly("2->1", "2->1");
        // entries arrive: done
        v.applied = 0;
        assertThat(c.check()).isFalse();
    }

    @Test
    void aVoterThatLeadsOrCatchesUpOrHasNoThirdVoterIsLeftAlone() {
        FakeVoter leading = new FakeVoter();
        leading.leader = Optional.of("1");
        assertThat(new EmptyLogCatchUp("1", List.of("1", "2", "3"), 1, leading).check()).isFalse();

        FakeVoter catchingUp = new FakeVoter();
        catchingUp.leader = Optional.of("2");
        EmptyLogCatchUp c = new EmptyLogCatchUp("3", List.of("1", "2", "3"), 2, catchingUp);
        assertThat(c.check()).isTrue();
        catchingUp.applied = 5;
        assertThat(c.check()).isFalse();
        assertThat(catchingUp.transfers).isEmpty();

        FakeVoter pair = new FakeVoter();
        pair.leader = Optional.of("1");
        assertThat(new EmptyLogCatchUp("2", List.of("1", "2"), 1, pair).check()).isFalse();
        assertThat(pair.transfers).isEmpty();
    }
}
