package dev.tributary.tiering.soak;

import dev.tributary.client.Connection;
import dev.tributary.common.id.TablePath;
import dev.tributary.tiering.testutil.LakeCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * The soak's faults of a cluster's coordinator (T49): kill -9 of its server, measured to another
 * server coordinating and to the next round in the lake; SIGSTOP of its server, at a random moment
 * or right before a lake commit, until another server coordinates; a partition that cuts it (or a
 * follower) off from everyone. Shares the soak's servers, its short-timeout probe connection, its
 * random and its list of problems.
 */
final class CoordinatorFaults {
    private final SoakServers servers;
    private final Connection probe;
    private final SoakControl control;
    private final LakeCheck lake;
    private final List<TablePath> tables;
    private final Random random;
    private final List<String> problems;
    private final Duration maxRecovery;
    private final List<long[]> failovers = new ArrayList<>();
    private int partitions;
    private final List<long[]> cutOffs = new ArrayList<>();

    /** What a server prints when it finds it lost the leadership (it stops coordinating). */
    private static final String STEPPED_DOWN = "lost the leadership of the cluster metadata";

    /** What a server prints when it SIGSTOPs itself before a lake commit (SoakServerMain). */
    private static final String PAUSED_ITSELF = "pausing myself ";

    CoordinatorFaults(
            SoakServers servers,
            Connection probe,
            SoakControl control,
            LakeCheck lake,
            List<TablePath> tables,
            Random random,
            List<String> problems,
            Duration maxRecovery) {
        this.servers = servers;
        this.probe = probe;
        this.control = control;
        this.lake = lake;
        this.tables = tables;
        this.random = random;
        this.problems = problems;
        this.maxRecovery = maxRecovery;
    }

    /**
     * The cut-off coordinators (T49) as one line part, empty when there were none: from the cut to
     * another server coordinating, and to the cut server stopping to coordinate.
     */
    String cutOffSummary() {
        if (cutOffs.isEmpty()) {
            return "";
        }
        long[] other = cutOffs.stream().mapToLong(c -> c[0]).sorted().toArray();
        long[] down = cutOffs.stream().mapToLong(c -> c[1]).sorted().toArray();
        return String.format(
                " coordinator cut-offs=%d cut->another coordinates ms p50/max %d/%d cut->it stops"
                        + " coordinating ms p50/max %d/%d",
                cutOffs.size(),
                SoakResult.percentile(other, 50),
                other[other.length - 1],
                SoakResult.percentile(down, 50),
                down[down.length - 1]);
    }

    /** Kill to another coordinator, per measured kill, sorted. */
    long[] toCoordinatorMillis() {
        return failovers.stream().mapToLong(f -> f[0]).sorted().toArray();
    }

    /** Kill to the next round in the lake, per measured kill, sorted. */
    long[] toRoundMillis() {
        return failovers.stream().mapToLong(f -> f[1]).sorted().toArray();
    }

    /**
     * T49: kill -9 of the coordinator's server. Measures from the kill until another server answers
     * as coordinator and until the next round is in the lake (only a coordinator commits, and the
     * killed one commits nothing more, so that round is its successor's). The killed server is
     * restarted after a random gap meanwhile, as a supervisor would.
     */
    String kill() throws Exception {
        int old = coordinator();
        long pid = servers.process(old).pid();
        servers.kill(old);
        long t0 = System.nanoTime();
        // read after the kill (which returns once the process is gone): a commit the old
        // coordinator landed just before it is not its successor's round
        Map<TablePath, Map<Integer, Long>> before = committedNow();
        long gap = random.nextInt(2_000);
        CompletableFuture<Void> restart =
                CompletableFuture.runAsync(
                        () -> {
                            try {
                                Thread.sleep(gap);
                                servers.start(old);
                            } catch (Exception e) {
                                throw new CompletionException(e);
                            }
                        });
        long toCoordinator = -1;
        long toRound = -1;
        int next = -1;
        long deadline = t0 + maxRecovery.toNanos();
        while ((toCoordinator < 0 || toRound < 0) && System.nanoTime() < deadline) {
            if (toCoordinator < 0) {
                OptionalInt c = coordinatorNow();
                // the restarted server may win the next election too; not before it is back
                if (c.isPresent() && (c.getAsInt() != old || restart.isDone())) {
                    next = c.getAsInt();
                    toCoordinator = FaultSoak.millisSince(t0);
                }
            }
            if (toRound < 0 && advanced(before)) {
                toRound = FaultSoak.millisSince(t0);
            }
            Thread.sleep(100);
        }
        restart.get(3, TimeUnit.MINUTES);
        if (toCoordinator < 0 || toRound < 0) {
            problems.add(
                    "coordinator kill of server "
                            + old
                            + ": within "
                            + maxRecovery
                            + (toCoordinator < 0
                                    ? " no other server coordinated"
                                    : " no round was committed"));
        } else {
            failovers.add(new long[] {toCoordinator, toRound});
        }
        return String.format(
                "killed the coordinator's server %d (pid %d): server %d coordinates after %d ms,"
                        + " the next round is in the lake after %d ms; server %d restarted after"
                        + " %d ms",
                old, pid, next, toCoordinator, toRound, old, gap);
    }

    /** SIGSTOP of the coordinator's server at a random moment, then as {@link #afterPause}. */
    String pause() throws Exception {
        int old = coordinator();
        int steppedDown = count(servers.process(old), STEPPED_DOWN);
        servers.process(old).stop();
        return "SIGSTOP of the coordinator's server " + old + ": " + afterPause(old, steppedDown);
    }

    /** How often this run of {@code p} printed {@code text} (a server now outlives faults). */
    private static int count(SoakProcess p, String text) {
        return count(p.outputOfThisRun(), text);
    }

    private static int count(String out, String text) {
        int n = 0;
        for (int at = out.indexOf(text); at >= 0; at = out.indexOf(text, at + text.length())) {
            n++;
        }
        return n;
    }

    /**
     * Arms the pause before a lake commit and waits for the coordinating server to stop itself
     * there, then as {@link #afterPause}.
     */
    String pauseInCommit() throws Exception {
        int[] paused = new int[servers.count() + 1];
        int[] steppedDown = new int[servers.count() + 1];
        for (int id : servers.ids().toArray()) {
            paused[id] = count(servers.process(id), PAUSED_ITSELF);
            steppedDown[id] = count(servers.process(id), STEPPED_DOWN);
        }
        control.arm(SoakControl.PAUSE_BEFORE_COMMIT, 1);
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            for (int id : servers.ids().toArray()) {
                String out = servers.process(id).outputOfThisRun();
                if (count(out, PAUSED_ITSELF) > paused[id]) {
                    String why = out.substring(out.lastIndexOf(PAUSED_ITSELF));
                    return "server "
                            + id
                            + " stopped itself "
                            + why.substring(PAUSED_ITSELF.length()).lines().findFirst().orElse("")
                            + ": "
                            + afterPause(id, steppedDown[id]);
                }
            }
            Thread.sleep(50);
        }
        control.disarm(SoakControl.PAUSE_BEFORE_COMMIT);
        return "no lake commit within 60 s: nothing paused";
    }

    /**
     * Server {@code old}, the coordinator's, is stopped (SIGSTOP): waits until another server
     * coordinates, resumes it up to 2 s later and expects it to step down (stop coordinating, its
     * {@code steppedDown}-th such line) and serve on. A lake commit it had under way runs on after
     * it wakes; the lake's fence refuses it, or the successor's round of the same offsets (T19).
     */
    private String afterPause(int old, int steppedDown) throws Exception {
        SoakProcess p = servers.process(old);
        long t0 = System.nanoTime();
        int next = -1;
        long toCoordinator = -1;
        long deadline = t0 + Duration.ofSeconds(60).toNanos();
        while (next < 0 && System.nanoTime() < deadline) {
            OptionalInt c = coordinatorNow();
            if (c.isPresent() && c.getAsInt() != old) {
                next = c.getAsInt();
                toCoordinator = FaultSoak.millisSince(t0);
            }
            Thread.sleep(100);
        }
        long extra = random.nextInt(2_000);
        Thread.sleep(extra);
        p.resume();
        if (next < 0) {
            problems.add(
                    "no other server coordinated within 60 s while server " + old + " was stopped");
            return "stopped for 60 s: no other server coordinated";
        }
        long toStepDown = awaitStepDown(p, steppedDown, Duration.ofSeconds(30));
        String woken;
        if (!p.isAlive()) {
            problems.add(
                    "server "
                            + old
                            + " exited after it woke up with server "
                            + next
                            + " coordinating, instead of stepping down:\n"
                            + StandaloneJobs.tail(p.outputOfThisRun()));
            servers.start(old);
            woken = "it exited (restarted)";
        } else if (toStepDown < 0) {
            problems.add(
                    "server "
                            + old
                            + " did not step down within 30 s after it woke up with server "
                            + next
                            + " coordinating");
            servers.kill(old);
            servers.start(old);
            woken = "it did not step down within 30 s after SIGCONT: killed, restarted";
        } else {
            woken = "it stepped down " + toStepDown + " ms after SIGCONT and serves on";
        }
        return String.format(
                "server %d coordinates after %d ms, SIGCONT %d ms later; %s",
                next, toCoordinator, extra, woken);
    }

    /**
     * Milliseconds until {@code p} printed its {@code before + 1}-th step-down line, or -1 when it
     * did not within {@code timeout} or exited.
     */
    private static long awaitStepDown(SoakProcess p, int before, Duration timeout)
            throws InterruptedException {
        long t0 = System.nanoTime();
        long deadline = t0 + timeout.toNanos();
        while (System.nanoTime() < deadline && p.isAlive()) {
            if (count(p, STEPPED_DOWN) > before) {
                return FaultSoak.millisSince(t0);
            }
            Thread.sleep(50);
        }
        return -1;
    }

    /**
     * Cuts one server off from every other server and client, every other time the coordinator's,
     * else a random one. A cut coordinator: the others must elect another one, and it must stop
     * acting as coordinator on its own (its Ratis leader steps down without a majority, and the
     * server stops coordinating but keeps running); whatever it commits to the lake until then (the
     * lake is a shared file system, not cut) meets the lake's fence. Measured from the cut to
     * another server coordinating and to the cut server's step-down; then the cut heals and the
     * server rejoins as a follower. A cut follower stays cut for {@code followerCutMillis} and must
     * rejoin when it heals.
     */
    String partition(long followerCutMillis) throws Exception {
        boolean ofCoordinator = partitions++ % 2 == 0;
        int coordinating = coordinator();
        int cut = coordinating;
        if (!ofCoordinator) {
            while (cut == coordinating) {
                cut = servers.randomId(random);
            }
        }
        servers.cut(cut);
        long t0 = System.nanoTime();
        try {
            if (!ofCoordinator) {
                Thread.sleep(followerCutMillis);
                servers.heal(cut);
                if (!servers.isAlive(cut)) {
                    problems.add("server " + cut + ", a follower, exited while it was cut off");
                    servers.start(cut);
                }
                return String.format(
                        "server %d (a follower; server %d coordinates) cut off for %d ms, healed",
                        cut, coordinating, followerCutMillis);
            }
            long toCoordinator = -1;
            long toStepDown = -1;
            int next = -1;
            SoakProcess p = servers.process(cut);
            int steppedDown = count(p, STEPPED_DOWN);
            try (Connection others =
                    Connection.builder()
                            .address(servers.addressListWithout(cut))
                            .option("client.request.timeout", "2s")
                            .build()) {
                long deadline = t0 + Duration.ofSeconds(60).toNanos();
                while ((next < 0 || toStepDown < 0) && System.nanoTime() < deadline) {
                    OptionalInt c = next < 0 ? coordinatorOf(others) : OptionalInt.empty();
                    if (c.isPresent() && c.getAsInt() != cut) {
                        next = c.getAsInt();
                        toCoordinator = FaultSoak.millisSince(t0);
                    }
                    if (toStepDown < 0 && count(p, STEPPED_DOWN) > steppedDown) {
                        toStepDown = FaultSoak.millisSince(t0);
                    }
                    Thread.sleep(100);
                }
            }
            if (next < 0) {
                problems.add(
                        "no other server coordinated within 60 s of cutting off server " + cut);
            } else if (toStepDown >= 0) {
                cutOffs.add(new long[] {toCoordinator, toStepDown});
            }
            if (toStepDown < 0) {
                problems.add(
                        "server " + cut + ", the coordinator's, did not step down within 60 s");
            }
            servers.heal(cut);
            boolean alive = p.isAlive();
            if (!alive) {
                problems.add(
                        "server "
                                + cut
                                + ", the coordinator's, exited after it was cut off instead of"
                                + " stepping down:\n"
                                + StandaloneJobs.tail(p.outputOfThisRun()));
                servers.start(cut);
            }
            return String.format(
                    "server %d, the coordinator's, cut off: server %d coordinates after %d ms,"
                            + " server %d stops coordinating after %d ms; healed, %s",
                    cut,
                    next,
                    toCoordinator,
                    cut,
                    toStepDown,
                    alive ? "it serves on" : "it had exited (restarted)");
        } finally {
            servers.heal(cut);
        }
    }

    /** The current coordinator's server id, waiting up to 2 min through an election. */
    private int coordinator() throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (true) {
            OptionalInt c = coordinatorNow();
            if (c.isPresent()) {
                return c.getAsInt();
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no server coordinated for 2 min");
            }
            Thread.sleep(200);
        }
    }

    /** The coordinator's server id if one answers now. */
    private OptionalInt coordinatorNow() {
        return coordinatorOf(probe);
    }

    private static OptionalInt coordinatorOf(Connection connection) {
        try {
            return connection.admin().describeCluster().coordinatorId();
        } catch (RuntimeException e) {
            return OptionalInt.empty();
        }
    }

    private Map<TablePath, Map<Integer, Long>> committedNow() {
        Map<TablePath, Map<Integer, Long>> offsets = new LinkedHashMap<>();
        for (TablePath t : tables) {
            offsets.put(t, lake.committedOffsets(t));
        }
        return offsets;
    }

    /** Whether a round was committed to the lake since {@code before} (any table, any bucket). */
    private boolean advanced(Map<TablePath, Map<Integer, Long>> before) {
        for (TablePath t : tables) {
            for (Map.Entry<Integer, Long> e : lake.committedOffsets(t).entrySet()) {
                if (e.getValue() > before.get(t).getOrDefault(e.getKey(), 0L)) {
                    return true;
                }
            }
        }
        return false;
    }
}
