package dev.tributary.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.tributary.cli.output.LogDirectory;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.logging.log4j.Logger;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped conf/log4j2.xml, loaded for real: a person at the terminal sees Tributary's lines;
 * the libraries' warnings go to the log file once a command has named its directory.
 */
class ShippedLogConfigTest {
    @TempDir Path dir;

    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
    private PrintStream savedErr;
    private String savedDir;
    private String savedLevel;
    private LoggerContext ctx;

    @BeforeEach
    void captureStderr() {
        savedErr = System.err;
        savedDir = System.clearProperty(LogDirectory.PROPERTY);
        savedLevel = System.clearProperty("tributary.log.level");
        // the console appender takes System.err when the configuration starts
        System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
        ctx =
                new LoggerContext(
                        "shipped-config",
                        null,
                        Paths.get("..", "conf", "log4j2.xml").toAbsolutePath().toUri());
        ctx.start();
    }

    @AfterEach
    void restore() {
        ctx.stop();
        System.setErr(savedErr);
        restore(LogDirectory.PROPERTY, savedDir);
        restore("tributary.log.level", savedLevel);
    }

    private static void restore(String key, String value) {
        if (value == null) {
            System.clearProperty(key);
        } else {
            System.setProperty(key, value);
        }
    }

    @Test
    void libraryNoiseGoesToTheFileOnceTheCommandNamesItsDirectory() throws Exception {
        Logger hadoop = ctx.getLogger("org.apache.hadoop.util.NativeCodeLoader");
        Logger flink = ctx.getLogger("org.apache.flink.runtime.webmonitor.WebMonitorUtils");
        Logger tributary = ctx.getLogger("dev.tributary.server.TributaryServer");

        // a client command: no data directory, library warnings still reach the terminal
        hadoop.warn("early-library-warning");
        flink.info("early-library-info");
        tributary.info("early-tributary-info");
        String before = stderr.toString(StandardCharsets.UTF_8);
        assertThat(before).contains("early-library-warning", "early-tributary-info");
        assertThat(before).doesNotContain("early-library-info");

        Path logFile = LogDirectory.underDataDir(dir);
        hadoop.warn("Unable to load native-hadoop library");
        flink.warn("Log file environment variable 'log.file' is not set.");
        flink.info("library-info");
        tributary.info("Tributary server started");
        tributary.warn("a tributary warning");

        String terminal = stderr.toString(StandardCharsets.UTF_8).substring(before.length());
        assertThat(terminal.lines())
                .as("the terminal after the log directory is set:%n%s", terminal)
                .hasSize(2)
                .allSatisfy(l -> assertThat(l).contains("TributaryServer"));
        assertThat(logFile).isEqualTo(dir.toAbsolutePath().resolve("log/tributary.log"));
        String file = Files.readString(logFile);
        assertThat(file)
                .contains("org.apache.hadoop.util.NativeCodeLoader - Unable to load native-hadoop")
                .contains("WebMonitorUtils - Log file environment variable")
                .contains("library-info")
                .contains("dev.tributary.server.TributaryServer - Tributary server started")
                .contains("a tributary warning")
                .doesNotContain("early-");
    }

    @Test
    void clientCommandsShowOnlyTributaryWarningsAtTheirLevel() {
        ctx.stop();
        System.setProperty("tributary.log.level", "WARN");
        ctx =
                new LoggerContext(
                        "shipped-config-warn",
                        null,
                        Paths.get("..", "conf", "log4j2.xml").toAbsolutePath().toUri());
        ctx.start();
        ctx.getLogger("dev.tributary.client.Connection").info("tributary-info");
        ctx.getLogger("dev.tributary.client.Connection").warn("tributary-warning");
        assertThat(stderr.toString(StandardCharsets.UTF_8))
                .contains("tributary-warning")
                .doesNotContain("tributary-info");
    }
}
