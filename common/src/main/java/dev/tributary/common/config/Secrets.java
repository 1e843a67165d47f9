package dev.tributary.common.config;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Keeps credentials out of messages, logs and status. A configuration key names a secret when it
 * contains one of the words object stores and catalogs use for them ({@code secret}, {@code
 * password}, {@code token}, {@code credential}, {@code session-key} and their spellings); its value
 * is shown as {@value #MASK}.
 */
public final class Secrets {
    public static final String MASK = "******";

    private static final String[] SECRET_WORDS = {
        "secret",
        "password",
        "passwd",
        "token",
        "credential",
        "session-key",
        "session.key",
        "sessionkey",
        "private-key",
        "private.key",
        "sas-key",
        "account-key",
        "account.key"
    };

    private Secrets() {}

    /** Whether {@code key} names a credential. */
    public static boolean isSecret(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        for (String word : SECRET_WORDS) {
            if (k.contains(word)) {
                return true;
            }
        }
        return false;
    }

    /** A sorted copy of {@code options} with every secret value masked. */
    public static Map<String, String> redact(Map<String, String> options) {
        Map<String, String> out = new TreeMap<>();
        options.forEach((k, v) -> out.put(k, isSecret(k) ? MASK : v));
        return out;
    }

    /**
     * {@code uri} without the credentials it may carry: user info ({@code scheme://user:pw@host})
     * and query parameters that name a secret ({@code jdbc:postgresql://h/db?password=...}).
     */
    public static String redactUri(String uri) {
        String out = uri.replaceAll("(//)[^/@?#]*@", "$1" + MASK + "@");
        int q = out.indexOf('?');
        if (q < 0) {
            return out;
        }
        StringBuilder b = new StringBuilder(out.substring(0, q + 1));
        String[] params = out.substring(q + 1).split("[&;]", -1);
        for (int i = 0; i < params.length; i++) {
            if (i > 0) {
                b.append('&');
            }
            int eq = params[i].indexOf('=');
            if (eq > 0 && isSecret(params[i].substring(0, eq))) {
                b.append(params[i], 0, eq + 1).append(MASK);
            } else {
                b.append(params[i]);
            }
        }
        return b.toString();
    }

    /** {@code value}, or the mask when {@code key} names a credential. */
    public static String redact(String key, String value) {
        return isSecret(key) ? MASK : value;
    }
}
