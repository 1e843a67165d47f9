package dev.tributary.server.http;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * The web console (T43): the overview at {@code /} (and {@code /ui}) and a page per lake table at
 * {@code /tables/<db.table>}, all served from one self-contained HTML file (inline script, style
 * and SVG, nothing fetched from elsewhere, so it works offline) whose script picks the view from
 * the path and polls {@code /api/console}.
 *
 * <p>The page itself carries no data, so it is served without a token; its script asks for the
 * token (or takes it from the URL fragment {@code #token=...}, which browsers never send to the
 * server) and sends it as {@code Authorization: Bearer} on its API calls.
 */
final class ConsolePage {
    static final String RESOURCE = "/dev/tributary/server/http/console.html";

    /**
     * Only what the page needs: its own inline script and style, and API calls to this server. It
     * also proves the page loads nothing from a CDN: the browser would refuse to.
     */
    static final String CONTENT_SECURITY_POLICY =
            "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline';"
                    + " connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'";

    private ConsolePage() {}

    /** Where a table's page lives: {@code /tables/db.table}. */
    static final String TABLE_PREFIX = "/tables/";

    /** The pages' HTML, read once at server start so that a broken build fails there. */
    static String load() {
        try (InputStream in = ConsolePage.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(
                        "the console page " + RESOURCE + " is missing from the server jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the console page " + RESOURCE, e);
        }
    }

    /** Whether {@code path} is one of the console's addresses (the script checks the table). */
    static boolean isPagePath(String path) {
        return path.equals("/")
                || path.equals("/ui")
                || path.equals("/ui/")
                || (path.startsWith(TABLE_PREFIX)
                        && path.length() > TABLE_PREFIX.length()
                        && path.indexOf('/', TABLE_PREFIX.length()) < 0);
    }
}
