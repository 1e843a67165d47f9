package dev.tributary.tiering.soak;

import java.util.Random;

/**
 * How the soak runs its tiering jobs, and the faults that concern them: standalone job processes
 * ({@link StandaloneJobs}) or a job submitted to a Flink session cluster ({@link
 * FlinkSessionJobs}).
 */
interface TieringJobs extends AutoCloseable {

    /** Starts the job(s) and returns once the main job runs. */
    void start() throws Exception;

    /** Whether {@code kind} is a fault of this way of running jobs. */
    boolean supports(FaultKind kind);

    /**
     * Injects a job fault and returns once it is over (processes restarted, job resubmitted).
     *
     * @return what was done, for the soak's log
     */
    String inject(FaultKind kind, Random random) throws Exception;

    /**
     * Checks that the main job still runs (no fault took it down); restarts it if not.
     *
     * @return null if it ran, else what was found
     */
    String checkRunning() throws Exception;

    @Override
    void close() throws Exception;
}
