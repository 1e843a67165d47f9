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
                1_000,
                0.5,
                kindsInTurn,
                out,
                serverOptions,
                servers,
                voters);
    }

    /**
     * Faults drawn in turns in which every available kind comes once, in a seeded order, instead of
     * by weight: a short run (CI) covers every kind.
     */
    public SoakOptions everyKindInTurn() {
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
                true,
                out,
                serverOptions,
                servers,
                voters);
    }

    public SoakOptions withKinds(Set<FaultKind> k) {
        return new SoakOptions(
                seed,
                faults,
                format,
                workDir,
                k,
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

    /** Extra server options (e.g. {@code cluster.*}), over the soak's own. */
    public SoakOptions withServerOptions(Map<String, String> extra) {
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
                Map.copyOf(extra),
                servers,
                voters);
    }

    /**
     * A cluster of {@code n} servers (voters of one metadata quorum, T49) instead of the lone
     * server: the cluster fault kinds become available, and clients and jobs are given every
     * server's address.
     */
    public SoakOptions onServers(int n) {
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
                n,
                voters);
    }

    /**
     * Only the first {@code v} servers of the cluster vote in its metadata quorum; the others join
     * as observers ({@code cluster.observer-address}): they hold replicas and are killed, wiped and
     * cut off like any server, but never coordinate. 0: every server votes.
     */
    public SoakOptions withVoters(int v) {
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
                v);
    }

    public SoakOptions onFlinkCluster(Path jar) {
        return new SoakOptions(
                seed,
                faults,
                format,
                workDir,
                kinds,
                true,
                jar,
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
