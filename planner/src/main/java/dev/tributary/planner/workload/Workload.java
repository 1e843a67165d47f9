package dev.tributary.planner.workload;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.coordinator.tiering.QueuePolicy;
import dev.tributary.tiering.api.CommitOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Everything a plan simulates: the coordinator's settings, the tiering jobs and the lake tables
 * with their load. Measured from a live server or described in a what-if file; immutable, so that
 * recommendations are variants of it.
 *
 * @param queuePolicy {@code tiering.queue.policy}
 * @param commitOrder {@code tiering.commit.order}
 * @param createdBefore how long before the jobs start (time 0) the tables were created: a table
 *     becomes pending one freshness after its creation (T11)
 * @param notes where the figures come from (measured over which rounds and window, assumed), shown
 *     with the plan
 */
public record Workload(
        QueuePolicy queuePolicy,
        CommitOrder commitOrder,
        Duration createdBefore,
        List<JobLoad> jobs,
        List<TableLoad> tables,
        List<String> notes) {

    public Workload {
        Objects.requireNonNull(queuePolicy, "queuePolicy");
        Objects.requireNonNull(commitOrder, "commitOrder");
        createdBefore = createdBefore == null ? Duration.ZERO : createdBefore;
        jobs = List.copyOf(jobs);
        tables = List.copyOf(tables);
        notes = List.copyOf(notes);
        Set<String> names = new HashSet<>();
        for (TableLoad t : tables) {
            if (!names.add(t.name())) {
                throw new InvalidInputException("table " + t.name() + " is listed twice");
            }
        }
        Set<String> ids = new HashSet<>();
        for (JobLoad j : jobs) {
            if (!ids.add(j.id())) {
                throw new InvalidInputException("job " + j.id() + " is listed twice");
            }
        }
    }

    public Workload(
            QueuePolicy queuePolicy,
            CommitOrder commitOrder,
            Duration createdBefore,
            List<JobLoad> jobs,
            List<TableLoad> tables) {
        this(queuePolicy, commitOrder, createdBefore, jobs, tables, List.of());
    }

    public TableLoad table(String name) {
        for (TableLoad t : tables) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        throw new InvalidInputException("no table " + name + " in the workload");
    }

    /** Jobs serving {@code group}. */
    public List<JobLoad> jobsOf(String group) {
        return jobs.stream().filter(j -> j.group().equals(group)).toList();
    }

    /** Tables of {@code group}. */
    public List<TableLoad> tablesOf(String group) {
        return tables.stream().filter(t -> t.group().equals(group)).toList();
    }

    public Workload withQueuePolicy(QueuePolicy p) {
        return new Workload(p, commitOrder, createdBefore, jobs, tables, notes);
    }

    public Workload withTable(String name, UnaryOperator<TableLoad> change) {
        List<TableLoad> out = new ArrayList<>();
        for (TableLoad t : tables) {
            out.add(t.name().equals(name) ? change.apply(t) : t);
        }
        return new Workload(queuePolicy, commitOrder, createdBefore, jobs, out, notes);
    }

    public Workload withJob(String id, UnaryOperator<JobLoad> change) {
        List<JobLoad> out = new ArrayList<>();
        for (JobLoad j : jobs) {
            out.add(j.id().equals(id) ? change.apply(j) : j);
        }
        return new Workload(queuePolicy, commitOrder, createdBefore, out, tables, notes);
    }

    public Workload plusJob(JobLoad job) {
        List<JobLoad> out = new ArrayList<>(jobs);
        out.add(job);
        return new Workload(queuePolicy, commitOrder, createdBefore, out, tables, notes);
    }

    public Workload withNotes(List<String> n) {
        return new Workload(queuePolicy, commitOrder, createdBefore, jobs, tables, n);
    }
}
