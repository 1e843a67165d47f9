/**
 * Lake maintenance (T38, T39): compaction of the small files tiering rounds leave, expiry of old
 * snapshots, and the statistics users see. The server plans and commits through a {@link
 * dev.tributary.lake.api.maintenance.LakeMaintainer} (metadata only); the tiering job rewrites data
 * through a {@link dev.tributary.lake.api.maintenance.LakeCompactor} (the heavy part); results
 * travel as {@link dev.tributary.lake.api.maintenance.LakeCompactionResultSerializer} bytes.
 *
 * <p>Tiering always wins: a compaction commit never removes what a tiering commit needs, and when
 * the lake refuses it because the table changed underneath, it reports {@link
 * dev.tributary.lake.api.maintenance.MaintenanceCommitResult.Outcome#CONFLICT} and is simply
 * planned again later. Compaction snapshots carry {@link
 * dev.tributary.lake.api.maintenance.MaintenanceSnapshotProperties}, never tiering properties, so
 * reconciliation (T21) skips them.
 */
package dev.tributary.lake.api.maintenance;
