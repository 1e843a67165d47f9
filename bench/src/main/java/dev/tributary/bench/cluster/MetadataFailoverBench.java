package dev.tributary.bench.cluster;

import dev.tributary.bench.cluster.MetadataBenchData.Percentiles;
import dev.tributary.cluster.ClusterConfig;
import dev.tributary.common.time.Clock;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Failover of the replicated metadata store under kill -9 (T49), the consensus layer's share of a
 * coordinator failover: three voters as three JVMs ({@link RaftVoterMain}, this process's
 * classpath), each a {@link dev.tributary.cluster.RaftMetadataStore} over loopback gRPC. Each of
 * {@code --kills} times: {@code --writes} acknowledged writes (putTable) on the leader, one more
 * sent and the leader killed at once with SIGKILL ({@link Process#destroyForcibly()}) while it may
 * be in flight; measured from the kill to (a) another voter reporting leader-ready (its {@code
 * onLeaderReady}: elected and applied everything committed before its term) and (b) the first
 * acknowledged write on the new leader (sent as soon as it reports ready). The killed voter is then
 * restarted from its directory and must answer a linearizable read (it caught up) before the next
 * kill.
 *
 * <p>At the end every voter's state is audited: each holds every acknowledged write, nothing that
 * was never sent, and all three hold the same tables (a write whose outcome the client never
 * learned may or may not be there). The process exits non-zero if the audit or a failover fails.
 *
 * <p>Not measured here: a server's coordinator failover (the coordinator is not wired to this store
 * yet): no coordinator rebuild, no tiering round, no client redirection.
 *
 * <pre>
 * java -cp ... dev.tributary.bench.cluster.MetadataFailoverBench [--kills 30] [--writes 20]
 *     [--election-timeout-ms 2000] [--dir DIR]
 * </pre>
 */
public final class MetadataFailoverBench {
    private static final Clock CLOCK = Clock.system();
    private static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);
    private static final Duration RETRY_PAUSE = Duration.ofMillis(50);
    private static final String PREFIX = "@@ ";

    /** A protocol line from a voter process, stamped when it arrived here. */
    private record Event(Voter voter, int generation, String kind, String[] fields, long nanos) {
        String field(int i) {
            return fields[i];
        }
    }

    /** One voter: its fixed id, port and directory, and its current process. */
    private static final class Voter {
        final int id;
        final Path dir;
        Process process;
        Writer stdin;
        int generation;
        boolean alive;
        // leadership as last reported by the current process
        boolean ready;
        long term = -1;

        Voter(int id, Path dir) {
            this.id = id;
            this.dir = dir;
        }

        void send(String line) throws IOException {
            stdin.write(line + "\n");
            stdin.flush();
        }
    }

    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final List<Voter> voters = new ArrayList<>();
    private final Set<Long> attempted = new HashSet<>();
    private final Set<Long> acknowledged = new HashSet<>();
    private final List<String> voterArgs;
    private long nextId = 1;
    private long nextRequest = 1;
    private int failedWrites;

    private MetadataFailoverBench(List<String> voterArgs) {
        this.voterArgs = voterArgs;
    }

    public static void main(String[] args) throws Exception {
        int kills = 30;
        int writes = 20;
        Duration election = Duration.ofSeconds(2);
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--kills" -> kills = Integer.parseInt(args[++i]);
                case "--writes" -> writes = Integer.parseInt(args[++i]);
                case "--election-timeout-ms" ->
                        election = Duration.ofMillis(Long.parseLong(args[++i]));
                case "--dir" -> dir = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (dir == null) {
            dir = Files.createTempDirectory("metadata-failover-bench");
        }
        List<ClusterConfig.Voter> config = MetadataBenchData.loopbackVoters(3);
        String votersText =
                config.stream().map(ClusterConfig.Voter::toString).collect(Collectors.joining(","));
        List<String> voterArgs =
                List.of(
                        "cluster.id=failover-bench",
                        "cluster.voters=" + votersText,
                        "cluster.election-timeout=" + election.toMillis() + "ms",
                        "cluster.request-timeout=" + REQUEST_TIMEOUT.toMillis() + "ms");
        System.out.printf(
                Locale.ROOT,
                "MetadataFailoverBench %s: kills=%d writes-per-kill=%d election-timeout=%s"
                        + " request-timeout=%s voters=%s dir=%s cores=%d load-average=%s%n",
                Instant.now(),
                kills,
                writes,
                election,
                REQUEST_TIMEOUT,
                votersText,
                dir,
                Runtime.getRuntime().availableProcessors(),
                MetadataBenchData.loadAverage());
        MetadataFailoverBench bench = new MetadataFailoverBench(voterArgs);
        Runtime.getRuntime().addShutdownHook(new Thread(bench::destroyAll));
        boolean ok;
        try {
            for (ClusterConfig.Voter v : config) {
                bench.voters.add(new Voter(v.id(), dir.resolve("voter-" + v.id())));
            }
            ok = bench.run(kills, writes);
        } finally {
            bench.stopAll();
        }
        System.out.printf(
                Locale.ROOT, "load average at the end: %s%n", MetadataBenchData.loadAverage());
        System.exit(ok ? 0 : 1);
    }

    private boolean run(int kills, int writes) throws Exception {
        for (Voter v : voters) {
            start(v);
        }
        // Every voter must hold an entry before the first kill: Ratis (3.3) counts no vote from a
        // voter whose log is empty, so a leader killed before the last voter to start received
        // anything leaves the other two unable to elect until it is back (seen in a first run).
        awaitLeader();
        for (Voter v : voters) {
            syncUntilCaughtUp(v);
        }
        long[] toReady = new long[kills];
        long[] toWrite = new long[kills];
        long[] toCaughtUp = new long[kills];
        long[] termSteps = new long[kills];
        for (int k = 0; k < kills; k++) {
            Voter leader = awaitLeader();
            for (int w = 0; w < writes; w++) {
                writeUntilAcknowledged();
            }
            leader = awaitLeader();
            long oldTerm = leader.term;
            long inFlight = nextId++;
            attempted.add(inFlight);
            leader.send("write " + inFlight);
            long killedAt = CLOCK.nanoTime();
            kill(leader);

            Voter killed = leader;
            Event ready =
                    await(
                            e ->
                                    e.kind().equals("LEADER_READY")
                                            && e.voter() != killed
                                            && Long.parseLong(e.field(0)) > oldTerm,
                            "a new leader after killing voter " + killed.id);
            toReady[k] = ready.nanos() - killedAt;
            termSteps[k] = Long.parseLong(ready.field(0)) - oldTerm;
            toWrite[k] = writeUntilAcknowledged() - killedAt;

            long restartAt = CLOCK.nanoTime();
            start(killed);
            syncUntilCaughtUp(killed);
            toCaughtUp[k] = CLOCK.nanoTime() - restartAt;
            System.out.printf(
                    Locale.ROOT,
                    "kill %2d: voter %d (term %d) -> voter %d ready in term %d after %s ms, first"
                            + " write after %s ms; restarted voter caught up in %s ms (load avg"
                            + " %s)%n",
                    k + 1,
                    killed.id,
                    oldTerm,
                    ready.voter().id,
                    Long.parseLong(ready.field(0)),
                    ms(toReady[k]),
                    ms(toWrite[k]),
                    ms(toCaughtUp[k]),
                    MetadataBenchData.loadAverage());
        }
        print("kill -9 -> new leader ready", toReady);
        print("kill -9 -> first acknowledged write", toWrite);
        print("restart -> caught up (JVM start included)", toCaughtUp);
        long extraTerms = Arrays.stream(termSteps).filter(s -> s > 1).count();
        System.out.printf(
                Locale.ROOT,
                "elections that took more than one term: %d of %d (term steps %s)%n",
                extraTerms,
                kills,
                Arrays.toString(termSteps));
        System.out.printf(
                Locale.ROOT, "writes refused or failed (then retried): %d%n", failedWrites);
        return audit();
    }

    /**
     * Writes a new table on the current leader, retrying with a new id on the leader of the moment
     * until one is acknowledged; returns when the acknowledgement arrived.
     */
    private long writeUntilAcknowledged() throws Exception {
        long deadline = CLOCK.nanoTime() + STEP_TIMEOUT.toNanos();
        while (CLOCK.nanoTime() < deadline) {
            Voter leader = awaitLeader();
            long id = nextId++;
            attempted.add(id);
            leader.send("write " + id);
            Event answer =
                    await(
                            e ->
                                    e.voter() == leader
                                            && e.kind().startsWith("WRITE_")
                                            && Long.parseLong(e.field(0)) == id,
                            "the answer to write " + id);
            if (answer.kind().equals("WRITE_OK")) {
                return answer.nanos();
            }
            failedWrites++;
            System.out.printf(
                    Locale.ROOT,
                    "  write %d on voter %d failed: %s%n",
                    id,
                    leader.id,
                    String.join(
                            " ", Arrays.copyOfRange(answer.fields(), 1, answer.fields().length)));
            pause();
        }
        throw new IllegalStateException("no write acknowledged within " + STEP_TIMEOUT);
    }

    /** Linearizable reads on {@code v} until one succeeds: it then applied all committed. */
    private void syncUntilCaughtUp(Voter v) throws Exception {
        long deadline = CLOCK.nanoTime() + STEP_TIMEOUT.toNanos();
        while (CLOCK.nanoTime() < deadline) {
            String req = Long.toString(nextRequest++);
            v.send("sync " + req);
            Event answer =
                    await(
                            e ->
                                    e.voter() == v
                                            && e.kind().startsWith("SYNC_")
                                            && e.field(0).equals(req),
                            "the answer to sync " + req + " on voter " + v.id);
            if (answer.kind().equals("SYNC_OK")) {
                long tables = Long.parseLong(answer.field(1));
                if (tables < acknowledged.size()) {
                    throw new IllegalStateException(
                            "voter "
                                    + v.id
                                    + " answered a linearizable read with "
                                    + tables
                                    + " tables, fewer than the "
                                    + acknowledged.size()
                                    + " acknowledged");
                }
                return;
            }
            pause();
        }
        throw new IllegalStateException("voter " + v.id + " did not catch up in " + STEP_TIMEOUT);
    }

    /** Every voter holds every acknowledged write, nothing never sent, and the same tables. */
    private boolean audit() throws Exception {
        List<Set<Long>> states = new ArrayList<>();
        boolean ok = true;
        for (Voter v : voters) {
            syncUntilCaughtUp(v);
            String req = Long.toString(nextRequest++);
            v.send("dump " + req);
            Event dump =
                    await(
                            e ->
                                    e.voter() == v
                                            && e.kind().equals("DUMP")
                                            && e.field(0).equals(req),
                            "the dump of voter " + v.id);
            Set<Long> tables = new TreeSet<>();
            if (!dump.field(2).equals("-")) {
                for (String id : dump.field(2).split(",")) {
                    tables.add(Long.parseLong(id));
                }
            }
            states.add(tables);
            Set<Long> lost = new TreeSet<>(acknowledged);
            lost.removeAll(tables);
            Set<Long> invented = new TreeSet<>(tables);
            invented.removeAll(attempted);
            Set<Long> unacknowledgedPresent = new TreeSet<>(tables);
            unacknowledgedPresent.removeAll(acknowledged);
            System.out.printf(
                    Locale.ROOT,
                    "audit voter %d: %d tables; acknowledged %d, lost %d %s, never sent %d %s;"
                            + " present without acknowledgement (outcome unknown to the client):"
                            + " %d %s%n",
                    v.id,
                    tables.size(),
                    acknowledged.size(),
                    lost.size(),
                    lost,
                    invented.size(),
                    invented,
                    unacknowledgedPresent.size(),
                    unacknowledgedPresent);
            ok &= lost.isEmpty() && invented.isEmpty();
        }
        boolean same = states.stream().distinct().count() == 1;
        System.out.printf(
                Locale.ROOT,
                "audit: %d writes sent, %d acknowledged; voters identical: %s; result: %s%n",
                attempted.size(),
                acknowledged.size(),
                same,
                ok && same ? "PASS" : "FAIL");
        return ok && same;
    }

    // ------------------------------------------------------------------ processes and events

    private void start(Voter v) throws Exception {
        Files.createDirectories(v.dir);
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.add("-Xmx256m");
        String log4j = System.getProperty("log4j2.configurationFile");
        if (log4j != null) {
            cmd.add("-Dlog4j2.configurationFile=" + log4j);
            cmd.add("-Dtributary.log.level=INFO");
            cmd.add("-Dtributary.log.dir=" + v.dir.resolve("log"));
        }
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(RaftVoterMain.class.getName());
        cmd.add("--dir");
        cmd.add(v.dir.resolve("raft").toString());
        cmd.add("cluster.server-id=" + v.id);
        cmd.addAll(voterArgs);
        Process p =
                new ProcessBuilder(cmd)
                        .redirectError(
                                ProcessBuilder.Redirect.appendTo(
                                        v.dir.resolve("stderr.log").toFile()))
                        .start();
        v.process = p;
        v.stdin = new OutputStreamWriter(p.getOutputStream(), StandardCharsets.UTF_8);
        v.generation++;
        v.alive = true;
        v.ready = false;
        v.term = -1;
        int generation = v.generation;
        Thread reader =
                new Thread(
                        () -> readEvents(v, generation, p), "voter-" + v.id + "-gen-" + generation);
        reader.setDaemon(true);
        reader.start();
        await(
                e -> e.voter() == v && e.generation() == generation && e.kind().equals("STARTED"),
                "voter " + v.id + " to start");
    }

    private void readEvents(Voter v, int generation, Process p) {
        try (BufferedReader out =
                new BufferedReader(
                        new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                long now = CLOCK.nanoTime();
                if (!line.startsWith(PREFIX)) {
                    continue;
                }
                String[] parts = line.substring(PREFIX.length()).split(" ", 4);
                events.add(
                        new Event(
                                v,
                                generation,
                                parts[0],
                                Arrays.copyOfRange(parts, 1, parts.length),
                                now));
            }
        } catch (IOException e) {
            // the process died: its stdout closed
        }
    }

    private static void kill(Voter v) throws InterruptedException {
        v.alive = false;
        v.ready = false;
        v.process.destroyForcibly(); // SIGKILL on Linux
        v.process.waitFor();
    }

    /**
     * Waits for the first event matching {@code match}, tracking every event on the way: leadership
     * of the voters' current processes and acknowledged writes (from any process, a killed one's
     * included: it answered before it died).
     */
    private Event await(Predicate<Event> match, String what) throws InterruptedException {
        long deadline = CLOCK.nanoTime() + STEP_TIMEOUT.toNanos();
        while (true) {
            long left = deadline - CLOCK.nanoTime();
            Event e = left <= 0 ? null : events.poll(left, TimeUnit.NANOSECONDS);
            if (e == null) {
                throw new IllegalStateException(
                        "timed out after " + STEP_TIMEOUT + " waiting for " + what);
            }
            track(e);
            if (e.generation() == e.voter().generation && match.test(e)) {
                return e;
            }
        }
    }

    private void track(Event e) {
        if (e.kind().equals("WRITE_OK")) {
            acknowledged.add(Long.parseLong(e.field(0)));
        }
        Voter v = e.voter();
        if (e.generation() != v.generation || !v.alive) {
            return;
        }
        if (e.kind().equals("LEADER_READY")) {
            v.ready = true;
            v.term = Long.parseLong(e.field(0));
        } else if (e.kind().equals("NOT_LEADER")) {
            v.ready = false;
        }
    }

    /** The live voter that last reported leader-ready in the highest term, waiting for one. */
    private Voter awaitLeader() throws InterruptedException {
        Voter leader = currentLeader();
        if (leader != null) {
            return leader;
        }
        Event e =
                await(
                        ev -> ev.kind().equals("LEADER_READY") && ev.voter().alive,
                        "a leader-ready voter");
        return e.voter();
    }

    private Voter currentLeader() {
        Voter best = null;
        for (Voter v : voters) {
            if (v.alive && v.ready && (best == null || v.term > best.term)) {
                best = v;
            }
        }
        return best;
    }

    private void pause() throws InterruptedException {
        // between retries against a real quorum that is electing or catching up
        Thread.sleep(RETRY_PAUSE.toMillis());
    }

    private void stopAll() {
        for (Voter v : voters) {
            if (v.alive) {
                try {
                    v.send("quit");
                } catch (IOException e) {
                    // already gone
                }
            }
        }
        for (Voter v : voters) {
            if (v.process != null) {
                try {
                    if (!v.process.waitFor(10, TimeUnit.SECONDS)) {
                        v.process.destroyForcibly();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    v.process.destroyForcibly();
                }
            }
        }
    }

    private void destroyAll() {
        for (Voter v : voters) {
            if (v.process != null && v.process.isAlive()) {
                v.process.destroyForcibly();
            }
        }
    }

    private static void print(String what, long[] nanos) {
        Percentiles p = Percentiles.of(nanos);
        System.out.printf(
                Locale.ROOT,
                "%-45s p50 %s ms  p99 %s ms  max %s ms  (n=%d)%n",
                what,
                ms(p.p50()),
                ms(p.p99()),
                ms(p.max()),
                p.count());
    }

    private static String ms(long nanos) {
        return String.format(Locale.ROOT, "%.0f", nanos / 1e6);
    }
}
