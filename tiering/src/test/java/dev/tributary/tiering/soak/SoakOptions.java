package dev.tributary.tiering.soak;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/** How to run a {@link FaultSoak}. */
public record SoakOptions(
        long seed,
        int faults,
        String format,
        Path workDir,
        Set<FaultKind> kinds,
        boolean flinkCluster,
        Path jobJar,
        Duration maxRecovery,
        int logPerTick,
        int pkPerTick,
        int quietMaxMillis,
        double durationScale,
        boolean kindsInTurn,
        PrintStream out,
        Map<String, String> serverOptions,
        int servers,
        int voters) {
    /** Defaults for a run of {@code faults} faults into {@code format}. */
    public static SoakOptions of(long seed, int faults, String format, Path workDir) {
        return new SoakOptions(
                seed,
                faults,
                format,
                workDir,
                EnumSet.allOf(FaultKind.class),
                false,
                null,
                Duration.ofMinutes(3),
                20,
                10,
                3_000,
                1.0,
                false,
                System.out,
                Map.of(),
                1,
                0);
    }

    /**
     * Shorter pauses between faults and faults half as long (for CI): the same kinds and checks,
     * about half the time.
     */
    public SoakOptions quick() {
        Copy c = new Copy(this);
        c.quietMaxMillis = 1_000;
        c.durationScale = 0.5;
        return c.build();
    }

    /**
     * Faults drawn in turns in which every available kind comes once, in a seeded order, instead of
     * by weight: a short run (CI) covers every kind.
     */
    public SoakOptions everyKindInTurn() {
        Copy c = new Copy(this);
        c.kindsInTurn = true;
        return c.build();
    }

    public SoakOptions withKinds(Set<FaultKind> k) {
        Copy c = new Copy(this);
        c.kinds = k;
        return c.build();
    }

    /** Extra server options (e.g. {@code cluster.*}), over the soak's own. */
    public SoakOptions withServerOptions(Map<String, String> extra) {
        Copy c = new Copy(this);
        c.serverOptions = Map.copyOf(extra);
        return c.build();
    }

    /**
     * A cluster of {@code n} servers (voters of one metadata quorum, T49) instead of the lone
     * server: the cluster fault kinds become available, and clients and jobs are given every
     * server's address.
     */
    public SoakOptions onServers(int n) {
        Copy c = new Copy(this);
        c.servers = n;
        return c.build();
    }

    /**
     * Only the first {@code v} servers of the cluster vote in its metadata quorum; the others join
     * as observers ({@code cluster.observer-address}): they hold replicas and are killed, wiped and
     * cut off like any server, but never coordinate. 0: every server votes.
     */
    public SoakOptions withVoters(int v) {
        Copy c = new Copy(this);
        c.voters = v;
        return c.build();
    }

    public SoakOptions onFlinkCluster(Path jar) {
        Copy c = new Copy(this);
        c.flinkCluster = true;
        c.jobJar = jar;
        return c.build();
    }

    /** The options as fields, so each variant above names only what it changes. */
    private static final class Copy {
        private final long seed;
        private final int faults;
        private final String format;
        private final Path workDir;
        private Set<FaultKind> kinds;
        private boolean flinkCluster;
        private Path jobJar;
        private final Duration maxRecovery;
        private final int logPerTick;
        private final int pkPerTick;
        private int quietMaxMillis;
        private double durationScale;
        private boolean kindsInTurn;
        private final PrintStream out;
        private Map<String, String> serverOptions;
        private int servers;
        private int voters;

        Copy(SoakOptions o) {
            seed = o.seed;
            faults = o.faults;
            format = o.format;
            workDir = o.workDir;
            kinds = o.kinds;
            flinkCluster = o.flinkCluster;
            jobJar = o.jobJar;
            maxRecovery = o.maxRecovery;
            logPerTick = o.logPerTick;
            pkPerTick = o.pkPerTick;
            quietMaxMillis = o.quietMaxMillis;
            durationScale = o.durationScale;
            kindsInTurn = o.kindsInTurn;
            out = o.out;
            serverOptions = o.serverOptions;
            servers = o.servers;
            voters = o.voters;
        }

        SoakOptions build() {
            return new SoakOptions(
                    seed,
                    faults,
                    format,
                    workDir,
                    kinds,
                    flinkCluster,
                    jobJar,
                    maxRecovery,
                    logPerTick,
                    pkPerTick,
                    quietMaxMillis,
                    durationScale,
                    kindsInTurn,
                    out,
                    serverOptions,
                    servers,
                    voters);
        }
    }
}
