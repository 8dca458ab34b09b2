package dev.lnp.mail;

import dev.lnp.api.internal.platform.ConfigValues;
import java.net.URI;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Settings from a map, read as the kernel's configuration reads them. */
record MapConfig(Map<String, String> values) implements ConfigValues {

    @Override
    public Optional<String> get(String key) {
        return Optional.ofNullable(values.get(key));
    }

    @Override
    public int getInt(String key, int defaultValue) {
        return (int) getLong(key, defaultValue);
    }

    @Override
    public long getLong(String key, long defaultValue) {
        Optional<String> value = get(key);
        if (value.isEmpty()) {
            return defaultValue;
        }
        try {
            return Long.parseLong(value.get().strip());
        } catch (NumberFormatException e) {
            throw new IllegalStateException(key + " must be a whole number, not \"" + value.get() + "\"");
        }
    }

    @Override
    public List<String> list(String key) {
        return get(key).map(v -> Arrays.stream(v.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList())
                .orElse(List.of());
    }

    @Override
    public URI baseUrl() {
        return URI.create(get("lnp.base.url").orElse("http://localhost:8080"));
    }
}
