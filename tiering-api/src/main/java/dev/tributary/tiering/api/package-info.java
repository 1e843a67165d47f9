/**
 * The tiering job protocol: the records the coordinator and a tiering job exchange, one name per
 * concept. The coordinator's API speaks them, the server maps them to and from {@code
 * tiering.proto}, and the job's gateway maps the same records back. Lake results travel as the lake
 * SPI's versioned, opaque bytes.
 *
 * <p>A job registers ({@link dev.tributary.tiering.api.JobSettings}), heartbeats ({@link
 * dev.tributary.tiering.api.HeartbeatRequest}, {@link dev.tributary.tiering.api.HeartbeatResult})
 * and gets rounds ({@link dev.tributary.tiering.api.RoundPlan}) that it ends with a commit ({@link
 * dev.tributary.tiering.api.RoundCommit}) or a report ({@link
 * dev.tributary.tiering.api.RoundReport}); compaction grants ({@link
 * dev.tributary.tiering.api.MaintenanceGrant}) end the same way (T38).
 */
package dev.tributary.tiering.api;
