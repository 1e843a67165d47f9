package dev.tributary.tiering.service;

import java.io.Serializable;

/**
 * Creates a {@link TieringService} where the job's code runs (the enumerator on the job manager,
 * each reader on a task manager). Shipped with the job graph, hence serializable.
 */
@FunctionalInterface
public interface TieringServiceFactory extends Serializable {
    TieringService create();
}
