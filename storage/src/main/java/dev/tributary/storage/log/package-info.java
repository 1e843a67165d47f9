/**
 * The durable log of a bucket: segment files, the sparse offset index, group commit and recovery
 * (torn tails truncated, damage elsewhere reported).
 */
package dev.tributary.storage.log;
