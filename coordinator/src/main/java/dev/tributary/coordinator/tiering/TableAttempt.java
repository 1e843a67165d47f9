package dev.tributary.coordinator.tiering;

/**
 * A table round a job is working on, identified by its epoch (unique per assignment).
 *
 * @param tableId the table id
 * @param epoch the epoch from the table's {@link RoundPlan}
 */
public record TableAttempt(long tableId, long epoch) {}
