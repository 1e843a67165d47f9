package dev.tributary.coordinator.tiering;

import dev.tributary.coordinator.status.RoundSummary;
import java.util.ArrayDeque;
import java.util.List;

/**
 * The last {@link #CAPACITY} rounds of one table, oldest first, committed or not (T28). In memory:
 * after a restart it starts from the durable record's last round.
 */
final class RoundHistory {
    static final int CAPACITY = 50;

    private final ArrayDeque<RoundSummary> rounds = new ArrayDeque<>(CAPACITY);

    RoundHistory(RoundSummary last) {
        if (last != null) {
            rounds.add(last);
        }
    }

    void add(RoundSummary round) {
        if (rounds.size() == CAPACITY) {
            rounds.removeFirst();
        }
        rounds.addLast(round);
    }

    List<RoundSummary> snapshot() {
        return List.copyOf(rounds);
    }
}
