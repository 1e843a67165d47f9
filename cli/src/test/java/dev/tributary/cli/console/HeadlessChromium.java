package dev.tributary.cli.console;

import static org.assertj.core.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's Chromium driven through Debian's ChromeDriver (packages {@code chromium} and {@code
 * chromium-driver}; {@code .ci/run} installs them). Both paths are given explicitly, so Selenium
 * Manager never looks for, let alone downloads, a browser or a driver. The flags keep Chromium off
 * the network: no background networking, component updates, sync or QUIC, and a fresh profile.
 *
 * <p>Without the binaries the test is skipped on a developer's machine and fails in CI ({@code CI}
 * set), where a skipped browser test would pass unseen.
 */
final class HeadlessChromium {
    static final Path CHROMIUM =
            Paths.get(System.getProperty("tributary.test.chromium", "/usr/bin/chromium"));
    static final Path DRIVER =
            Paths.get(System.getProperty("tributary.test.chromedriver", "/usr/bin/chromedriver"));

    private HeadlessChromium() {}

    /** A headless Chromium with a {@code width x height} window and browser console logging. */
    static ChromeDriver start(Path profile, int width, int height) {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(DRIVER)) {
            String message =
                    "the browser test needs "
                            + CHROMIUM
                            + " and "
                            + DRIVER
                            + ": apt-get install -y chromium chromium-driver (.ci/run does)";
            if (System.getenv("CI") != null) {
                fail(message);
            }
            Assumptions.abort(message);
        }
        ChromeDriverService service =
                new ChromeDriverService.Builder()
                        .usingDriverExecutable(DRIVER.toFile())
                        .usingAnyFreePort()
                        .withLogFile(profile.resolve("chromedriver.log").toFile())
                        .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments(
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-dev-shm-usage",
                "--user-data-dir=" + profile.resolve("profile"),
                "--window-size=" + width + "," + height);
        options.setCapability("goog:loggingPrefs", Map.of("browser", "ALL"));
        // a browser that cannot start fails the test here (never a skip)
        return new ChromeDriver(service, options);
    }

    /** Where screenshots go for people to look at: {@code cli/target/console-screenshots}. */
    static File screenshotDir() throws Exception {
        Path dir = Paths.get("target", "console-screenshots").toAbsolutePath();
        Files.createDirectories(dir);
        return dir.toFile();
    }
}
