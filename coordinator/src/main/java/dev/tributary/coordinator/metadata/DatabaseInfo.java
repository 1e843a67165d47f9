package dev.tributary.coordinator.metadata;

import dev.tributary.common.id.TablePath;

/**
 * A database: a namespace for tables.
 *
 * @param name validated identifier
 * @param comment optional comment, may be {@code null}
 * @param createdTimeMillis wall-clock creation time
 */
public record DatabaseInfo(String name, String comment, long createdTimeMillis) {
    public DatabaseInfo {
        TablePath.validateName("database", name);
    }
}
