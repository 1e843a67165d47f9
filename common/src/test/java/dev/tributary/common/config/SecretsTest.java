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

    @Test
    void t45_credentialsInCatalogAndWarehouseUrisAreMasked() {
        assertThat(
                        Secrets.redactUri(
                                "jdbc:postgresql://db:5432/cat?user=tr&password=hunter2&ssl=true"))
                .isEqualTo(
                        "jdbc:postgresql://db:5432/cat?user=tr&password="
                                + Secrets.MASK
                                + "&ssl=true");
        assertThat(Secrets.redactUri("s3a://AKIA:s3cr3t@bucket/path"))
                .isEqualTo("s3a://" + Secrets.MASK + "@bucket/path");
        assertThat(Secrets.redactUri("http://127.0.0.1:8181/")).isEqualTo("http://127.0.0.1:8181/");
        assertThat(Secrets.redactUri("jdbc:sqlite:/tmp/c.db")).isEqualTo("jdbc:sqlite:/tmp/c.db");
    }

    @Test
    void t45_aConfigurationPrintsNoCredential() {
        Configuration conf =
                Configuration.fromMap(
                        Map.of(
                                "datalake.iceberg.s3.secret-access-key",
                                "s3cr3t",
                                "data.dir",
                                "/d"));
        assertThat(conf.toString()).contains("/d").doesNotContain("s3cr3t");
        assertThat(conf.toMap()).containsEntry("datalake.iceberg.s3.secret-access-key", "s3cr3t");
    }
}
