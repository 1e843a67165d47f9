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

    /** {@code value}, or the mask when {@code key} names a credential. */
    public static String redact(String key, String value) {
        return isSecret(key) ? MASK : value;
    }
}
