package dev.tributary.tiering.soak;

/** The faults the soak injects, with how often each is drawn relative to the others. */
public enum FaultKind {
    /**
     * SIGKILL of the server (on a cluster: of a random server) at a random moment, restart on the
     * same data and port.
     */
    SERVER_KILL(10, Needs.NOTHING),
    /**
     * SIGKILL of the server that commits (on a cluster: the coordinator's) right after a lake
     * commit, before the coordinator records it (T21); on a cluster another server's coordinator
     * must adopt it.
     */
    SERVER_KILL_AFTER_LAKE_COMMIT(8, Needs.NOTHING),
    /**
     * SIGKILL of a random server of a cluster once no bucket is under-replicated, its data
     * directory (buckets, KV state, metadata log) deleted, restart on the same port: it must copy
     * its replicas again and lose nothing (T53).
     */
    SERVER_WIPE(6, Needs.CLUSTER),
    /**
     * A random server drained through the admin API ({@code tributary cluster rebalance --drain})
     * until it holds no bucket, then undrained and filled again, while writers, lookups and tiering
     * go on (issue 23's moves).
     */
    REPLICA_MOVE(6, Needs.SPARE_SERVER),
    /** SIGKILL of a server, then garbage appended to a bucket's active log segment. */
    TORN_LOG_TAIL(6, Needs.NOTHING),
    /**
     * SIGKILL of the coordinator's server; another server must coordinate and commit the next round
     * (T49), the killed one is restarted after a while.
     */
    COORDINATOR_KILL(10, Needs.CLUSTER),
    /**
     * SIGSTOP of the coordinator's server for longer than an election, then SIGCONT: the others
     * elect a new coordinator meanwhile, and the old one, on waking, must stop acting as
     * coordinator (its server steps down and serves on).
     */
    COORDINATOR_PAUSE(6, Needs.CLUSTER),
    /**
     * The coordinator's server SIGSTOPs itself right before a lake commit and is SIGCONTed once
     * another server coordinates: the woken commit was planned before the failover, so the lake
     * must refuse it or, if it lands first, the successor's round of the same offsets (the lake
     * fence, T19, T49). The woken server steps down and serves on.
     */
    COORDINATOR_PAUSE_IN_COMMIT(6, Needs.CLUSTER),
    /**
     * One server cut off from every other server and client (its network namespace's link down):
     * every other time the coordinator's, which must stop acting as coordinator while the others
     * elect (it still reaches the lake, so what it commits meanwhile meets the lake's fence), else
     * a random one, which must rejoin when the cut heals.
     */
    SERVER_PARTITION(8, Needs.NETWORK_NAMESPACES),
    /** SIGKILL of a tiering job (a standalone job process), restarted after a while. */
    JOB_KILL(10, Needs.STANDALONE_JOBS),
    /** SIGSTOP of a tiering job for seconds, then SIGCONT (its attempts are fenced meanwhile). */
    JOB_PAUSE(8, Needs.STANDALONE_JOBS),
    /** A second tiering job joins for a while, then is killed or stopped. */
    SECOND_JOB(5, Needs.NOTHING),
    /** Every client connection is reset and new ones refused for seconds. */
    NETWORK_RESET(8, Needs.ONE_SERVER),
    /** Bytes stop flowing between clients and server for seconds (a partition). */
    NETWORK_STALL(8, Needs.ONE_SERVER),
    /** The next lake commits fail before they reach the lake. */
    LAKE_COMMIT_ERROR(6, Needs.NOTHING),
    /** The next lake commit lands, then its call fails: the outcome is unknown (T21). */
    LAKE_COMMIT_ERROR_AFTER_COMMIT(6, Needs.NOTHING),
    /** One table's lake directory fails every create, write and delete (chattr +i) for seconds. */
    LAKE_DIRECTORY_FAILING(6, Needs.ROOT_CHATTR),
    /** The lake's (loop-mounted) file system is full for seconds. */
    LAKE_DISK_FULL(6, Needs.LOOP_MOUNT),
    /** SIGKILL of a Flink TaskManager of the session cluster, started again. */
    TASKMANAGER_KILL(10, Needs.FLINK_CLUSTER),
    /** SIGKILL of the Flink JobManager, started again, and the job submitted again. */
    JOBMANAGER_KILL(6, Needs.FLINK_CLUSTER);

    /** What a fault needs from the machine or the soak's set-up. */
    public enum Needs {
        NOTHING,
        /** A cluster of several servers. */
        CLUSTER,
        /**
         * A lone server: clients reach it through the soak's one proxy (on a cluster they follow
         * each bucket to its server directly).
         */
        ONE_SERVER,
        STANDALONE_JOBS,
        FLINK_CLUSTER,
        ROOT_CHATTR,
        LOOP_MOUNT,
        /** A cluster whose servers each run in a network namespace of their own (root). */
        NETWORK_NAMESPACES,
        /** A cluster of more servers than a bucket has copies: a drained server's go elsewhere. */
        SPARE_SERVER
    }

    final int weight;
    final Needs needs;

    FaultKind(int weight, Needs needs) {
        this.weight = weight;
        this.needs = needs;
    }
}
