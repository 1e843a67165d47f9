package dev.tributary.planner.workload;

import dev.tributary.common.exception.InvalidInputException;
import java.util.Objects;

/**
 * A tiering job: its id, the group whose tables it serves (T26), how many readers it runs (its
 * Flink parallelism) and how fast they are.
 */
public record JobLoad(String id, String group, int parallelism, ReaderModel reader) {

    public JobLoad {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(reader, "reader");
        group = TableLoad.normalizeGroup(group);
        if (parallelism < 1 || parallelism > MAX_PARALLELISM) {
            throw new InvalidInputException(
                    "job "
                            + id
                            + ": parallelism must be 1 to "
                            + MAX_PARALLELISM
                            + ", got "
                            + parallelism);
        }
    }

    /** Flink's upper bound of a job's parallelism; the simulation runs one reader per unit. */
    public static final int MAX_PARALLELISM = 32_768;

    public JobLoad withParallelism(int p) {
        return new JobLoad(id, group, p, reader);
    }
}
