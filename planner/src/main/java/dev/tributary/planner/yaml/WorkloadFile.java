package dev.tributary.planner.yaml;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.coordinator.tiering.QueuePolicy;
import dev.tributary.planner.sim.SimulationSettings;
import dev.tributary.planner.workload.JobLoad;
import dev.tributary.planner.workload.ReaderModel;
import dev.tributary.planner.workload.TableLoad;
import dev.tributary.planner.workload.Workload;
import dev.tributary.tiering.api.CommitOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.representer.Representer;

/**
 * The workload file of {@code tributary plan --file} (YAML; JSON is read too, it is YAML), and the
 * same document the server answers at {@code /api/tiering/workload}, so a measured workload can be
 * saved, edited and planned again. Every key is checked: a typo is an error that names it and the
 * keys allowed there.
 *
 * <pre>
 * coordinator: {queue-policy: fifo, commit-order: completion}
 * jobs:
 *   - {id: job-1, group: default, parallelism: 16, log-throughput: 30MB/s,
 *      snapshot-throughput: 30MB/s, split-overhead: 200ms, commit-time: 1s}
 * tables:
 *   - {name: shop.clicks, buckets: 16, freshness: 1min, write-rate: 48MB/s, record-size: 200B,
 *      commit-time: 1.5s, log-throughput: 25MB/s}
 *   - {name: shop.customers, buckets: 12, freshness: 5min, primary-key: true,
 *      write-rate: 2MB/s, state-size: 36GB, tiered: false}
 * simulation: {horizon: 1h, tables-created-before: 5min, seed: 1}
 * </pre>
 */
public final class WorkloadFile {
    private static final Set<String> TOP =
            Set.of("coordinator", "jobs", "tables", "simulation", "notes");
    private static final Set<String> COORDINATOR = Set.of("queue-policy", "commit-order");
    private static final Set<String> JOB =
            Set.of(
                    "id",
                    "group",
                    "parallelism",
                    "log-throughput",
                    "snapshot-throughput",
                    "split-overhead",
                    "commit-time",
                    "split-max-records",
                    "jitter");
    private static final Set<String> TABLE =
            Set.of(
                    "name",
                    "group",
                    "buckets",
                    "freshness",
                    "lag-target",
                    "primary-key",
                    "write-rate",
                    "write-records",
                    "record-size",
                    "hot-bucket-skew",
                    "state-size",
                    "tiered",
                    "split-duration",
                    "first-split-duration",
                    "commit-time",
                    "log-throughput");
    private static final Set<String> SIMULATION =
            Set.of("horizon", "warmup", "seed", "tables-created-before");

    /** A parsed file: the workload and how to simulate it. */
    public record Parsed(Workload workload, SimulationSettings settings) {}

    private WorkloadFile() {}

    /**
     * @param source names the document in errors (a file name, or a server's address)
     * @throws InvalidInputException for anything that is not a valid workload, naming where
     */
    public static Parsed parse(String text, String source) {
        Object root;
        try {
            root = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
        } catch (YAMLException e) {
            throw new InvalidInputException(
                    source + " is not valid YAML: " + e.getMessage().replace('\n', ' '));
        }
        if (!(root instanceof Map<?, ?>)) {
            throw new InvalidInputException(
                    source + " must be a map with 'jobs' and 'tables' (see tributary plan --help)");
        }
        Node top = new Node(source, (Map<?, ?>) root, TOP);
        Node coord = top.child("coordinator", COORDINATOR);
        QueuePolicy policy =
                coord.enumValue("queue-policy", QueuePolicy.class, QueuePolicy.DEADLINE);
        CommitOrder order =
                coord.enumValue("commit-order", CommitOrder.class, CommitOrder.COMPLETION);
        Node sim = top.child("simulation", SIMULATION);
        SimulationSettings defaults = SimulationSettings.DEFAULT;
        Duration horizon = sim.duration("horizon", defaults.horizon());
        Duration warmup = sim.duration("warmup", null);
        long seed = sim.longValue("seed", defaults.seed());
        Duration createdBefore = sim.duration("tables-created-before", Duration.ZERO);
        SimulationSettings settings;
        try {
            settings = new SimulationSettings(horizon, warmup, seed);
        } catch (InvalidInputException e) {
            throw new InvalidInputException(source + ": simulation: " + e.getMessage());
        }
        List<JobLoad> jobs = new ArrayList<>();
        List<Node> jobNodes = top.list("jobs", JOB);
        if (jobNodes.isEmpty()) {
            throw new InvalidInputException(
                    source + ": 'jobs' must list at least one tiering job (id, parallelism)");
        }
        for (Node j : jobNodes) {
            jobs.add(job(j));
        }
        List<TableLoad> tables = new ArrayList<>();
        for (Node t : top.list("tables", TABLE)) {
            tables.add(table(t));
        }
        List<String> notes = top.strings("notes");
        try {
            return new Parsed(
                    new Workload(policy, order, createdBefore, jobs, tables, notes), settings);
        } catch (InvalidInputException e) {
            throw new InvalidInputException(source + ": " + e.getMessage());
        }
    }

    private static JobLoad job(Node j) {
        ReaderModel d = ReaderModel.DEFAULT;
        String id = j.string("id", null);
        if (id == null || id.isBlank()) {
            throw new InvalidInputException(j.where + ": a job needs an 'id'");
        }
        try {
            ReaderModel reader =
                    new ReaderModel(
                            j.bytesPerSecond("log-throughput", d.logBytesPerSecond()),
                            j.bytesPerSecond("snapshot-throughput", d.snapshotBytesPerSecond()),
                            j.duration("split-overhead", d.splitOverhead()),
                            j.duration("commit-time", d.commitTime()),
                            j.longValue("split-max-records", d.splitMaxRecords()),
                            j.doubleValue("jitter", d.jitter()));
            if (!j.has("parallelism")) {
                throw new InvalidInputException("job " + id + " needs 'parallelism' (its readers)");
            }
            return new JobLoad(id, j.string("group", null), j.intValue("parallelism", -1), reader);
        } catch (InvalidInputException e) {
            throw new InvalidInputException(j.where + ": " + e.getMessage());
        }
    }

    private static TableLoad table(Node t) {
        String name = t.string("name", null);
        if (name == null || name.isBlank()) {
            throw new InvalidInputException(t.where + ": a table needs a 'name'");
        }
        if (!t.has("buckets")) {
            throw new InvalidInputException(t.where + " (" + name + "): 'buckets' is required");
        }
        Duration freshness = t.duration("freshness", null);
        if (freshness == null) {
            throw new InvalidInputException(
                    t.where + " (" + name + "): 'freshness' is required, e.g. freshness: 1min");
        }
        boolean pk = t.bool("primary-key", false);
        double recordBytes = t.bytes("record-size", 100);
        double records;
        if (t.has("write-rate") && t.has("write-records")) {
            throw new InvalidInputException(
                    t.where
                            + " ("
                            + name
                            + "): give write-rate (bytes/s) or write-records"
                            + " (records/s), not both");
        } else if (t.has("write-rate")) {
            records = t.bytesPerSecond("write-rate", 0) / recordBytes;
        } else if (t.has("write-records")) {
            records = t.perSecond("write-records", 0);
        } else if (t.has("split-duration")) {
            records = 1000.0 * t.intValue("buckets", 1);
        } else {
            throw new InvalidInputException(
                    t.where
                            + " ("
                            + name
                            + "): say how much is written (write-rate: 5MB/s or write-records:"
                            + " 50000/s), or give fixed split-duration");
        }
        try {
            return new TableLoad(
                    name,
                    t.string("group", null),
                    t.intValue("buckets", -1),
                    freshness,
                    t.duration("lag-target", null),
                    pk,
                    records,
                    recordBytes,
                    t.doubleValue("hot-bucket-skew", 1),
                    t.bytes("state-size", 0),
                    t.bool("tiered", !pk),
                    t.duration("split-duration", null),
                    t.duration("first-split-duration", null),
                    t.duration("commit-time", null),
                    t.bytesPerSecond("log-throughput", 0));
        } catch (InvalidInputException e) {
            throw new InvalidInputException(t.where + ": " + e.getMessage());
        }
    }

    // ---------------------------------------------------------------- writing

    /** The document of a workload, ready for YAML or JSON. */
    public static Map<String, Object> toMap(Workload w, SimulationSettings s) {
        Map<String, Object> out = new LinkedHashMap<>();
        Map<String, Object> coord = new LinkedHashMap<>();
        coord.put("queue-policy", w.queuePolicy().name().toLowerCase(Locale.ROOT));
        coord.put("commit-order", w.commitOrder().name().toLowerCase(Locale.ROOT));
        out.put("coordinator", coord);
        List<Object> jobs = new ArrayList<>();
        for (JobLoad j : w.jobs()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", j.id());
            m.put("group", j.group());
            m.put("parallelism", j.parallelism());
            ReaderModel r = j.reader();
            m.put("log-throughput", Quantities.formatBytesPerSecond(r.logBytesPerSecond()));
            m.put(
                    "snapshot-throughput",
                    Quantities.formatBytesPerSecond(r.snapshotBytesPerSecond()));
            m.put("split-overhead", Quantities.formatDuration(r.splitOverhead()));
            m.put("commit-time", Quantities.formatDuration(r.commitTime()));
            m.put("split-max-records", r.splitMaxRecords());
            m.put("jitter", Double.parseDouble(Quantities.plain(r.jitter())));
            jobs.add(m);
        }
        out.put("jobs", jobs);
        List<Object> tables = new ArrayList<>();
        for (TableLoad t : w.tables()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("name", t.name());
            m.put("group", t.group());
            m.put("buckets", t.buckets());
            m.put("freshness", Quantities.formatDuration(t.freshness()));
            if (t.lagTarget() != null) {
                m.put("lag-target", Quantities.formatDuration(t.lagTarget()));
            }
            m.put("primary-key", t.primaryKey());
            if (t.fixedDurations()) {
                m.put("split-duration", Quantities.formatDuration(t.splitDuration()));
                if (t.firstSplitDuration() != null) {
                    m.put(
                            "first-split-duration",
                            Quantities.formatDuration(t.firstSplitDuration()));
                }
            } else {
                m.put("write-records", Quantities.formatPerSecond(t.writeRecordsPerSecond()));
                m.put("record-size", Quantities.formatBytes(t.recordBytes()));
            }
            m.put("hot-bucket-skew", Double.parseDouble(Quantities.plain(t.hotBucketSkew())));
            if (t.primaryKey()) {
                m.put("state-size", Quantities.formatBytes(t.stateBytes()));
                m.put("tiered", t.tiered());
            }
            if (t.commitTime() != null) {
                m.put("commit-time", Quantities.formatDuration(t.commitTime()));
            }
            if (t.logBytesPerSecond() > 0) {
                m.put("log-throughput", Quantities.formatBytesPerSecond(t.logBytesPerSecond()));
            }
            tables.add(m);
        }
        out.put("tables", tables);
        Map<String, Object> sim = new LinkedHashMap<>();
        sim.put("horizon", Quantities.formatDuration(s.horizon()));
        if (s.warmup() != null) {
            sim.put("warmup", Quantities.formatDuration(s.warmup()));
        }
        sim.put("seed", s.seed());
        sim.put("tables-created-before", Quantities.formatDuration(w.createdBefore()));
        out.put("simulation", sim);
        if (!w.notes().isEmpty()) {
            out.put("notes", w.notes());
        }
        return out;
    }

    /** The workload as YAML text. */
    public static String toYaml(Workload w, SimulationSettings s) {
        DumperOptions o = new DumperOptions();
        o.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        o.setIndent(2);
        o.setIndicatorIndent(0);
        o.setWidth(100);
        return new Yaml(new Representer(o), o).dump(toMap(w, s));
    }

    // ---------------------------------------------------------------- reading helpers

    /** One map of the document with the keys allowed in it; {@code where} names it in errors. */
    private static final class Node {
        final String where;
        final Map<?, ?> map;

        Node(String where, Map<?, ?> map, Set<String> allowed) {
            this.where = where;
            this.map = map;
            for (Object k : map.keySet()) {
                if (!allowed.contains(String.valueOf(k))) {
                    throw new InvalidInputException(
                            where
                                    + ": unknown key '"
                                    + k
                                    + "'; allowed here: "
                                    + String.join(", ", new TreeSet<>(allowed)));
                }
            }
        }

        boolean has(String key) {
            return map.get(key) != null;
        }

        Node child(String key, Set<String> allowed) {
            Object v = map.get(key);
            if (v == null) {
                return new Node(where + "." + key, Map.of(), allowed);
            }
            if (!(v instanceof Map<?, ?> m)) {
                throw new InvalidInputException(where + "." + key + " must be a map");
            }
            return new Node(where + "." + key, m, allowed);
        }

        List<Node> list(String key, Set<String> allowed) {
            Object v = map.get(key);
            if (v == null) {
                return List.of();
            }
            if (!(v instanceof List<?> l)) {
                throw new InvalidInputException(where + "." + key + " must be a list");
            }
            List<Node> out = new ArrayList<>();
            for (int i = 0; i < l.size(); i++) {
                if (!(l.get(i) instanceof Map<?, ?> m)) {
                    throw new InvalidInputException(
                            where + "." + key + "[" + i + "] must be a map of keys to values");
                }
                out.add(new Node(key + "[" + i + "]", m, allowed));
            }
            return out;
        }

        List<String> strings(String key) {
            Object v = map.get(key);
            if (v == null) {
                return List.of();
            }
            if (!(v instanceof List<?> l)) {
                throw new InvalidInputException(where + "." + key + " must be a list");
            }
            return l.stream().map(String::valueOf).toList();
        }

        private String raw(String key) {
            Object v = map.get(key);
            return v == null ? null : String.valueOf(v).trim();
        }

        String string(String key, String dflt) {
            String v = raw(key);
            return v == null ? dflt : v;
        }

        int intValue(String key, int dflt) {
            long v = longValue(key, dflt);
            if (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE) {
                throw new InvalidInputException(where + "." + key + ": " + v + " is too large");
            }
            return (int) v;
        }

        long longValue(String key, long dflt) {
            String v = raw(key);
            if (v == null) {
                return dflt;
            }
            try {
                return Long.parseLong(v);
            } catch (NumberFormatException e) {
                throw new InvalidInputException(
                        where + "." + key + ": '" + v + "' is not a whole number");
            }
        }

        double doubleValue(String key, double dflt) {
            String v = raw(key);
            if (v == null) {
                return dflt;
            }
            try {
                return Double.parseDouble(v);
            } catch (NumberFormatException e) {
                throw new InvalidInputException(
                        where + "." + key + ": '" + v + "' is not a number");
            }
        }

        boolean bool(String key, boolean dflt) {
            String v = raw(key);
            if (v == null) {
                return dflt;
            }
            if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
                return Boolean.parseBoolean(v);
            }
            throw new InvalidInputException(
                    where + "." + key + ": '" + v + "' is not true or false");
        }

        Duration duration(String key, Duration dflt) {
            String v = raw(key);
            return v == null ? dflt : Quantities.duration(v, where + "." + key);
        }

        long bytes(String key, long dflt) {
            String v = raw(key);
            return v == null ? dflt : Quantities.bytes(v, where + "." + key);
        }

        double bytesPerSecond(String key, double dflt) {
            String v = raw(key);
            return v == null ? dflt : Quantities.bytesPerSecond(v, where + "." + key);
        }

        double perSecond(String key, double dflt) {
            String v = raw(key);
            return v == null ? dflt : Quantities.perSecond(v, where + "." + key);
        }

        <E extends Enum<E>> E enumValue(String key, Class<E> type, E dflt) {
            String v = raw(key);
            if (v == null) {
                return dflt;
            }
            try {
                return Enum.valueOf(type, v.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                List<String> names = new ArrayList<>();
                for (E c : type.getEnumConstants()) {
                    names.add(c.name().toLowerCase(Locale.ROOT));
                }
                throw new InvalidInputException(
                        where
                                + "."
                                + key
                                + ": '"
                                + v
                                + "' is not one of "
                                + String.join(", ", names));
            }
        }
    }
}
