package dev.lnp.webhooks;

import dev.lnp.webhooks.signature.StandardWebhookSignature;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Signs as {@link dev.lnp.webhooks.signature.WebhookSignature} and {@link StandardWebhookSignature} do, byte for byte,
 * without their per-call {@code Mac.getInstance} (a provider lookup) and key set-up: one initialised {@link Mac}
 * is kept per key and cloned per signature, since a {@code Mac} is not thread-safe and attempts run in parallel.
 */
final class SigningKeys {

    /** Secrets are per subscription; past this many keys the cache starts over rather than grow without end. */
    static final int MAX_KEYS = 4_096;

    private static final String ALGORITHM = "HmacSHA256";
    private static final HexFormat HEX = HexFormat.of();

    private final Map<String, Mac> contract = new ConcurrentHashMap<>();
    private final Map<String, Optional<Mac>> standard = new ConcurrentHashMap<>();

    /** {@code sha256=<hex>}: the UTF-8 bytes of the whole secret as key, over {@code <timestamp>.<body>}. */
    String sign(String secret, long timestampSeconds, byte[] body) {
        Mac mac = copy(cached(contract, secret, () -> initialised(secret.getBytes(StandardCharsets.UTF_8))));
        mac.update((timestampSeconds + ".").getBytes(StandardCharsets.US_ASCII));
        return "sha256=" + HEX.formatHex(mac.doFinal(body));
    }

    /** {@code v1,<base64>} per secret in the Standard Webhooks form, space-separated; empty when none is. */
    Optional<String> standardHeader(Iterable<String> secrets, String messageId, long timestampSeconds, byte[] body) {
        StringBuilder header = new StringBuilder();
        byte[] prefix = null;
        for (String secret : secrets) {
            Optional<Mac> prototype = cached(standard, secret,
                    () -> StandardWebhookSignature.key(secret).map(SigningKeys::initialised));
            if (prototype.isEmpty()) {
                continue;
            }
            if (prefix == null) {
                prefix = (messageId + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8);
            }
            Mac mac = copy(prototype.get());
            mac.update(prefix);
            if (!header.isEmpty()) {
                header.append(' ');
            }
            header.append("v1,").append(Base64.getEncoder().encodeToString(mac.doFinal(body)));
        }
        return header.isEmpty() ? Optional.empty() : Optional.of(header.toString());
    }

    private static <V> V cached(Map<String, V> keys, String secret, java.util.function.Supplier<V> make) {
        V found = keys.get(secret);
        if (found != null) {
            return found;
        }
        if (keys.size() >= MAX_KEYS) {
            keys.clear();
        }
        V made = make.get();
        keys.put(secret, made);
        return made;
    }

    private static Mac initialised(byte[] key) {
        try {
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(new SecretKeySpec(key, ALGORITHM));
            return mac;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
        }
    }

    /** A fresh copy of the prototype, whose state is never updated (so it needs no lock). */
    private static Mac copy(Mac prototype) {
        try {
            return (Mac) prototype.clone();
        } catch (CloneNotSupportedException e) {
            throw new IllegalStateException("the JDK's HmacSHA256 is cloneable", e);
        }
    }
}
