package dev.tributary.client.admin;

import java.util.List;

/** Every lake-enabled table's tiering status plus the coordinator's queue length and live jobs. */
public record TieringOverview(List<TableTieringStatus> tables, int queueLength, int liveJobs) {}
