package dev.tributary.common.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SecretsTest {

    @Test
    void t45_credentialsOfBothFormatsAndTheCatalogsAreMasked() {
        Map<String, String> redacted =
                Secrets.redact(
                        Map.of(
                                "s3.secret-access-key", "AKIA-SECRET",
                                "s3.secret-key", "p",
                                "s3.session-token", "t",
                                "jdbc.password", "pw",
                                "credential", "c",
                                "token", "x",
                                "s3.access-key-id", "AKIAID",
                                "s3.endpoint", "http://127.0.0.1:9000",
                                "warehouse", "s3://lake/w"));
        assertThat(redacted)
                .containsEntry("s3.secret-access-key", Secrets.MASK)
                .containsEntry("s3.secret-key", Secrets.MASK)
                .containsEntry("s3.session-token", Secrets.MASK)
                .containsEntry("jdbc.password", Secrets.MASK)
                .containsEntry("credential", Secrets.MASK)
                .containsEntry("token", Secrets.MASK)
                // an access key id identifies, it does not authenticate: shown like a user name
                .containsEntry("s3.access-key-id", "AKIAID")
                .containsEntry("s3.endpoint", "http://127.0.0.1:9000")
                .containsEntry("warehouse", "s3://lake/w");
        assertThat(redacted.toString()).doesNotContain("AKIA-SECRET", "pw");
    }
}
