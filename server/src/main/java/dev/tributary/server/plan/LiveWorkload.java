package dev.tributary.server.plan;

import dev.tributary.common.config.TableOptions;
import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.coordinator.status.JobStatus;
import dev.tributary.coordinator.tiering.TieringConfig;
import dev.tributary.planner.calibrate.ReaderCalibration;
import dev.tributary.planner.calibrate.RoundSample;
import dev.tributary.planner.workload.JobLoad;
import dev.tributary.planner.workload.ReaderModel;
import dev.tributary.planner.workload.TableLoad;
import dev.tributary.planner.workload.Workload;
import dev.tributary.server.status.TableStatusView;
import dev.tributary.server.status.TieringStatusService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * Builds the workload of a running server for the tiering planner (T44): every lake table with its
 * buckets, freshness, lag target and group, its write rate and hottest bucket measured from the
 * store's end offsets, its bytes per record from the job's real byte counts; every live job with
 * its parallelism and a reader model fitted to the rounds its group ran. What could not be measured
 * is assumed and said so in the workload's notes.
 */
public final class LiveWorkload {
    /** When no round has been read yet: bytes of a record, the order of the demo's rows. */
    static final double DEFAULT_RECORD_BYTES = 100;

    private LiveWorkload() {}

    /**
     * @param overview the tiering status (with each table's recent rounds)
     * @param config the coordinator's tiering settings (queue policy, commit order)
     */
    public static Workload build(
            TieringStatusService.Overview overview,
            long heartbeatTimeoutMillis,
            LongFunction<Optional<TableInfo>> tableById,
            WriteRates rates,
            RoundObservations observed,
            TieringConfig config) {
        List<String> notes = new ArrayList<>();
        List<TableLoad> tables = new ArrayList<>();
        Map<String, List<RoundSample>> samplesByGroup = new HashMap<>();
        Map<String, Integer> parallelismByJob = new HashMap<>();
        for (JobStatus j : overview.jobs()) {
            parallelismByJob.put(j.jobId(), j.parallelism());
        }
        List<JobStatus> live = new ArrayList<>();
        for (JobStatus j : overview.jobs()) {
            if (overview.timeMillis() - j.lastHeartbeatMillis() <= heartbeatTimeoutMillis) {
                live.add(j);
            }
        }
        List<String> unmeasuredRate = new ArrayList<>();
        List<String> roundRate = new ArrayList<>();
        List<String> defaultSize = new ArrayList<>();
        long rateSpan = 0;
        for (TableStatusView t : overview.tables()) {
            Optional<TableInfo> info = tableById.apply(t.tableId());
            if (info.isEmpty()) {
                continue;
            }
            TableInfo ti = info.get();
            int buckets = ti.descriptor().bucketCount();
            boolean pk = ti.descriptor().hasPrimaryKey();
            String group = t.group();
            double bytesPerRecord = bytesPerRecord(t);
            if (Double.isNaN(bytesPerRecord)) {
                bytesPerRecord = DEFAULT_RECORD_BYTES;
                defaultSize.add(t.table());
            }
            double records;
            double skew = 1;
            Optional<WriteRates.Rate> rate = rates.rate(t.tableId());
            if (rate.isPresent() && rate.get().recordsPerSecond().length == buckets) {
                records = rate.get().total();
                skew = Math.min(buckets, rate.get().skew());
                rateSpan = Math.max(rateSpan, rate.get().spanMillis());
            } else {
                double fromRounds = recordsPerSecondFromRounds(t);
                if (Double.isNaN(fromRounds)) {
                    records = 0;
                    unmeasuredRate.add(t.table());
                } else {
                    records = fromRounds;
                    roundRate.add(t.table());
                }
            }
            boolean tiered = t.lastTieredAtMillis() > 0;
            long stateBytes = 0;
            if (pk && !tiered) {
                long ends = t.endOffsets().values().stream().mapToLong(Long::longValue).sum();
                stateBytes = Math.round(ends * bytesPerRecord);
            }
            Duration commitTime = commitTimeOf(t, observed);
            tables.add(
                    new TableLoad(
                            t.table(),
                            group,
                            buckets,
                            Duration.ofMillis(t.freshnessMillis()),
                            ti.options().getOptional(TableOptions.DATALAKE_LAG_TARGET).orElse(null),
                            pk,
                            records,
                            bytesPerRecord,
                            skew,
                            stateBytes,
                            tiered,
                            null,
                            null,
                            commitTime,
                            0));
            for (TableStatusView.RoundView r : t.rounds()) {
                if (!"COMMITTED".equals(r.outcome()) || r.forceFinished() || r.bytesRead() < 0) {
                    continue;
                }
                Optional<RoundObservations.Observed> o = observed.round(t.tableId(), r.roundId());
                int jobParallelism =
                        Math.max(
                                1,
                                parallelismByJob.getOrDefault(
                                        r.jobId(), parallelismOf(live, group)));
                int splits =
                        o.map(x -> x.logBuckets() + x.snapshotBuckets())
                                .filter(n -> n > 0)
                                .orElse(buckets);
                samplesByGroup
                        .computeIfAbsent(group, g -> new ArrayList<>())
                        .add(
                                new RoundSample(
                                        t.table(),
                                        o.map(x -> x.snapshotBuckets() > 0).orElse(false),
                                        splits,
                                        jobParallelism,
                                        r.bytesRead(),
                                        r.durationMillis(),
                                        o.map(RoundObservations.Observed::commitMillis).orElse(-1L),
                                        o.map(RoundObservations.Observed::skew).orElse(1.0)));
            }
        }
        if (rateSpan > 0) {
            notes.add(
                    "write rates: growth of each bucket's end offset over the last "
                            + Math.round(rateSpan / 1000.0)
                            + " s"
                            + "; hot-bucket skew from the busiest bucket");
        }
        if (!roundRate.isEmpty()) {
            notes.add(
                    "write rate from the records of recent rounds (the server has not sampled"
                            + " long enough yet): "
                            + String.join(", ", roundRate));
        }
        if (!unmeasuredRate.isEmpty()) {
            notes.add(
                    "write rate not measured yet (taken as 0): "
                            + String.join(", ", unmeasuredRate));
        }
        if (!defaultSize.isEmpty()) {
            notes.add(
                    "record size not measured yet (no round read any): "
                            + (int) DEFAULT_RECORD_BYTES
                            + " B assumed for "
                            + String.join(", ", defaultSize));
        }
        List<JobLoad> jobs = new ArrayList<>();
        Map<String, Double> tableRates = new HashMap<>();
        for (JobStatus j : live) {
            int p = j.parallelism();
            if (p <= 0) {
                notes.add(
                        "job "
                                + j.jobId()
                                + " did not report its parallelism (an older job): 1 reader"
                                + " assumed");
                p = 1;
            }
            List<RoundSample> samples = samplesByGroup.getOrDefault(j.group(), List.of());
            ReaderCalibration.Result fit = ReaderCalibration.fit(samples, ReaderModel.DEFAULT);
            tableRates.putAll(fit.tableLogRates());
            for (String n : fit.notes()) {
                notes.add("job " + j.jobId() + ": " + n);
            }
            jobs.add(new JobLoad(j.jobId(), j.group(), p, fit.model()));
        }
        if (jobs.isEmpty()) {
            notes.add(
                    "no live tiering job: nothing tiers, so every table with writes misses its"
                            + " target; start one (tributary tiering-job) or plan a what-if with a"
                            + " job (tributary plan --save-workload FILE, edit, --file FILE)");
        }
        List<TableLoad> withRates = new ArrayList<>();
        for (TableLoad t : tables) {
            Double rate = tableRates.get(t.name());
            withRates.add(rate == null ? t : t.withLogThroughput(rate));
        }
        return new Workload(
                config.queuePolicy(), config.commitOrder(), Duration.ZERO, jobs, withRates, notes);
    }

    private static int parallelismOf(List<JobStatus> live, String group) {
        for (JobStatus j : live) {
            if (j.group().equals(group) && j.parallelism() > 0) {
                return j.parallelism();
            }
        }
        return 1;
    }

    /** The mean lake commit time of the table's observed rounds, {@code null} if none. */
    static Duration commitTimeOf(TableStatusView t, RoundObservations observed) {
        long n = 0;
        long sum = 0;
        for (TableStatusView.RoundView r : t.rounds()) {
            Optional<RoundObservations.Observed> o = observed.round(t.tableId(), r.roundId());
            if (o.isPresent() && o.get().commitMillis() >= 0) {
                n++;
                sum += o.get().commitMillis();
            }
        }
        return n == 0 ? null : Duration.ofMillis(Math.round(sum / (double) n));
    }

    /** Encoded bytes per record over the table's committed rounds, NaN if none read any. */
    static double bytesPerRecord(TableStatusView t) {
        long records = 0;
        long bytes = 0;
        for (TableStatusView.RoundView r : t.rounds()) {
            if ("COMMITTED".equals(r.outcome()) && r.recordsRead() > 0 && r.bytesRead() > 0) {
                records += r.recordsRead();
                bytes += r.bytesRead();
            }
        }
        return records == 0 ? Double.NaN : bytes / (double) records;
    }

    /**
     * Records per second from consecutive committed rounds: a round reads what was written between
     * its predecessor's cutoff and its own, both taken when the round was handed out. NaN when
     * fewer than two such rounds.
     */
    static double recordsPerSecondFromRounds(TableStatusView t) {
        long first = -1;
        long last = -1;
        long records = 0;
        for (TableStatusView.RoundView r : t.rounds()) {
            if (!"COMMITTED".equals(r.outcome()) || r.forceFinished() || r.recordsRead() < 0) {
                continue;
            }
            if (first < 0) {
                first = r.startedAtMillis();
            } else {
                records += r.recordsRead();
            }
            last = r.startedAtMillis();
        }
        if (first < 0 || last <= first) {
            return Double.NaN;
        }
        return records * 1000.0 / (last - first);
    }
}
