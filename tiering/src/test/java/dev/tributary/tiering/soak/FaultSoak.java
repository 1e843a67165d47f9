package dev.tributary.tiering.soak;

import dev.tributary.client.Connection;
import dev.tributary.client.admin.BucketReplicaInfo;
import dev.tributary.client.admin.ClusterInfo;
import dev.tributary.client.admin.TableInfo;
import dev.tributary.common.id.TablePath;
import dev.tributary.common.io.DurableFiles;
import dev.tributary.common.types.TableDescriptor;
import dev.tributary.tiering.testutil.LakeCheck;
import dev.tributary.tiering.testutil.TestSchemas;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

/**
 * The fault soak: a real server process, real tiering jobs (standalone processes, or a job on a
 * Flink session cluster), idempotent writers through a proxy the soak controls, and seeded random
 * faults one after another (see {@link FaultKind}). After each fault it measures how long until the
 * lake holds everything the store held when the fault ended; at the end it checks that every
 * acknowledged write is in the store exactly once and nothing in doubt twice ({@link StoreAudit}),
 * and, with the formats' own readers, that every store offset is in the lake exactly once (log
 * tables) and the lake's merged view equals the KV state (the PK table) ({@link LakeCheck}).
 *
 * <p>It prints the seed, every fault with its time, and a final line with the counts, the rows, the
 * duplicates and losses found, and the recovery times (p50/p99) per kind of fault.
 */
public final class FaultSoak implements AutoCloseable {
    static final TablePath EVENTS = TablePath.of("soak", "events");
    static final TablePath AUDIT = TablePath.of("soak", "audit");
    static final TablePath ACCOUNTS = TablePath.of("soak", "accounts");
    private static final List<TablePath> LOG_TABLES = List.of(EVENTS, AUDIT);
    private static final List<TablePath> TABLES = List.of(EVENTS, AUDIT, ACCOUNTS);

    private final SoakOptions o;
    private final Random random;
    private final Path data;
    private final Path logs;
    private final Path warehouse;
    private final SoakControl control;
    private final long startNanos = System.nanoTime();
    private final List<String> problems = new ArrayList<>();
    private final Map<FaultKind, List<Long>> recoveries = new EnumMap<>(FaultKind.class);
    private final Map<FaultKind, Integer> counts = new EnumMap<>(FaultKind.class);
    private LakeDisk disk;
    private SoakServers servers;
    private TcpProxy proxy;
    private Connection direct;
    private Connection probe;
    private Connection clients;
    private TieringJobs jobs;
    private SoakWriters writers;
    private SoakLookups lookups;
    private LakeCheck lake;
    private CoordinatorFaults coordinatorFaults;
    private final Map<TablePath, TableInfo> infos = new LinkedHashMap<>();
    private List<FaultKind> available;
    private final ArrayDeque<FaultKind> turn = new ArrayDeque<>();

    public FaultSoak(SoakOptions options) throws IOException {
        this.o = options;
        this.random = new Random(options.seed());
        this.data = options.workDir().resolve("data");
        this.logs = options.workDir().resolve("logs");
        this.warehouse = options.workDir().resolve("lake");
        Files.createDirectories(logs);
        this.control = new SoakControl(options.workDir().resolve("control"));
    }

    /** The servers past the voters registered, as observers: what the faults then hit. */
    private void checkObservers() throws Exception {
        List<Integer> expected =
                IntStream.rangeClosed(o.voters() + 1, o.servers()).boxed().toList();
        List<Integer> observers = List.of();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            ClusterInfo cluster = withServer(() -> direct.admin().describeCluster());
            observers =
                    cluster.servers().stream()
                            .filter(ClusterInfo.Server::observer)
                            .map(ClusterInfo.Server::serverId)
                            .sorted()
                            .toList();
            if (cluster.servers().size() == o.servers()) {
                break;
            }
            Thread.sleep(500);
        }
        if (observers.equals(expected)) {
            say("observers of the metadata quorum: servers %s", observers);
        } else {
            problems.add("the observers are servers " + observers + ", not " + expected);
        }
    }

    /** Runs the soak: set-up, the faults, the final checks. Never throws for what it finds. */
    public SoakResult run() throws Exception {
        say(
                "fault soak: seed %d, %d faults (%s), format %s, %s, jobs %s, work dir %s",
                o.seed(),
                o.faults(),
                o.kindsInTurn() ? "every kind in turn" : "drawn by weight",
                o.format(),
                o.servers() > 1
                        ? "a cluster of "
                                + o.servers()
                                + " servers"
                                + (o.voters() > 0 && o.voters() < o.servers()
                                        ? " (" + o.voters() + " voters)"
                                        : "")
                        : "one server",
                o.flinkCluster() ? "on a Flink session cluster" : "as standalone processes",
                o.workDir());
        setUp();
        say("faults drawn from %s", available);
        for (int i = 1; i <= o.faults(); i++) {
            Thread.sleep(200 + random.nextInt(Math.max(1, o.quietMaxMillis() - 200)));
            checkHealthy(i);
            FaultKind kind = draw();
            long t0 = System.nanoTime();
            String detail;
            try {
                detail = inject(kind);
            } catch (Exception e) {
                problems.add("fault " + i + " " + kind + " could not be injected: " + e);
                say("fault %d/%d %s FAILED TO INJECT: %s", i, o.faults(), kind, e);
                healAfterFailedInjection();
                continue;
            }
            long lasted = (System.nanoTime() - t0) / 1_000_000;
            long recovered = awaitRecovery();
            if (adoptionExpected != null) {
                detail += checkAdopted(i);
            }
            counts.merge(kind, 1, Integer::sum);
            if (recovered < 0) {
                problems.add("fault " + i + " " + kind + ": no recovery within " + o.maxRecovery());
            } else {
                recoveries.computeIfAbsent(kind, k -> new ArrayList<>()).add(recovered);
            }
            say(
                    "fault %d/%d %s: %s | lasted %d ms, %s",
                    i,
                    o.faults(),
                    kind,
                    detail,
                    lasted,
                    recovered < 0 ? "NOT RECOVERED" : "recovered in " + recovered + " ms");
        }
        return finish();
    }

    // ---------------------------------------------------------------- set-up

    private void setUp() throws Exception {
        disk =
                LakeDisk.create(
                        warehouse, o.kinds().contains(FaultKind.LAKE_DISK_FULL) ? 8 * 1024 : 0);
        NetworkNamespaces network = null;
        if (o.servers() > 1
                && o.kinds().contains(FaultKind.SERVER_PARTITION)
                && NetworkNamespaces.available()) {
            try {
                network = NetworkNamespaces.create(o.servers(), o.seed());
            } catch (IOException e) {
                problems.add("network namespaces could not be made: " + e.getMessage());
            }
        }
        servers =
                new SoakServers(
                        o.servers(),
                        o.voters() > 0 ? o.voters() : o.servers(),
                        data,
                        logs,
                        control.dir(),
                        serverOptions(),
                        network);
        servers.startAll();
        if (!servers.cluster()) {
            proxy = new TcpProxy(servers.rpcPort(1));
        }
        direct =
                Connection.builder()
                        .address(servers.addressList())
                        .option("client.request.timeout", "30s")
                        .build();
        // short calls, for watching a failover without hanging on a stopped server
        probe =
                Connection.builder()
                        .address(servers.addressList())
                        .option("client.request.timeout", "2s")
                        .build();
        // a new cluster may still be electing its first coordinator; the DDL is idempotent
        withServer(
                () -> {
                    direct.admin().createDatabase("soak", true);
                    return null;
                });
        if (o.voters() > 0 && o.voters() < o.servers()) {
            checkObservers();
        }
        infos.put(EVENTS, createTable(EVENTS, TestSchemas.LOG, 4, "id"));
        infos.put(AUDIT, createTable(AUDIT, TestSchemas.LOG, 2, null));
        infos.put(ACCOUNTS, createTable(ACCOUNTS, TestSchemas.PK, 3, null));
        lake = new LakeCheck(warehouse.toFile(), o.format(), o.seed());
        coordinatorFaults =
                new CoordinatorFaults(
                        servers, probe, control, lake, TABLES, random, problems, o.maxRecovery());
        jobs =
                o.flinkCluster()
                        ? new FlinkSessionJobs(
                                logs, o.workDir(), o.jobJar(), this::jobArgs, o.durationScale())
                        : new StandaloneJobs(logs, this::jobArgs, o.durationScale());
        jobs.start();
        clients =
                Connection.builder()
                        .address(clientAddress())
                        .option("client.request.timeout", "5s")
                        .option("client.writer.retries", "200")
                        .option("client.writer.retry-backoff", "100ms")
                        .option("client.writer.linger", "20ms")
                        .build();
        writers = new SoakWriters(clients, LOG_TABLES, ACCOUNTS, o.seed());
        writers.start(o.logPerTick(), o.pkPerTick());
        lookups = new SoakLookups(clients, ACCOUNTS, o.seed() + 1);
        lookups.start();
        available = new ArrayList<>();
        for (FaultKind k : o.kinds()) {
            boolean ok =
                    switch (k.needs) {
                        case NOTHING -> true;
                        case CLUSTER -> servers.cluster();
                        case ONE_SERVER -> !servers.cluster();
                        case STANDALONE_JOBS, FLINK_CLUSTER -> jobs.supports(k);
                        case ROOT_CHATTR -> LakeDisk.canMakeImmutable();
                        case LOOP_MOUNT -> disk.canFill();
                        case NETWORK_NAMESPACES -> servers.partitionable();
                        case SPARE_SERVER ->
                                servers.cluster() && servers.count() > replicationFactor();
                    };
            if (ok && (k != FaultKind.SECOND_JOB || jobs.supports(k))) {
                available.add(k);
            }
        }
        Set<FaultKind> missing = EnumSet.copyOf(o.kinds());
        missing.removeAll(available);
        if (!missing.isEmpty()) {
            say(
                    "not available here (needs root, chattr, a loop mount, network namespaces or the other job set-up): %s",
                    missing);
        }
        long recovered = awaitRecovery();
        say(
                "set up: %d copies of every bucket, first rounds of every table committed after %d"
                        + " ms",
                replicationFactor(), recovered);
    }

    private TableInfo createTable(
            TablePath path, dev.tributary.common.types.Schema schema, int buckets, String bucketKey)
            throws Exception {
        TableDescriptor.Builder b =
                TableDescriptor.builder(schema)
                        .bucketCount(buckets)
                        // as many as a cluster's default, but not left to how many servers had
                        // registered when the table was created (its DDL is retried meanwhile)
                        .property("table.replication.factor", Integer.toString(replicationFactor()))
                        .property("table.datalake.enabled", "true")
                        .property("table.datalake.freshness", "1s");
        if (bucketKey != null) {
            b.bucketKeys(bucketKey);
        }
        return withServer(() -> direct.admin().createTable(path, b.build(), true));
    }

    /** Copies of each bucket: three in a cluster of three or more (T50), else one per server. */
    private int replicationFactor() {
        return Math.min(3, servers.count());
    }

    /**
     * Where clients and jobs connect: the lone server through the soak's proxy (the network kinds
     * act on it), or every server of a cluster (clients follow each bucket to its server).
     */
    private String clientAddress() {
        return servers.cluster() ? servers.addressList() : proxy.address();
    }

    private Map<String, String> serverOptions() {
        Map<String, String> conf = new LinkedHashMap<>();
        conf.put("server.http.port", "-1");
        conf.put("datalake.format", o.format());
        conf.put("datalake." + o.format() + ".warehouse", warehouse.toUri().toString());
        conf.put("tiering.embedded.enabled", "false");
        conf.put("tiering.heartbeat.interval", "500ms");
        conf.put("tiering.heartbeat.timeout", "3s");
        conf.put("tiering.failure.backoff.base", "200ms");
        conf.put("tiering.failure.backoff.max", "2s");
        conf.put("tiering.commit.timeout", "30s");
        conf.put("server.maintenance.interval", "1s");
        conf.put("server.shutdown.timeout", "5s");
        conf.put("kv.snapshot.interval", "5s");
        conf.put("kv.snapshot.lease-timeout", "20s");
        conf.put("log.segment.size", "1mb");
        conf.putAll(o.serverOptions());
        return conf;
    }

    List<String> jobArgs(String jobId) {
        List<String> a = new ArrayList<>();
        a.addAll(List.of("--coordinator", clientAddress()));
        a.addAll(List.of("--datalake.format", o.format()));
        a.addAll(List.of("--datalake." + o.format() + ".warehouse", warehouse.toUri().toString()));
        a.addAll(List.of("--tiering.job.id", jobId));
        a.addAll(List.of("--tiering.split.shuffle-seed", Long.toString(o.seed())));
        a.addAll(List.of("--client.request.timeout", "10s"));
        return a;
    }

    // ---------------------------------------------------------------- faults

    /** A random duration in [min, max) ms, scaled by {@link SoakOptions#durationScale()}. */
    private long duration(int min, int max) {
        return (long) ((min + random.nextInt(max - min)) * o.durationScale());
    }

    private FaultKind draw() {
        if (o.kindsInTurn()) {
            if (turn.isEmpty()) {
                List<FaultKind> next = new ArrayList<>(available);
                Collections.shuffle(next, random);
                turn.addAll(next);
            }
            return turn.removeFirst();
        }
        int total = available.stream().mapToInt(k -> k.weight).sum();
        int r = random.nextInt(total);
        for (FaultKind k : available) {
            r -= k.weight;
            if (r < 0) {
                return k;
            }
        }
        throw new AssertionError();
    }

    private String inject(FaultKind kind) throws Exception {
        switch (kind) {
            case SERVER_KILL -> {
                int id = servers.randomId(random);
                return serverName(id) + killAndRestart(id);
            }
            case SERVER_WIPE -> {
                return wipeAServer();
            }
            case REPLICA_MOVE -> {
                return new SoakMoves(direct, this::withServer, o.maxRecovery())
                        .drainAndRefill(servers.randomId(random), this::maybeKillDuringMoves);
            }
            case TORN_LOG_TAIL -> {
                int id = servers.randomId(random);
                servers.kill(id);
                String torn =
                        TornLogTail.tear(
                                servers.dataDir(id),
                                TABLES.stream().map(infos::get).toList(),
                                random);
                servers.start(id);
                return serverName(id) + torn;
            }
            case SERVER_KILL_AFTER_LAKE_COMMIT -> {
                control.arm(SoakControl.KILL_AFTER_COMMIT, 1);
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                OptionalInt exited = servers.exited();
                while (exited.isEmpty() && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                    exited = servers.exited();
                }
                String detail;
                int id;
                if (exited.isEmpty()) {
                    control.disarm(SoakControl.KILL_AFTER_COMMIT);
                    id = servers.randomId(random);
                    servers.kill(id);
                    detail = "no lake commit within 60 s: killed at a random moment instead";
                } else {
                    id = exited.getAsInt();
                    SoakProcess p = servers.process(id);
                    detail =
                            p.outputOfThisRun()
                                    .lines()
                                    .filter(l -> l.startsWith("killing myself"))
                                    .findFirst()
                                    .orElse("exited with " + p.awaitExit(Duration.ofSeconds(10)));
                    Matcher m = KILLED_AFTER_COMMIT.matcher(detail);
                    if (m.find()) {
                        adoptionExpected =
                                new Adoption(
                                        TablePath.parse(m.group(1)), Long.parseLong(m.group(2)));
                    }
                }
                servers.start(id);
                return serverName(id) + detail;
            }
            case COORDINATOR_KILL -> {
                return coordinatorFaults.kill();
            }
            case COORDINATOR_PAUSE -> {
                return coordinatorFaults.pause();
            }
            case COORDINATOR_PAUSE_IN_COMMIT -> {
                return coordinatorFaults.pauseInCommit();
            }
            case SERVER_PARTITION -> {
                return coordinatorFaults.partition(duration(3_000, 8_000));
            }
            case NETWORK_RESET -> {
                long d = duration(1_000, 5_000);
                proxy.reset();
                Thread.sleep(d);
                proxy.heal(false);
                return "connections reset, new ones refused for " + d + " ms";
            }
            case NETWORK_STALL -> {
                long d = duration(1_000, 8_000);
                boolean drop = random.nextBoolean();
                proxy.stall();
                Thread.sleep(d);
                proxy.heal(drop);
                return "no bytes moved for "
                        + d
                        + " ms"
                        + (drop ? ", then connections dropped" : "");
            }
            case LAKE_COMMIT_ERROR, LAKE_COMMIT_ERROR_AFTER_COMMIT -> {
                String trigger =
                        kind == FaultKind.LAKE_COMMIT_ERROR
                                ? SoakControl.FAIL_BEFORE_COMMIT
                                : SoakControl.FAIL_AFTER_COMMIT;
                int n = 1 + random.nextInt(kind == FaultKind.LAKE_COMMIT_ERROR ? 3 : 2);
                control.arm(trigger, n);
                long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
                while (control.armed(trigger) && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                boolean fired = !control.armed(trigger);
                control.disarm(trigger);
                return n
                        + " lake commit(s) "
                        + (kind == FaultKind.LAKE_COMMIT_ERROR
                                ? "failed before the lake"
                                : "landed, then failed")
                        + (fired ? "" : " (not all fired within 60 s)");
            }
            case LAKE_DIRECTORY_FAILING -> {
                TablePath t = TABLES.get(random.nextInt(TABLES.size()));
                Path dir = lakeDirOf(t);
                long d = duration(2_000, 10_000);
                boolean on = disk.makeImmutable(dir);
                try {
                    Thread.sleep(d);
                } finally {
                    disk.makeMutable(dir);
                }
                return (on ? "" : "(chattr failed) ")
                        + t
                        + "'s lake directory immutable for "
                        + d
                        + " ms";
            }
            case LAKE_DISK_FULL -> {
                long d = duration(2_000, 10_000);
                disk.fill();
                try {
                    Thread.sleep(d);
                } finally {
                    disk.unfill();
                }
                return "the lake's file system full for " + d + " ms";
            }
            default -> {
                return jobs.inject(kind, random);
            }
        }
    }

    static long millisSince(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }

    private String serverName(int id) {
        return servers.cluster() ? "server " + id + ": " : "";
    }

    private static final Pattern KILLED_AFTER_COMMIT =
            Pattern.compile("lake commit of (\\S+) epoch (\\d+)");

    /** A lake commit the server was killed after: the next coordinator must adopt it. */
    private record Adoption(TablePath table, long epoch) {}

    private Adoption adoptionExpected;

    /**
     * T21 with a real server: the next coordinator (restarted, or on another server) found the lake
     * snapshot its predecessor committed but never recorded, and adopted it instead of tiering its
     * offsets again.
     */
    private String checkAdopted(int fault) throws Exception {
        Adoption a = adoptionExpected;
        adoptionExpected = null;
        var status = withServer(() -> direct.admin().tieringStatus(a.table()));
        boolean adopted =
                status.recentRounds().stream()
                        .anyMatch(r -> r.epoch() == a.epoch() && r.outcome().equals("ADOPTED"));
        if (!adopted) {
            problems.add(
                    "fault "
                            + fault
                            + ": the lake commit of "
                            + a.table()
                            + " epoch "
                            + a.epoch()
                            + " was not adopted by the next coordinator (T21); rounds: "
                            + status.recentRounds());
            return "; NOT ADOPTED";
        }
        return "; adopted by the next coordinator (T21)";
    }

    private Path lakeDirOf(TablePath t) {
        return o.format().equals("iceberg")
                ? warehouse.resolve(t.database()).resolve(t.table())
                : warehouse.resolve(t.database() + ".db").resolve(t.table());
    }

    /** Appends garbage to the active segment of a random bucket (the server is down). */
    private void healAfterFailedInjection() throws Exception {
        if (proxy != null) {
            proxy.heal(true);
        }
        for (String t :
                List.of(
                        SoakControl.FAIL_BEFORE_COMMIT,
                        SoakControl.FAIL_AFTER_COMMIT,
                        SoakControl.KILL_AFTER_COMMIT)) {
            control.disarm(t);
        }
        for (int id : servers.ids().toArray()) {
            servers.process(id).resume();
            if (!servers.isAlive(id)) {
                servers.start(id);
            }
        }
    }

    private void checkHealthy(int fault) throws Exception {
        for (int id : servers.ids().toArray()) {
            if (!servers.isAlive(id)) {
                problems.add(
                        "before fault "
                                + fault
                                + ": "
                                + servers.process(id).name()
                                + " had exited by itself:\n"
                                + StandaloneJobs.tail(servers.process(id).outputOfThisRun()));
                say("%s exited by itself; restarting it", servers.process(id).name());
                servers.start(id);
            }
        }
        String job = jobs.checkRunning();
        if (job != null) {
            problems.add("before fault " + fault + ": " + job);
            say(
                    "a tiering job stopped by itself; restarted: %s",
                    job.lines().findFirst().orElse(""));
        }
    }

    // ---------------------------------------------------------------- recovery

    /**
     * Milliseconds until the lake holds, for every table, everything the store held now (the moment
     * the fault was over), or -1 after {@link SoakOptions#maxRecovery()}.
     */
    private long awaitRecovery() throws Exception {
        long t0 = System.nanoTime();
        Map<TablePath, Map<Integer, Long>> ends = new LinkedHashMap<>();
        for (TablePath t : TABLES) {
            long id = infos.get(t).tableId();
            ends.put(t, withServer(() -> direct.tieringGateway().endOffsets(id)));
        }
        long deadline = t0 + o.maxRecovery().toNanos();
        while (System.nanoTime() < deadline) {
            boolean all = true;
            for (TablePath t : TABLES) {
                Map<Integer, Long> committed = lake.committedOffsets(t);
                for (Map.Entry<Integer, Long> e : ends.get(t).entrySet()) {
                    if (committed.getOrDefault(e.getKey(), 0L) < e.getValue()) {
                        all = false;
                        break;
                    }
                }
                if (!all) {
                    break;
                }
            }
            if (all) {
                return (System.nanoTime() - t0) / 1_000_000;
            }
            Thread.sleep(250);
        }
        return -1;
    }

    /** Runs a call against the server, retrying while it restarts. */
    /**
     * Kills a server and deletes its data directory, once every bucket has all its copies in sync
     * (with min.insync.replicas 2, a bucket whose only in-sync copy is wiped would have no leader
     * to elect: no unclean election); kills without wiping if that does not happen in 60 s. Then
     * waits until the wiped server is out of the in-sync sets (the coordinator saw it) and back in
     * all of them: until then it has no metadata log either, the quorum is a voter short (a wiped
     * voter may not vote: a committed entry could be lost), and one more server down would stop the
     * cluster, which is Raft's rule, not a fault of Tributary's to find. A server that holds no
     * copy (drained, and killed while the undrain ran, so nothing moved back) is not wiped: another
     * that holds copies is, or the wait for it to leave an in-sync set could never end.
     */
    private String wipeAServer() throws Exception {
        int drawn = servers.randomId(random);
        boolean inSync =
                awaitReplicas(
                        Duration.ofSeconds(60),
                        r ->
                                r.stream()
                                        .allMatch(
                                                b ->
                                                        b.inSyncReplicas().size()
                                                                == b.replicas().size()));
        List<Integer> holders = withServer(this::serversHoldingCopies);
        int id =
                holders.isEmpty() || holders.contains(drawn)
                        ? drawn
                        : holders.get(random.nextInt(holders.size()));
        long pid = servers.process(id).pid();
        servers.kill(id);
        if (!inSync) {
            servers.start(id);
            return serverName(id)
                    + "buckets under-replicated for 60 s: killed pid "
                    + pid
                    + " without wiping it";
        }
        DurableFiles.deleteRecursively(servers.dataDir(id));
        long wiped = System.nanoTime();
        servers.start(id);
        // only the buckets it holds a copy of (with more servers than copies, not all of them)
        boolean seen =
                awaitReplicas(
                        Duration.ofSeconds(60),
                        r ->
                                r.stream()
                                        .anyMatch(
                                                b ->
                                                        b.replicas().contains(id)
                                                                && !b.inSyncReplicas()
                                                                        .contains(id)));
        boolean back =
                seen
                        && awaitReplicas(
                                Duration.ofSeconds(120),
                                r ->
                                        r.stream()
                                                .filter(b -> b.replicas().contains(id))
                                                .allMatch(b -> b.inSyncReplicas().contains(id)));
        long ms = (System.nanoTime() - wiped) / 1_000_000;
        if (!back) {
            servers.dumpThreads("wipe-" + id + "-" + ms + "ms");
            problems.add(
                    "SERVER_WIPE of server "
                            + id
                            + ": not back in every in-sync set "
                            + ms
                            + " ms after the wipe");
        }
        return serverName(id)
                + "killed pid "
                + pid
                + ", data directory deleted, restarted; "
                + (back
                        ? "back in every in-sync set after " + ms + " ms"
                        : "NOT back after " + ms + " ms");
    }

    /** The servers named among the replicas of any bucket, in id order. */
    private List<Integer> serversHoldingCopies() {
        Set<Integer> ids = new TreeSet<>();
        allReplicas().forEach(b -> ids.addAll(b.replicas()));
        return List.copyOf(ids);
    }

    /** Every bucket's replicas, of every table, as the coordinator describes them now. */
    private List<BucketReplicaInfo> allReplicas() {
        List<BucketReplicaInfo> all = new ArrayList<>();
        for (TablePath t : TABLES) {
            all.addAll(direct.admin().describeBuckets(t, null));
        }
        return all;
    }

    /**
     * Polls every table's buckets' replicas until {@code done} holds for them all, or time is up.
     */
    private boolean awaitReplicas(Duration atMost, Predicate<List<BucketReplicaInfo>> done)
            throws Exception {
        long deadline = System.nanoTime() + atMost.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                if (done.test(allReplicas())) {
                    return true;
                }
            } catch (RuntimeException notNow) {
                // the coordinator may be moving: ask again
            }
            Thread.sleep(200);
        }
        return false;
    }

    /** Every other time: a kill -9 of a random server while replicas move, restarted soon. */
    private String maybeKillDuringMoves() throws Exception {
        Thread.sleep(random.nextInt(1_000));
        if (random.nextBoolean()) {
            return "";
        }
        int id = servers.randomId(random);
        return "server " + id + " " + killAndRestart(id);
    }

    /** kill -9 of server {@code id}, started again after up to 2 s. */
    private String killAndRestart(int id) throws Exception {
        long pid = servers.process(id).pid();
        servers.kill(id);
        long gap = random.nextInt(2_000);
        Thread.sleep(gap);
        servers.start(id);
        return "killed pid " + pid + ", restarted after " + gap + " ms";
    }

    private <T> T withServer(Callable<T> call) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (true) {
            try {
                return call.call();
            } catch (RuntimeException e) {
                if (System.nanoTime() > deadline) {
                    servers.dumpThreads("unanswered-" + System.currentTimeMillis());
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    // ---------------------------------------------------------------- the end

    private SoakResult finish() throws Exception {
        checkHealthy(o.faults() + 1);
        String cutOffs = coordinatorFaults.cutOffSummary();
        if (!cutOffs.isEmpty()) {
            say("%s", cutOffs.strip());
        }
        say("faults done; writers flush");
        writers.stopAndFlush();
        lookups.stop();
        say("%s", lookups.summary());
        problems.addAll(lookups.problems());
        long caughtUp = awaitRecovery();
        say("lake caught up with the store %d ms after the writers stopped", caughtUp);
        if (caughtUp < 0) {
            problems.add("the lake did not catch up with the store after the last fault");
        }
        StoreAudit.Result store =
                StoreAudit.run(direct, LOG_TABLES, ACCOUNTS, writers, lookups.seen());
        long lakeRows = 0;
        for (TablePath t : TABLES) {
            try {
                lakeRows += lake.verifyCaughtUp(direct, infos.get(t), o.maxRecovery());
            } catch (AssertionError | RuntimeException e) {
                problems.add("lake check of " + t + ": " + e.getMessage());
            }
        }
        Map<FaultKind, long[]> rec = new EnumMap<>(FaultKind.class);
        recoveries.forEach(
                (k, v) -> rec.put(k, v.stream().mapToLong(Long::longValue).sorted().toArray()));
        SoakResult r =
                new SoakResult(
                        o.seed(),
                        o.format(),
                        counts.values().stream().mapToInt(Integer::intValue).sum(),
                        new EnumMap<>(counts),
                        rec,
                        writers.rowsWritten(),
                        store,
                        lakeRows,
                        List.copyOf(problems),
                        Duration.ofNanos(System.nanoTime() - startNanos),
                        coordinatorFaults.toCoordinatorMillis(),
                        coordinatorFaults.toRoundMillis());
        writers.errors().forEach((e, n) -> say("%d rows failed for good with %s", n, e));
        for (String p : problems) {
            say("PROBLEM: %s", p);
        }
        for (String p : store.problems()) {
            say("STORE PROBLEM: %s", p);
        }
        say("%s", r.summary());
        return r;
    }

    private void say(String format, Object... args) {
        o.out()
                .printf(
                        "[%8.1f s] %s%n",
                        (System.nanoTime() - startNanos) / 1e9, String.format(format, args));
        o.out().flush();
    }

    @Override
    public void close() throws Exception {
        for (AutoCloseable c :
                new AutoCloseable[] {lookups, writers, clients, jobs, probe, direct, proxy}) {
            if (c != null) {
                try {
                    c.close();
                } catch (Exception e) {
                    // keep closing the rest
                }
            }
        }
        if (servers != null) {
            servers.close();
        }
        if (disk != null) {
            disk.close();
        }
    }
}
