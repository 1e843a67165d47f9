package dev.tributary.tiering.job;

import dev.tributary.common.config.Configuration;
import dev.tributary.tiering.service.TieringServiceFactory;
import dev.tributary.tiering.source.TieringSource;
import java.util.Map;
import java.util.UUID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;

/**
 * Builds the tiering job graph: the tiering source (enumerator + readers; the enumerator also
 * requests the rounds' commits) into a discarding sink. The one code path behind the embedded
 * runner and the cluster entry point.
 */
public final class TieringJob {
    /** Fixed so a restarted job's source keeps its identity. */
    public static final String SOURCE_UID = "tributary-tiering-source";

    private TieringJob() {}

    /**
     * Adds the tiering pipeline to {@code env}.
     *
     * @param config tiering options ({@link TieringOptions}) and lake settings ({@code
     *     datalake.format}, {@code datalake.<format>.*})
     * @return the job id the pipeline registers with
     */
    public static String build(
            StreamExecutionEnvironment env, TieringServiceFactory services, Configuration config) {
        config.validate(TieringOptions.all());
        String jobId =
                config.getOptional(TieringOptions.JOB_ID)
                        .orElseGet(() -> "tiering-" + UUID.randomUUID());
        Map<String, String> settings = config.toMap();
        env.fromSource(
                        new TieringSource(services, settings, jobId),
                        WatermarkStrategy.noWatermarks(),
                        "tiering-source",
                        Types.VOID)
                .uid(SOURCE_UID)
                .sinkTo(new DiscardingSink<>())
                .name("discard");
        return jobId;
    }
}
