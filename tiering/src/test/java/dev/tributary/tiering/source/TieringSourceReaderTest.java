package dev.tributary.tiering.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.common.config.Configuration;
import dev.tributary.common.id.TablePath;
import dev.tributary.tiering.event.RoundControlEvent;
import dev.tributary.tiering.service.TieringService;
import dev.tributary.tiering.split.TieringSplit;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.connector.source.ReaderOutput;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader gives back every split it was handed to Flink's source operator, which holds a
 * watermark output, a split metric group and a back-pressure listener per split until then: a job
 * that runs a round per table per minute must not keep them all (issue 26).
 */
class TieringSourceReaderTest {
    private static final TablePath PATH = TablePath.of("db", "t");

    @TempDir Path dir;

    @Test
    void t22EverySplitOfAnAbortedRoundIsReleasedFromTheSourceOperator() throws Exception {
        Configuration conf =
                new Configuration()
                        .setString("datalake.format", "paimon")
                        .setString("datalake.paimon.warehouse", dir.toString());
        TieringSourceReader reader = new TieringSourceReader(context(), () -> service(), conf);
        List<String> released = new ArrayList<>();
        ReaderOutput<Void> output = output(released);
        reader.start();
        try {
            List<String> handed = new ArrayList<>();
            for (long round = 1; round <= 1_000; round++) {
                List<TieringSplit> splits =
                        List.of(
                                TieringSplit.log(1, PATH, 7, round, 0, 0, 10),
                                TieringSplit.log(1, PATH, 7, round, 1, 0, 10));
                splits.forEach(s -> handed.add(s.splitId()));
                reader.addSplits(splits);
                // the round is abandoned before the reader got to it (its job lost the table)
                reader.handleSourceEvents(
                        new RoundControlEvent(RoundControlEvent.Kind.ABORT, 1, 7, round));
                assertThat(reader.isAvailable()).isDone();
                reader.pollNext(output);
            }
            assertThat(released).containsExactlyElementsOf(handed);
        } finally {
            reader.close();
        }
    }

    /** A service the reader never needs here: any call but close fails the test. */
    private static TieringService service() {
        return (TieringService)
                Proxy.newProxyInstance(
                        TieringService.class.getClassLoader(),
                        new Class<?>[] {TieringService.class},
                        (proxy, method, args) -> {
                            if (method.getName().equals("close")) {
                                return null;
                            }
                            throw new AssertionError("unexpected call " + method.getName());
                        });
    }

    private static SourceReaderContext context() {
        return (SourceReaderContext)
                Proxy.newProxyInstance(
                        SourceReaderContext.class.getClassLoader(),
                        new Class<?>[] {SourceReaderContext.class},
                        (proxy, method, args) -> {
                            Class<?> r = method.getReturnType();
                            if (r == int.class) {
                                return 0;
                            }
                            if (r == boolean.class) {
                                return false;
                            }
                            return null;
                        });
    }

    @SuppressWarnings("unchecked")
    private static ReaderOutput<Void> output(List<String> released) {
        return (ReaderOutput<Void>)
                Proxy.newProxyInstance(
                        ReaderOutput.class.getClassLoader(),
                        new Class<?>[] {ReaderOutput.class},
                        (proxy, method, args) -> {
                            if (method.getName().equals("releaseOutputForSplit")) {
                                released.add((String) args[0]);
                                return null;
                            }
                            throw new AssertionError("unexpected call " + method.getName());
                        });
    }
}
