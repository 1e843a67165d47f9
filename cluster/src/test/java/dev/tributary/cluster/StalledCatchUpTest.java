package dev.tributary.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** When a voter whose log stopped growing has the leadership moved, and when it is left alone. */
class StalledCatchUpTest {
    private static final class FakeVoter implements StalledCatchUp.Voter {
        long last = -1;
        OptionalLong reported = OptionalLong.empty();
        Optional<String> leader = Optional.empty();
        final List<String> transfers = new ArrayList<>();

        @Override
        public long lastLogIndex() {
            return last;
        }

        @Override
        public OptionalLong reportedCommitIndex() {
            return reported;
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

    private static void check(StalledCatchUp c, int times) {
        for (int i = 0; i < times; i++) {
            c.check();
        }
    }

    @Test
    void anEmptyVoterThatGetsNothingHasTheLeaderAskedToHandOverAfterThePatienceRanOut() {
        FakeVoter v = new FakeVoter();
        StalledCatchUp c = new StalledCatchUp("3", List.of("1", "2", "3"), 3, true, v);
        check(c, 5); // no leader known: an election sends everything by itself
        assertThat(v.transfers).isEmpty();
        v.leader = Optional.of("2");
        check(c, 2);
        assertThat(v.transfers).isEmpty();
        c.check();
        assertThat(v.transfers).containsExactly("2->1");
        check(c, 3); // still nothing: asked again
        assertThat(v.transfers).containsExactly("2->1", "2->1");
    }

    @Test
    void anObserverAsksForEachOtherVoterInTurnSoADeadOneDoesNotBlockIt() {
        FakeVoter v = new FakeVoter();
        v.leader = Optional.of("3");
        StalledCatchUp c = new StalledCatchUp("4", List.of("1", "2", "3"), 3, true, v);
        check(c, 9);
        assertThat(v.transfers).containsExactly("3->1", "3->2", "3->1");
    }

    @Test
    void aVoterWhoseLogStopsBelowTheReportedCommitIndexHasTheLeaderAskedToHandOver() {
        // the case the soak found: a wiped voter got part of the log, then heartbeats only
        FakeVoter v = new FakeVoter();
        v.leader = Optional.of("1");
        StalledCatchUp c = new StalledCatchUp("2", List.of("1", "2", "3"), 2, true, v);
        v.last = 40;
        v.reported = OptionalLong.of(90);
        c.check(); // the log grew: patience starts again
        c.check();
        assertThat(v.transfers).isEmpty();
        c.check();
        assertThat(v.transfers).containsExactly("1->3");
        v.last = 60; // entries arrive again
        check(c, 1);
        assertThat(v.transfers).hasSize(1);
    }

    @Test
    void aVoterThatLeadsOrIsNotBehindOrHasNoThirdVoterIsLeftAlone() {
        FakeVoter leading = new FakeVoter();
        leading.leader = Optional.of("1");
        leading.reported = OptionalLong.of(10);
        check(new StalledCatchUp("1", List.of("1", "2", "3"), 1, true, leading), 3);
        assertThat(leading.transfers).isEmpty();

        // an idle cluster: the log stands still at the commit index
        FakeVoter upToDate = new FakeVoter();
        upToDate.leader = Optional.of("2");
        upToDate.last = 10;
        upToDate.reported = OptionalLong.of(10);
        check(new StalledCatchUp("3", List.of("1", "2", "3"), 1, false, upToDate), 5);
        assertThat(upToDate.transfers).isEmpty();

        // restarted with its log and nobody reported a commit index yet: not known to be behind
        FakeVoter restarted = new FakeVoter();
        restarted.leader = Optional.of("2");
        restarted.last = 10;
        check(new StalledCatchUp("3", List.of("1", "2", "3"), 1, false, restarted), 5);
        assertThat(restarted.transfers).isEmpty();

        FakeVoter pair = new FakeVoter();
        pair.leader = Optional.of("1");
        pair.reported = OptionalLong.of(10);
        check(new StalledCatchUp("2", List.of("1", "2"), 1, true, pair), 3);
        assertThat(pair.transfers).isEmpty();
    }
}
