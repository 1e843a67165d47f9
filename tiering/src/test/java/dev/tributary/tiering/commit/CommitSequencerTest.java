package dev.tributary.tiering.commit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.tributary.tiering.service.CommitRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CommitSequencerTest {
    private static final Attempt A = new Attempt(1, 1);
    private static final Attempt B = new Attempt(2, 1);
    private static final Attempt C = new Attempt(3, 1);

    private static CommitRequest req(Attempt a) {
        return new CommitRequest(
                a.tableId(), a.epoch(), 1, Map.of(), List.of(), List.of(), Map.of(), false, 0, 0);
    }

    @Test
    void t24_completionOrderCommitsDifferentTablesConcurrently() {
        CommitSequencer s = new CommitSequencer(CommitOrder.COMPLETION);
        s.assigned(A);
        s.assigned(B);
        s.assigned(C);
        assertThat(s.ready(B, req(B))).containsExactly(req(B));
        // A's commit starts while B's is still running
        assertThat(s.ready(A, req(A))).containsExactly(req(A));
        assertThat(s.finished(B)).isEmpty();
        assertThat(s.ready(C, req(C))).containsExactly(req(C));
    }

    @Test
    void t24_aTableCommitsOneAttemptAtATime() {
        CommitSequencer s = new CommitSequencer(CommitOrder.COMPLETION);
        Attempt old = new Attempt(1, 1);
        Attempt next = new Attempt(1, 2);
        s.assigned(old);
        s.assigned(next);
        assertThat(s.ready(old, req(old))).hasSize(1);
        assertThat(s.ready(next, req(next))).isEmpty();
        assertThat(s.finished(old)).containsExactly(req(next));
    }

    @Test
    void t25_assignmentOrderWaitsForEarlierTablesOneAtATime() {
        CommitSequencer s = new CommitSequencer(CommitOrder.ASSIGNMENT);
        s.assigned(A);
        s.assigned(B);
        s.assigned(C);
        assertThat(s.ready(B, req(B))).isEmpty();
        assertThat(s.ready(C, req(C))).isEmpty();
        assertThat(s.ready(A, req(A))).containsExactly(req(A));
        assertThat(s.finished(A)).containsExactly(req(B));
        assertThat(s.finished(B)).containsExactly(req(C));
    }

    @Test
    void t25_assignmentOrderSkipsAnAbandonedAttempt() {
        CommitSequencer s = new CommitSequencer(CommitOrder.ASSIGNMENT);
        s.assigned(A);
        s.assigned(B);
        assertThat(s.ready(B, req(B))).isEmpty();
        assertThat(s.abandoned(A)).containsExactly(req(B));
    }

    @Test
    void illegalCallsThrow() {
        CommitSequencer s = new CommitSequencer(CommitOrder.COMPLETION);
        assertThatThrownBy(() -> s.ready(A, req(A))).isInstanceOf(IllegalStateException.class);
        s.assigned(A);
        assertThatThrownBy(() -> s.assigned(A)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> s.finished(A)).isInstanceOf(IllegalStateException.class);
    }
}
