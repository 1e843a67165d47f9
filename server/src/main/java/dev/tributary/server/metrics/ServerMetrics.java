package dev.tributary.server.metrics;

import dev.tributary.common.id.TableBucket;
import dev.tributary.coordinator.metadata.ReplicationHealth;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.store.MetadataStore;
import dev.tributary.lake.api.io.ObjectStoreRequests;
import dev.tributary.server.status.MaintenanceView;
import dev.tributary.server.status.TableStatusView;
import dev.tributary.server.status.TieringStatusService;
import dev.tributary.server.store.TableCatalog;
import dev.tributary.storage.BucketStore;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The server's Prometheus metrics: write counters per table, and gauges per table and bucket (end
 * offsets, lake lag, tiering state and epoch), the pending queue length and live tiering jobs, and
 * per lake table its live data files and snapshots as lake maintenance last read them (T38, T39),
 * the latency of the coordinator's metadata writes ({@link TimedMetadataStore}) and, on the
 * coordinator, the cluster's under-replicated and leaderless buckets (T50). Gauges over dynamic
 * sets of tables are refreshed right before each scrape.
 */
public final class ServerMetrics {
    private final PrometheusMeterRegistry registry =
            new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final Map<Long, Counter[]> writeCounters = new ConcurrentHashMap<>();
    private final MultiGauge endOffsets;
    private final MultiGauge lagRecords;
    private final MultiGauge lagSeconds;
    private final MultiGauge epochs;
    private final MultiGauge queuePositions;
    private final MultiGauge failures;
    private final MultiGauge lakeFiles;
    private final MultiGauge lakeFilesPerBucket;
    private final MultiGauge lakeSnapshots;
    private final MultiGauge compactions;
    private final MultiGauge bytesReclaimed;
    private final MultiGauge clusterBuckets;
    private final AtomicInteger queueLength = new AtomicInteger();
    private final AtomicInteger liveJobs = new AtomicInteger();
    private final AtomicInteger tables = new AtomicInteger();
    private final ObjectStoreMetrics objectStore =
            new ObjectStoreMetrics(registry, ObjectStoreRequests.global());

    public ServerMetrics() {
        endOffsets =
                MultiGauge.builder("tributary.bucket.end.offset")
                        .description("End offset of each bucket's log")
                        .register(registry);
        lagRecords =
                MultiGauge.builder("tributary.tiering.lag.records")
                        .description("Records of a lake table not yet in the lake")
                        .register(registry);
        lagSeconds =
                MultiGauge.builder("tributary.tiering.lag.seconds")
                        .description("Age of the oldest record not yet in the lake")
                        .register(registry);
        epochs =
                MultiGauge.builder("tributary.tiering.epoch")
                        .description("Current tiering epoch of a lake table")
                        .register(registry);
        queuePositions =
                MultiGauge.builder("tributary.tiering.queue.position")
                        .description("Position in the pending queue, -1 when not queued")
                        .register(registry);
        failures =
                MultiGauge.builder("tributary.tiering.failures")
                        .description("Consecutive failed rounds of a lake table")
                        .register(registry);
        lakeFiles =
                MultiGauge.builder("tributary.lake.data.files")
                        .description(
                                "Live data files of a lake table, at its last maintenance pass")
                        .register(registry);
        lakeFilesPerBucket =
                MultiGauge.builder("tributary.lake.data.files.per.bucket.max")
                        .description(
                                "The most live data files a bucket of a lake table has"
                                        + " (compaction keeps it at most max-files)")
                        .register(registry);
        lakeSnapshots =
                MultiGauge.builder("tributary.lake.snapshots")
                        .description("Snapshots a lake table retains")
                        .register(registry);
        compactions =
                MultiGauge.builder("tributary.lake.compactions")
                        .description(
                                "Compactions of a lake table since the server started, by outcome"
                                        + " (committed, yielded to tiering, failed)")
                        .register(registry);
        bytesReclaimed =
                MultiGauge.builder("tributary.lake.bytes.reclaimed")
                        .description(
                                "Bytes of lake files deleted by snapshot expiry since the server"
                                        + " started")
                        .register(registry);
        clusterBuckets =
                MultiGauge.builder("tributary.cluster.buckets")
                        .description(
                                "Assigned buckets of the cluster (health=all), those with a"
                                        + " replica outside the in-sync set (under_replicated),"
                                        + " those without a leader (leaderless), moving ones"
                                        + " (moving) and those led by another replica than their"
                                        + " first (not_preferred_leader); reported by the"
                                        + " coordinator only")
                        .register(registry);
        registry.gauge("tributary.tiering.queue.length", queueLength);
        registry.gauge("tributary.tiering.jobs.live", liveJobs);
        registry.gauge("tributary.tables", tables);
    }

    /**
     * Counts one acknowledged write batch; a duplicate (a retry its writer had sent before, T42)
     * counts only as a duplicate, since nothing was written.
     */
    public void recordWrite(TableInfo table, int rows, int bytes, boolean duplicate) {
        Counter[] c =
                writeCounters.computeIfAbsent(
                        table.tableId(),
                        id ->
                                new Counter[] {
                                    Counter.builder("tributary.write.rows")
                                            .description("Rows written")
                                            .tag("table", table.path().toString())
                                            .register(registry),
                                    Counter.builder("tributary.write.bytes")
                                            .description("Write batch bytes received")
                                            .tag("table", table.path().toString())
                                            .register(registry),
                                    Counter.builder("tributary.write.batches")
                                            .description("Write batches acknowledged")
                                            .tag("table", table.path().toString())
                                            .register(registry),
                                    Counter.builder("tributary.write.duplicates")
                                            .description(
                                                    "Retried write batches acknowledged without"
                                                            + " being written again")
                                            .tag("table", table.path().toString())
                                            .register(registry)
                                });
        if (duplicate) {
            c[3].increment();
            return;
        }
        c[0].increment(rows);
        c[1].increment(bytes);
        c[2].increment();
    }

    /**
     * Prometheus text exposition of the current values.
     *
     * @param replication the coordinator's replication health; empty on a server that does not
     *     coordinate (its cluster gauges are then absent, never 0)
     */
    public String scrape(
            TableCatalog catalog,
            BucketStore store,
            TieringStatusService tiering,
            Optional<ReplicationHealth> replication) {
        refresh(catalog, store, tiering);
        clusterBuckets.register(
                replication
                        .map(
                                r ->
                                        List.<MultiGauge.Row<?>>of(
                                                MultiGauge.Row.of(
                                                        Tags.of("health", "all"), r.buckets()),
                                                MultiGauge.Row.of(
                                                        Tags.of("health", "under_replicated"),
                                                        r.underReplicated()),
                                                MultiGauge.Row.of(
                                                        Tags.of("health", "leaderless"),
                                                        r.leaderless()),
                                                MultiGauge.Row.of(
                                                        Tags.of("health", "moving"), r.moving()),
                                                MultiGauge.Row.of(
                                                        Tags.of("health", "not_preferred_leader"),
                                                        r.notPreferredLeader())))
                        .orElse(List.of()),
                true);
        return registry.scrape();
    }

    private synchronized void refresh(
            TableCatalog catalog, BucketStore store, TieringStatusService tiering) {
        List<MultiGauge.Row<?>> ends = new ArrayList<>();
        int count = 0;
        for (TableInfo t : catalog.all()) {
            count++;
            for (int b = 0; b < t.descriptor().bucketCount(); b++) {
                long end;
                try {
                    end = store.endOffset(new TableBucket(t.tableId(), b));
                } catch (RuntimeException dropped) {
                    continue;
                }
                ends.add(
                        MultiGauge.Row.of(
                                Tags.of(
                                        "table",
                                        t.path().toString(),
                                        "bucket",
                                        Integer.toString(b)),
                                end));
            }
        }
        tables.set(count);
        endOffsets.register(ends, true);
        TieringStatusService.Overview o = tiering.overview();
        queueLength.set(o.pendingCount());
        liveJobs.set(o.liveJobs());
        List<MultiGauge.Row<?>> lr = new ArrayList<>();
        List<MultiGauge.Row<?>> ls = new ArrayList<>();
        List<MultiGauge.Row<?>> ep = new ArrayList<>();
        List<MultiGauge.Row<?>> qp = new ArrayList<>();
        List<MultiGauge.Row<?>> fl = new ArrayList<>();
        List<MultiGauge.Row<?>> lf = new ArrayList<>();
        List<MultiGauge.Row<?>> lfb = new ArrayList<>();
        List<MultiGauge.Row<?>> lsn = new ArrayList<>();
        List<MultiGauge.Row<?>> cp = new ArrayList<>();
        List<MultiGauge.Row<?>> br = new ArrayList<>();
        for (TableStatusView v : o.tables()) {
            MaintenanceView m = v.maintenance();
            if (m != null) {
                Tags table = Tags.of("table", v.table());
                if (m.statsKnown()) {
                    // figures not read yet are absent, never reported as 0
                    lf.add(MultiGauge.Row.of(table, m.liveDataFiles()));
                    lfb.add(MultiGauge.Row.of(table, m.maxFilesPerBucket()));
                    lsn.add(MultiGauge.Row.of(table, m.snapshotsRetained()));
                }
                cp.add(MultiGauge.Row.of(table.and("outcome", "committed"), m.compactions()));
                cp.add(MultiGauge.Row.of(table.and("outcome", "yielded"), m.compactionsYielded()));
                cp.add(MultiGauge.Row.of(table.and("outcome", "failed"), m.compactionFailures()));
                br.add(MultiGauge.Row.of(table, m.bytesReclaimed()));
            }
            Tags tags = Tags.of("table", v.table(), "state", v.state());
            if (v.lagKnown()) {
                // an unmeasured lag is absent from the scrape, never reported as 0
                lr.add(MultiGauge.Row.of(tags, v.lagRecords()));
                ls.add(MultiGauge.Row.of(tags, v.lagMillis() / 1000.0));
            }
            ep.add(MultiGauge.Row.of(tags, v.epoch()));
            qp.add(MultiGauge.Row.of(tags, v.queuePosition()));
            fl.add(MultiGauge.Row.of(tags, v.consecutiveFailures()));
        }
        lagRecords.register(lr, true);
        lagSeconds.register(ls, true);
        epochs.register(ep, true);
        queuePositions.register(qp, true);
        failures.register(fl, true);
        lakeFiles.register(lf, true);
        lakeFilesPerBucket.register(lfb, true);
        lakeSnapshots.register(lsn, true);
        compactions.register(cp, true);
        bytesReclaimed.register(br, true);
        objectStore.refresh();
    }

    /** {@code store} with its writes' latency published here ({@link TimedMetadataStore}). */
    public MetadataStore timed(MetadataStore store) {
        return new TimedMetadataStore(store, registry);
    }

    public void close() {
        registry.close();
    }
}
