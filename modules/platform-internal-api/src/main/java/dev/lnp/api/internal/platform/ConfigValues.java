package dev.lnp.api.internal.platform;

import java.net.URI;
import java.util.List;
import java.util.Optional;

/** The deployment's configuration as the kernel read it ({@code conf/platform.yaml}, the environment, overrides). */
public interface ConfigValues {

    /** The value of {@code key} (e.g. {@code lnp.mail.host}), if set. */
    Optional<String> get(String key);

    /** @throws IllegalStateException when the value is set but not a whole number (the message names the key) */
    int getInt(String key, int defaultValue);

    /** @throws IllegalStateException when the value is set but not a whole number (the message names the key) */
    long getLong(String key, long defaultValue);

    /** A comma-separated (or YAML list) value, empty when not set. */
    List<String> list(String key);

    /** The public address of the deployment ({@code lnp.base.url}), used in links sent by mail. */
    URI baseUrl();
}
