package dev.lnp.oauth;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * An {@code application/x-www-form-urlencoded} body as the token and revocation endpoints receive it (RFC 6749
 * §3.2). A parameter sent twice is a mistake the endpoints refuse ({@link #repeated}).
 */
record FormFields(Map<String, String> values, Optional<String> repeated) {

    static FormFields parse(byte[] body) {
        Map<String, String> values = new LinkedHashMap<>();
        String repeated = null;
        String text = new String(body, StandardCharsets.UTF_8);
        for (String pair : text.split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String name = decode(eq < 0 ? pair : pair.substring(0, eq));
            String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
            if (values.putIfAbsent(name, value) != null) {
                repeated = name;
            }
        }
        return new FormFields(values, Optional.ofNullable(repeated));
    }

    /** The parameter's value; empty when absent or empty (RFC 6749 §3.1: empty values count as omitted). */
    Optional<String> get(String name) {
        return Optional.ofNullable(values.get(name)).filter(v -> !v.isEmpty());
    }

    private static String decode(String text) {
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException malformed) {
            return "";
        }
    }
}
