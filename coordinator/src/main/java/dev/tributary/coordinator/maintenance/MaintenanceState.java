package dev.tributary.coordinator.maintenance;

import java.util.EnumSet;
import java.util.Set;

/**
 * Where a lake table's maintenance stands. A pass: IDLE -> CHECKING (statistics, plan, expiry on
 * the maintenance I/O threads) -> IDLE, or -> QUEUED when buckets need compaction -> COMPACTING (a
 * job compacts them) -> COMMITTING -> IDLE. A failed, fenced or timed-out compaction goes
 * COMPACTING -> IDLE. Any state ends when the table is dropped or its lake disabled.
 */
public enum MaintenanceState {
    IDLE,
    CHECKING,
    QUEUED,
    COMPACTING,
    COMMITTING;

    private Set<MaintenanceState> next() {
        return switch (this) {
            case IDLE -> EnumSet.of(CHECKING);
            case CHECKING -> EnumSet.of(IDLE, QUEUED);
            case QUEUED -> EnumSet.of(COMPACTING, IDLE);
            case COMPACTING -> EnumSet.of(COMMITTING, IDLE);
            case COMMITTING -> EnumSet.of(IDLE);
        };
    }

    /**
     * The next state.
     *
     * @throws IllegalStateException for a transition the machine does not have
     */
    public MaintenanceState transitionTo(MaintenanceState target, long tableId) {
        if (!next().contains(target)) {
            throw new IllegalStateException(
                    "illegal maintenance transition "
                            + this
                            + " -> "
                            + target
                            + " of table "
                            + tableId);
        }
        return target;
    }
}
