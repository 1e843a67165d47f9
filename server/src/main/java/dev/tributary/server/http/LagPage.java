package dev.tributary.server.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The lag page served at {@code /} and {@code /ui}: one self-contained HTML file (inline script and
 * SVG, nothing fetched from elsewhere, so it works offline) that polls {@code /api/tiering} and
 * {@code /api/tiering/history}.
 *
 * <p>The page itself carries no data, so it is served without a token; its script asks for the
 * token (or takes it from the URL fragment {@code #token=...}, which browsers never send to the
 * server) and sends it as {@code Authorization: Bearer} on its API calls.
 */
final class LagPage {
    static final String RESOURCE = "/dev/tributary/server/http/lag-page.html";

    /**
     * Only what the page needs: its own inline script and style, and API calls to this server. It
     * also proves the page loads nothing from a CDN: the browser would refuse to.
     */
    static final String CONTENT_SECURITY_POLICY =
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline';"
                    + " connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'";

    private LagPage() {}

    /** The page's HTML, read once at server start so that a broken build fails there. */
    static String load() {
        try (InputStream in = LagPage.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(
                        "the lag page " + RESOURCE + " is missing from the server jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the lag page " + RESOURCE, e);
        }
    }

    /** Whether {@code path} is one of the page's addresses. */
    static boolean isPagePath(String path) {
        return path.equals("/") || path.equals("/ui") || path.equals("/ui/");
    }
}
