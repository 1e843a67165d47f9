package dev.tributary.planner.report;

import dev.tributary.planner.PlanReport;
import dev.tributary.planner.advice.Recommendation;
import dev.tributary.planner.sim.SimulationResult;
import dev.tributary.planner.sim.SimulationResult.TableOutcome;
import dev.tributary.planner.yaml.WorkloadFile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A plan as a JSON-ready document ({@code /api/tiering/plan}, {@code tributary plan --json}): times
 * in milliseconds, the workload in the what-if file's form.
 */
public final class PlanJson {
    private PlanJson() {}

    public static Map<String, Object> toMap(PlanReport r) {
        Map<String, Object> out = new LinkedHashMap<>();
        SimulationResult p = r.prediction();
        out.put("horizonMillis", p.horizonMillis());
        out.put("warmupMillis", p.windowStartMillis());
        out.put("simulations", r.simulations());
        out.put("computeMillis", r.computeMillis());
        out.put("allMet", r.allMet());
        out.put("tables", tables(p));
        List<Object> jobs = new ArrayList<>();
        for (SimulationResult.JobOutcome j : p.jobs()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("job", j.id());
            m.put("group", j.group());
            m.put("parallelism", j.parallelism());
            m.put("utilization", round3(j.utilization()));
            jobs.add(m);
        }
        out.put("jobs", jobs);
        List<Object> recs = new ArrayList<>();
        for (Recommendation rec : r.recommendations()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("kind", rec.kind().name().toLowerCase(Locale.ROOT));
            m.put("change", rec.change());
            m.put("how", rec.how());
            m.put("recreate", rec.recreate());
            m.put("nowMet", rec.nowMet());
            m.put("nowMissed", rec.nowMissed());
            m.put("stillMissed", rec.stillMissed());
            m.put("effect", PlanText.effect(p, rec));
            m.put("tables", tables(rec.result()));
            recs.add(m);
        }
        out.put("recommendations", recs);
        out.put("notes", r.workload().notes());
        out.put("workload", WorkloadFile.toMap(r.workload(), r.settings()));
        return out;
    }

    /** One entry per table: the predicted figures and the verdict. */
    public static List<Object> tables(SimulationResult p) {
        List<Object> out = new ArrayList<>();
        for (TableOutcome t : p.tables()) {
            out.add(table(t));
        }
        return out;
    }

    public static Map<String, Object> table(TableOutcome t) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("table", t.name());
        m.put("group", t.group());
        m.put("freshnessMillis", t.freshness().toMillis());
        m.put("lagTargetMillis", t.lagTarget().toMillis());
        m.put("rounds", t.rounds());
        m.put("forceFinishedRounds", t.forceFinished());
        m.put("firstRoundMillis", t.firstRoundMillis());
        m.put("roundAvgMillis", t.roundAvgMillis());
        m.put("roundMaxMillis", t.roundMaxMillis());
        m.put("queueWaitAvgMillis", t.queueWaitAvgMillis());
        m.put("queueWaitMaxMillis", t.queueWaitMaxMillis());
        m.put("lagAvgMillis", t.lagAvgMillis());
        m.put("lagP99Millis", t.lagP99Millis());
        m.put("lagPeakMillis", t.lagPeakMillis());
        m.put("readersBusy", round3(t.readersBusy()));
        m.put("met", t.met());
        m.put("missedByMillis", t.missedByMillis());
        m.put("verdict", PlanText.verdict(t));
        return m;
    }

    private static double round3(double v) {
        return Math.round(v * 1000) / 1000.0;
    }
}
