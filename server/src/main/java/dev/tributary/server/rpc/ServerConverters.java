package dev.tributary.server.rpc;

import dev.tributary.coordinator.metadata.TableInfo;
import dev.tributary.rpc.convert.ProtoConverters;
import dev.tributary.rpc.proto.RoundSummaryPb;
import dev.tributary.rpc.proto.TableInfoPb;
import dev.tributary.rpc.proto.TableTieringStatusPb;
import dev.tributary.server.status.TableStatusView;

/** Server-side domain to wire conversions. */
final class ServerConverters {
    private ServerConverters() {}

    static TableInfoPb toPb(TableInfo t) {
        return TableInfoPb.newBuilder()
                .setTableId(t.tableId())
                .setPath(ProtoConverters.toPb(t.path()))
                .setSchemaId(t.schemaId())
                .setTableDescriptor(ProtoConverters.toPb(t.descriptor()))
                .setCreatedAtMillis(t.createdTimeMillis())
                .build();
    }

    static TableTieringStatusPb toPb(TableStatusView v, TableInfo table) {
        TableTieringStatusPb.Builder b =
                TableTieringStatusPb.newBuilder()
                        .setTableId(v.tableId())
                        .setPath(ProtoConverters.toPb(table.path()))
                        .setState(v.state())
                        .setEpoch(v.epoch())
                        .setQueuePosition(v.queuePosition())
                        .setLagMillis(v.lagMillis())
                        .setLagRecords(v.lagRecords())
                        .setFailures(v.consecutiveFailures())
                        .setFreshnessMillis(v.freshnessMillis())
                        .setLastTieredAtMillis(Math.max(0, v.lastTieredAtMillis()))
                        .setNextEventAtMillis(Math.max(0, v.nextEventAtMillis()))
                        .addAllWarnings(v.warnings());
        if (v.lastFailure() != null) {
            b.setLastFailure(v.lastFailure());
        }
        if (v.jobId() != null) {
            b.setJobId(v.jobId());
        }
        TableStatusView.RoundView r = v.lastRound();
        if (r != null) {
            b.setLastRound(
                    RoundSummaryPb.newBuilder()
                            .setRoundId(r.roundId())
                            .setEpoch(r.epoch())
                            .setStartedAtMillis(r.startedAtMillis())
                            .setDurationMillis(r.durationMillis())
                            .setRows(r.rows())
                            .setBytes(r.bytes())
                            .setFiles(r.files())
                            .setForceFinished(r.forceFinished()));
        }
        return b.build();
    }
}
