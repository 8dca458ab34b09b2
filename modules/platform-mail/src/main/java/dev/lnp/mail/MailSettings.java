package dev.lnp.mail;

import dev.lnp.api.internal.platform.ConfigValues;
import jakarta.mail.internet.AddressException;
import jakarta.mail.internet.InternetAddress;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * The {@code lnp.mail.*} settings, checked once at start-up so that a typo stops the platform with the key's
 * name instead of failing every message later. No {@code lnp.mail.host} means the local mailbox.
 *
 * @param host the SMTP server, empty for the local mailbox
 * @param from the From header (and envelope sender), e.g. {@code LNP <no-reply@example.com>}
 * @param trust hosts whose TLS certificate is trusted without verification (Jakarta Mail's
 *        {@code mail.smtp.ssl.trust}); empty: the JVM's trust store decides
 * @param immediateRetries retries of a transient failure within one attempt, before it is rescheduled
 * @param firstRetryDelay the delay before the second attempt; each further one doubles, up to maxRetryDelay
 * @param maxAttempts attempts before a message that keeps failing transiently is marked failed
 */
public record MailSettings(Optional<String> host, int port, Security security, Optional<String> user,
        Optional<String> password, InternetAddress from, Optional<String> trust, Duration connectTimeout,
        Duration readTimeout, Duration writeTimeout, int immediateRetries, Duration immediateRetryDelay,
        Duration firstRetryDelay, Duration maxRetryDelay, int maxAttempts, Duration pollInterval, Duration lease,
        int concurrency, boolean dispatch, boolean printLocal) {

    /** How the connection to the SMTP server is protected. */
    public enum Security {
        /** Plain SMTP (port 25): only for a relay on the same host or a trusted network. */
        NONE(25),
        /** Plain connection upgraded with STARTTLS, which is required: the message is never sent in clear. */
        STARTTLS(587),
        /** TLS from the first byte (SMTPS, "implicit TLS"). */
        TLS(465);

        final int defaultPort;

        Security(int defaultPort) {
            this.defaultPort = defaultPort;
        }
    }

    public static MailSettings from(ConfigValues config) {
        Optional<String> host = nonBlank(config.get("lnp.mail.host"));
        Security security = security(config.get("lnp.mail.security").orElse(host.isPresent() ? "starttls" : "none"));
        int port = config.getInt("lnp.mail.port", security.defaultPort);
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("lnp.mail.port must be between 1 and 65535, not " + port);
        }
        String defaultFrom = "LNP <no-reply@" + Optional.ofNullable(config.baseUrl().getHost()).orElse("localhost")
                + ">";
        return new MailSettings(host, port, security, nonBlank(config.get("lnp.mail.user")),
                config.get("lnp.mail.password"), address("lnp.mail.from", config.get("lnp.mail.from").orElse(defaultFrom)),
                nonBlank(config.get("lnp.mail.tls.trust")),
                duration(config, "lnp.mail.connect_timeout_ms", 10_000),
                duration(config, "lnp.mail.read_timeout_ms", 30_000),
                duration(config, "lnp.mail.write_timeout_ms", 30_000),
                atLeast(config, "lnp.mail.retry.immediate", 2, 0),
                duration(config, "lnp.mail.retry.immediate_delay_ms", 1_000),
                duration(config, "lnp.mail.retry.first_delay_ms", 60_000),
                duration(config, "lnp.mail.retry.max_delay_ms", 3_600_000),
                atLeast(config, "lnp.mail.retry.max_attempts", 10, 1),
                duration(config, "lnp.mail.poll_interval_ms", 5_000),
                duration(config, "lnp.mail.lease_ms", 300_000),
                atLeast(config, "lnp.mail.concurrency", 4, 1),
                !"false".equalsIgnoreCase(config.get("lnp.mail.dispatch").orElse("true")),
                !"false".equalsIgnoreCase(config.get("lnp.mail.print_local").orElse("true")));
    }

    /** No SMTP server: mail stays in the database as the local mailbox. */
    public boolean localMailbox() {
        return host.isEmpty();
    }

    private static Security security(String value) {
        try {
            return Security.valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("lnp.mail.security must be none, starttls or tls, not '" + value + "'");
        }
    }

    private static InternetAddress address(String key, String value) {
        try {
            var address = new InternetAddress(value, true);
            if (address.isGroup() || address.getAddress().indexOf('@') < 1) {
                throw new AddressException("not a single mailbox");
            }
            return address;
        } catch (AddressException e) {
            throw new IllegalArgumentException(key + " must be one address such as 'LNP <no-reply@example.com>', not '"
                    + value + "' (" + e.getMessage() + ")");
        }
    }

    private static Duration duration(ConfigValues config, String key, long defaultMillis) {
        return Duration.ofMillis(atLeast(config, key, defaultMillis, 1));
    }

    private static int atLeast(ConfigValues config, String key, int defaultValue, int minimum) {
        return (int) atLeast(config, key, (long) defaultValue, minimum);
    }

    private static long atLeast(ConfigValues config, String key, long defaultValue, long minimum) {
        long value;
        try {
            value = config.getLong(key, defaultValue);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException(key + " must be a whole number, not '" + config.get(key).orElse("") + "'");
        }
        if (value < minimum) {
            throw new IllegalArgumentException(key + " must be at least " + minimum + ", not " + value);
        }
        return value;
    }

    private static Optional<String> nonBlank(Optional<String> value) {
        return value.map(String::trim).filter(v -> !v.isEmpty());
    }

    @Override
    public String toString() {
        return "MailSettings[host=" + host + ", port=" + port + ", security=" + security + ", user=" + user
                + ", from=" + from + "]"; // never the password
    }
}
