package dev.tributary.planner.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.coordinator.tiering.QueuePolicy;
import dev.tributary.planner.workload.JobLoad;
import dev.tributary.planner.workload.TableLoad;
import dev.tributary.tiering.api.CommitOrder;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class WorkloadFileTest {
    static final String FULL =
            String.join(
                    "\n",
                    "coordinator: {queue-policy: fifo, commit-order: assignment}",
                    "jobs:",
                    "  - {id: j1, group: hot, parallelism: 8, log-throughput: 30MB/s,",
                    "     snapshot-throughput: 1.5GiB/s, split-overhead: 150ms, commit-time: 1.5s,",
                    "     split-max-records: 500000}",
                    "tables:",
                    "  - {name: shop.clicks, group: hot, buckets: 16, freshness: 1min,",
                    "     lag-target: 90s, write-rate: 48MB/s, record-size: 200B, hot-bucket-skew: 2,",
                    "     commit-time: 2.5s}",
                    "  - {name: customers, buckets: 12, freshness: 5min, primary-key: true,",
                    "     write-records: 2000/s, state-size: 36GB}",
                    "simulation: {horizon: 2h, warmup: 10min, seed: 9, tables-created-before: 5min}",
                    "");

    @Test
    @DisplayName("T44 a what-if file: every field, units and defaults")
    void parsesEverything() {
        WorkloadFile.Parsed p = WorkloadFile.parse(FULL, "w.yaml");
        assertThat(p.workload().queuePolicy()).isEqualTo(QueuePolicy.FIFO);
        assertThat(p.workload().commitOrder()).isEqualTo(CommitOrder.ASSIGNMENT);
        assertThat(p.workload().createdBefore()).isEqualTo(Duration.ofMinutes(5));
        assertThat(p.settings().horizon()).isEqualTo(Duration.ofHours(2));
        assertThat(p.settings().warmup()).isEqualTo(Duration.ofMinutes(10));
        assertThat(p.settings().seed()).isEqualTo(9);
        JobLoad j = p.workload().jobs().get(0);
        assertThat(j.group()).isEqualTo("hot");
        assertThat(j.parallelism()).isEqualTo(8);
        assertThat(j.reader().logBytesPerSecond()).isEqualTo(30e6);
        assertThat(j.reader().snapshotBytesPerSecond()).isEqualTo(1.5 * 1024 * 1024 * 1024);
        assertThat(j.reader().splitOverhead()).isEqualTo(Duration.ofMillis(150));
        assertThat(j.reader().commitTime()).isEqualTo(Duration.ofMillis(1500));
        assertThat(j.reader().splitMaxRecords()).isEqualTo(500_000);
        TableLoad clicks = p.workload().table("shop.clicks");
        assertThat(clicks.lagTarget()).isEqualTo(Duration.ofSeconds(90));
        assertThat(clicks.writeRecordsPerSecond()).isEqualTo(240_000);
        assertThat(clicks.hotBucketSkew()).isEqualTo(2);
        assertThat(clicks.tiered()).isTrue();
        assertThat(clicks.commitTime()).isEqualTo(Duration.ofMillis(2500));
        TableLoad customers = p.workload().table("customers");
        assertThat(customers.group()).isEqualTo("default");
        assertThat(customers.primaryKey()).isTrue();
        assertThat(customers.tiered()).as("a PK table's first round is ahead by default").isFalse();
        assertThat(customers.stateBytes()).isEqualTo(36_000_000_000L);
        assertThat(customers.recordBytes()).isEqualTo(100);
        assertThat(customers.effectiveLagTarget()).isEqualTo(Duration.ofMinutes(10));
    }

    @Test
    @DisplayName("T44 a workload written as YAML reads back the same")
    void roundTrip() {
        WorkloadFile.Parsed p = WorkloadFile.parse(FULL, "w.yaml");
        String yaml = WorkloadFile.toYaml(p.workload(), p.settings());
        WorkloadFile.Parsed again = WorkloadFile.parse(yaml, "again.yaml");
        assertThat(again.settings()).isEqualTo(p.settings());
        JobLoad j = p.workload().jobs().get(0);
        JobLoad k = again.workload().jobs().get(0);
        assertThat(k.withParallelism(j.parallelism()).id()).isEqualTo(j.id());
        assertThat(k.group()).isEqualTo(j.group());
        assertThat(k.reader().splitOverhead()).isEqualTo(j.reader().splitOverhead());
        assertThat(k.reader().commitTime()).isEqualTo(j.reader().commitTime());
        // six significant digits in the file
        assertThat(k.reader().snapshotBytesPerSecond())
                .isCloseTo(j.reader().snapshotBytesPerSecond(), within(2e4));
        for (TableLoad t : p.workload().tables()) {
            TableLoad u = again.workload().table(t.name());
            assertThat(u.writeRecordsPerSecond())
                    .isCloseTo(t.writeRecordsPerSecond(), within(t.writeRecordsPerSecond() * 1e-5));
            assertThat(u.withLagTarget(t.lagTarget()).buckets()).isEqualTo(t.buckets());
            assertThat(u.freshness()).isEqualTo(t.freshness());
            assertThat(u.lagTarget()).isEqualTo(t.lagTarget());
            assertThat(u.stateBytes()).isEqualTo(t.stateBytes());
            assertThat(u.tiered()).isEqualTo(t.tiered());
            assertThat(u.commitTime()).isEqualTo(t.commitTime());
        }
    }

    @Test
    @DisplayName("T44 mistakes in a workload file name the place, the value and what is expected")
    void errors() {
        assertThatThrownBy(
                        () ->
                                WorkloadFile.parse(
                                        "jobs: [{id: j, parallelism: 2, paralelism: 3}]", "f.yaml"))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("jobs[0]")
                .hasMessageContaining("unknown key 'paralelism'")
                .hasMessageContaining("parallelism");
        assertThatThrownBy(
                        () ->
                                WorkloadFile.parse(
                                        "jobs: [{id: j, parallelism: 2}]\n"
                                                + "tables: [{name: t, buckets: 4, freshness: 10}]",
                                        "f.yaml"))
                .hasMessageContaining("tables[0].freshness")
                .hasMessageContaining("'10'")
                .hasMessageContaining("unit");
        assertThatThrownBy(
                        () ->
                                WorkloadFile.parse(
                                        "jobs: [{id: j, parallelism: 2}]\n"
                                                + "tables: [{name: t, buckets: 4, freshness: 10s,"
                                                + " write-rate: 5MB}]",
                                        "f.yaml"))
                .hasMessageContaining("write-rate")
                .hasMessageContaining("30MB/s");
        assertThatThrownBy(() -> WorkloadFile.parse("tables: []", "f.yaml"))
                .hasMessageContaining("'jobs' must list at least one");
        assertThatThrownBy(() -> WorkloadFile.parse("jobs: [{id: j}]", "f.yaml"))
                .hasMessageContaining("needs 'parallelism'");
        assertThatThrownBy(
                        () ->
                                WorkloadFile.parse(
                                        "coordinator: {queue-policy: lifo}\njobs: [{id: j, parallelism: 1}]",
                                        "f.yaml"))
                .hasMessageContaining("'lifo' is not one of fifo, deadline");
        assertThatThrownBy(() -> WorkloadFile.parse("jobs: [", "f.yaml"))
                .hasMessageContaining("f.yaml is not valid YAML");
        assertThatThrownBy(
                        () ->
                                WorkloadFile.parse(
                                        "jobs: [{id: j, parallelism: 2}]\n"
                                                + "tables: [{name: t, buckets: 4, freshness: 10s}]",
                                        "f.yaml"))
                .hasMessageContaining("say how much is written");
    }

    @Test
    @DisplayName("T44 quantities: decimal and binary sizes, rates, fractional durations")
    void quantities() {
        assertThat(Quantities.bytes("64KB", "x")).isEqualTo(64_000);
        assertThat(Quantities.bytes("2MiB", "x")).isEqualTo(2 * 1024 * 1024);
        assertThat(Quantities.bytesPerSecond("1.5GB/s", "x")).isEqualTo(1.5e9);
        assertThat(Quantities.perSecond("50000/s", "x")).isEqualTo(50_000);
        assertThat(Quantities.duration("1.5s", "x")).isEqualTo(Duration.ofMillis(1500));
        assertThat(Quantities.duration("2min", "x")).isEqualTo(Duration.ofMinutes(2));
        assertThat(Quantities.formatDuration(Duration.ofMillis(1500))).isEqualTo("1.5s");
        assertThat(Quantities.formatDuration(Duration.ofMinutes(90))).isEqualTo("90min");
        assertThat(Quantities.formatBytesPerSecond(7_726_870)).isEqualTo("7.72687MB/s");
        assertThat(Quantities.shortBytesPerSecond(7_726_870)).isEqualTo("7.73MB/s");
        assertThatThrownBy(() -> Quantities.bytes("5 parsecs", "state-size"))
                .hasMessageContaining("state-size: '5 parsecs' is not");
    }
}
