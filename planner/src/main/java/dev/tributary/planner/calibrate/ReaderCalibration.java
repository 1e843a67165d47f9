package dev.tributary.planner.calibrate;

import dev.tributary.planner.workload.ReaderModel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Infers a job's {@link ReaderModel} from its measured rounds. The job reports per round only what
 * it read (records and encoded bytes) and the coordinator when the round started and committed, so
 * per-reader throughput and per-split cost are fitted to the same model the simulator runs: a round
 * of {@code n} splits on {@code P} readers takes {@code waves x overhead + criticalBytes /
 * throughput + commit}, where {@code waves = ceil(n / P)} and the critical bytes are those of one
 * split per wave (the hottest in the last). The commit time is measured on its own (the server
 * times every lake commit); overhead and throughput are a least-squares fit over the rounds,
 * weighted by relative error, with both kept non-negative. Snapshot splits get their own
 * throughput, fitted with the overhead of the log rounds.
 *
 * <p>Tables differ in what a byte costs the lake writer (a primary-key table's changelog is merged
 * by key, schemas differ), so each table with {@link #MIN_TABLE_ROUNDS} or more log rounds gets its
 * own log throughput, fitted with the job's overhead; the others use the job's.
 *
 * <p>Real rounds scatter around any such model (GC pauses, cores shared with writers and the
 * server): the standard deviation of {@code ln(measured / modeled)} over the rounds becomes the
 * model's jitter, which the simulator draws per round, so p99 and peak lag see slow rounds too.
 *
 * <p>What the fit cannot tell is said in the notes: rounds whose data time is a small part of their
 * duration say only that the throughput is at least some value (then it is that value or the
 * default, whichever is higher, which barely matters at such rates); without snapshot rounds the
 * snapshot throughput is assumed equal to the log one.
 */
public final class ReaderCalibration {
    /** Below this share of the rounds' time spent moving data, the throughput is not measurable. */
    static final double MIN_DATA_SHARE = 0.05;

    /** Log rounds a table needs for a throughput of its own. */
    static final int MIN_TABLE_ROUNDS = 3;

    /** Rounds needed to measure the jitter. */
    static final int MIN_JITTER_ROUNDS = 5;

    /** The largest jitter taken from rounds. */
    static final double MAX_JITTER = 1.5;

    private ReaderCalibration() {}

    /**
     * The fitted model and how it was obtained.
     *
     * @param tableLogRates per table with enough log rounds, its own log throughput (bytes/s)
     */
    public record Result(
            ReaderModel model,
            java.util.Map<String, Double> tableLogRates,
            int logRounds,
            int snapshotRounds,
            double meanAbsoluteError,
            List<String> notes) {}

    /**
     * @param samples committed rounds that were not force-finished
     * @param fallback used for what the rounds cannot tell
     */
    public static Result fit(List<RoundSample> samples, ReaderModel fallback) {
        List<String> notes = new ArrayList<>();
        List<RoundSample> log = samples.stream().filter(s -> !s.snapshot()).toList();
        List<RoundSample> snap = samples.stream().filter(RoundSample::snapshot).toList();
        long commit = commitMillis(samples, fallback, notes);
        if (log.isEmpty() && snap.isEmpty()) {
            notes.add(
                    "no committed round to measure the readers by yet: per-reader throughput "
                            + rate(fallback.logBytesPerSecond())
                            + " and "
                            + fallback.splitOverhead().toMillis()
                            + " ms per split are assumed");
            return new Result(
                    fallback.withCommitTime(Duration.ofMillis(commit)),
                    java.util.Map.of(),
                    0,
                    0,
                    0,
                    notes);
        }
        Fit f = fitLog(log.isEmpty() ? snap : log, commit, fallback);
        double logRate = f.rate;
        if (!f.rateMeasured) {
            notes.add(
                    "the log rounds spend under "
                            + Math.round(MIN_DATA_SHARE * 100)
                            + "% of their time moving data, so they show only that a reader moves at"
                            + " least "
                            + rate(f.rateLowerBound)
                            + "; assumed "
                            + rate(logRate));
        }
        double snapRate;
        if (snap.isEmpty()) {
            snapRate = logRate;
            notes.add("no snapshot round measured: snapshot splits assumed as fast as log splits");
        } else {
            snapRate = fitRate(snap, commit, f.overheadMillis, logRate);
        }
        ReaderModel model =
                new ReaderModel(
                        logRate,
                        snapRate,
                        Duration.ofMillis(Math.round(f.overheadMillis)),
                        Duration.ofMillis(commit),
                        fallback.splitMaxRecords());
        java.util.Map<String, Double> perTable = new java.util.TreeMap<>();
        if (f.rateMeasured) {
            java.util.Map<String, List<RoundSample>> byTable = new java.util.TreeMap<>();
            for (RoundSample s : log) {
                byTable.computeIfAbsent(s.table(), t -> new ArrayList<>()).add(s);
            }
            byTable.forEach(
                    (table, rounds) -> {
                        if (rounds.size() >= MIN_TABLE_ROUNDS) {
                            double rate = fitRate(rounds, commit, f.overheadMillis, Double.NaN);
                            if (!Double.isNaN(rate)) {
                                perTable.put(table, rate);
                            }
                        }
                    });
        }
        double jitter = jitter(samples, model, perTable);
        model = model.withJitter(jitter);
        double err = meanAbsoluteError(samples, model, perTable);
        notes.add(
                String.format(
                        Locale.ROOT,
                        "readers fitted over %d log and %d snapshot rounds: %s per reader (log), %s"
                                + " (snapshot), %d ms per split, %d ms per commit; the fit's mean"
                                + " error on these rounds is %.0f%%, their scatter (jitter) %.2f",
                        log.size(),
                        snap.size(),
                        rate(logRate),
                        rate(snapRate),
                        Math.round(f.overheadMillis),
                        commit,
                        err * 100,
                        jitter));
        if (!perTable.isEmpty()) {
            List<String> rates = new ArrayList<>();
            perTable.forEach((t, r) -> rates.add(t + " " + rate(r)));
            notes.add("per-table log throughput: " + String.join(", ", rates));
        }
        return new Result(model, perTable, log.size(), snap.size(), err, notes);
    }

    private static long commitMillis(
            List<RoundSample> samples, ReaderModel fallback, List<String> notes) {
        long n = 0;
        long sum = 0;
        for (RoundSample s : samples) {
            if (s.commitMillis() >= 0) {
                n++;
                sum += s.commitMillis();
            }
        }
        if (n == 0) {
            notes.add(
                    "lake commit time not measured: "
                            + fallback.commitTime().toMillis()
                            + " ms assumed");
            return fallback.commitTime().toMillis();
        }
        return Math.round(sum / (double) n);
    }

    private record Fit(
            double overheadMillis, double rate, boolean rateMeasured, double rateLowerBound) {}

    /** {@code y = c * waves + phi * criticalBytes}, weighted by 1 / y^2, c >= 0, phi >= 0. */
    static Fit fitLog(List<RoundSample> rounds, long commit, ReaderModel fallback) {
        double a11 = 0;
        double a12 = 0;
        double a22 = 0;
        double b1 = 0;
        double b2 = 0;
        double lower = 0;
        double ySum = 0;
        for (RoundSample s : rounds) {
            double y = readMillis(s, commit);
            double x1 = s.waves();
            double x2 = s.criticalBytes();
            double w = 1.0 / Math.max(1.0, y * y);
            a11 += w * x1 * x1;
            a12 += w * x1 * x2;
            a22 += w * x2 * x2;
            b1 += w * x1 * y;
            b2 += w * x2 * y;
            ySum += y;
            if (y > 0) {
                lower = Math.max(lower, x2 / y * 1000.0);
            }
        }
        double det = a11 * a22 - a12 * a12;
        double c;
        double phi;
        if (Math.abs(det) > 1e-12 * Math.max(1, a11 * a22)) {
            c = (b1 * a22 - b2 * a12) / det;
            phi = (a11 * b2 - a12 * b1) / det;
        } else {
            c = -1;
            phi = -1;
        }
        if (c < 0 || phi <= 0) {
            // one of the two is not supported by the data: keep the better one-term fit
            double cOnly = a11 > 0 ? Math.max(0, b1 / a11) : 0;
            double phiOnly = a22 > 0 ? Math.max(0, b2 / a22) : 0;
            double residualC = 0;
            double residualPhi = 0;
            for (RoundSample s : rounds) {
                double y = readMillis(s, commit);
                double w = 1.0 / Math.max(1.0, y * y);
                residualC += w * Math.pow(y - cOnly * s.waves(), 2);
                residualPhi += w * Math.pow(y - phiOnly * s.criticalBytes(), 2);
            }
            if (phiOnly > 0 && residualPhi < residualC) {
                c = 0;
                phi = phiOnly;
            } else {
                c = cOnly;
                phi = 0;
            }
        }
        double dataMillis = 0;
        for (RoundSample s : rounds) {
            dataMillis += phi * s.criticalBytes();
        }
        boolean measured = phi > 0 && ySum > 0 && dataMillis / ySum >= MIN_DATA_SHARE;
        double rate;
        if (measured) {
            rate = 1000.0 / phi;
        } else {
            rate = Math.max(lower, fallback.logBytesPerSecond());
            // refit the overhead with that rate
            double num = 0;
            double den = 0;
            for (RoundSample s : rounds) {
                double y = readMillis(s, commit) - s.criticalBytes() * 1000.0 / rate;
                double w = 1.0 / Math.max(1.0, Math.pow(readMillis(s, commit), 2));
                num += w * s.waves() * y;
                den += w * s.waves() * s.waves();
            }
            c = den > 0 ? Math.max(0, num / den) : 0;
        }
        return new Fit(c, rate, measured, lower);
    }

    /** Snapshot throughput given the overhead: {@code y - c * waves = phi * criticalBytes}. */
    static double fitRate(List<RoundSample> rounds, long commit, double overhead, double dflt) {
        double num = 0;
        double den = 0;
        for (RoundSample s : rounds) {
            double y = readMillis(s, commit) - overhead * s.waves();
            double x = s.criticalBytes();
            double w = 1.0 / Math.max(1.0, Math.pow(readMillis(s, commit), 2));
            num += w * x * y;
            den += w * x * x;
        }
        double phi = den > 0 ? num / den : 0;
        return phi > 0 ? 1000.0 / phi : dflt;
    }

    private static double readMillis(RoundSample s, long commit) {
        long c = s.commitMillis() >= 0 ? s.commitMillis() : commit;
        return Math.max(0, s.durationMillis() - c);
    }

    /** Standard deviation of {@code ln(measured / modeled)} over the rounds; 0 with too few. */
    static double jitter(
            List<RoundSample> samples, ReaderModel m, java.util.Map<String, Double> tableRates) {
        if (samples.size() < MIN_JITTER_ROUNDS) {
            return 0;
        }
        double sum = 0;
        double sumSq = 0;
        int n = 0;
        for (RoundSample s : samples) {
            double predicted = modeled(s, m, tableRates);
            if (predicted <= 0 || s.durationMillis() <= 0) {
                continue;
            }
            double r = Math.log(s.durationMillis() / predicted);
            sum += r;
            sumSq += r * r;
            n++;
        }
        if (n < MIN_JITTER_ROUNDS) {
            return 0;
        }
        double mean = sum / n;
        double var = Math.max(0, sumSq / n - mean * mean);
        return Math.min(MAX_JITTER, Math.round(Math.sqrt(var) * 100) / 100.0);
    }

    /** A round's duration under the model, as if alone on its job. */
    static double modeled(RoundSample s, ReaderModel m, java.util.Map<String, Double> tableRates) {
        double rate =
                s.snapshot()
                        ? m.snapshotBytesPerSecond()
                        : tableRates.getOrDefault(s.table(), m.logBytesPerSecond());
        return s.waves() * m.splitOverhead().toMillis()
                + s.criticalBytes() * 1000.0 / rate
                + (s.commitMillis() >= 0 ? s.commitMillis() : m.commitTime().toMillis());
    }

    /** The model's mean relative error on {@code samples}, each taken as if alone on its job. */
    public static double meanAbsoluteError(
            List<RoundSample> samples, ReaderModel m, java.util.Map<String, Double> tableRates) {
        if (samples.isEmpty()) {
            return 0;
        }
        double sum = 0;
        for (RoundSample s : samples) {
            double predicted = modeled(s, m, tableRates);
            sum += Math.abs(predicted - s.durationMillis()) / Math.max(1, s.durationMillis());
        }
        return sum / samples.size();
    }

    private static String rate(double bytesPerSecond) {
        return dev.tributary.planner.yaml.Quantities.shortBytesPerSecond(bytesPerSecond);
    }
}
