package dev.tributary.coordinator.maintenance;

/**
 * A compaction a job is working on: the table and the grant's maintenance id (unique per grant,
 * growing across coordinator restarts).
 */
public record MaintenanceAttempt(long tableId, long maintenanceId) {}
