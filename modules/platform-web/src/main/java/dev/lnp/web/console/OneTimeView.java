package dev.lnp.web.console;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * A secret shown once after a redirect (POST, redirect, GET): the form's handler seals it into a short-lived
 * cookie, and the page at {@code path} (of the console or the application) opens it and clears the cookie. Reloading that page shows nothing new and
 * re-posts nothing. The cookie is sealed (AES-GCM) under a key derived from the browser's session token, which
 * the server never stores, and bound to {@code path}: no node keeps the secret, so any node can show it, and the
 * cookie is worthless without the session cookie beside it.
 */
final class OneTimeView {

    static final String COOKIE = "lnp_once";
    static final Duration LIFETIME = Duration.ofMinutes(5);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int IV_BYTES = 12;

    private OneTimeView() {
    }

    /** Seals {@code secret} for the next GET of {@code path} in this browser's session. */
    static void seal(ConsoleExchange x, String path, String secret) {
        String sessionToken = x.cookie(ConsoleExchange.SESSION_COOKIE).orElseThrow();
        byte[] iv = new byte[IV_BYTES];
        RANDOM.nextBytes(iv);
        try {
            Cipher cipher = cipher(Cipher.ENCRYPT_MODE, sessionToken, iv, path);
            byte[] sealed = cipher.doFinal(secret.getBytes(StandardCharsets.UTF_8));
            byte[] value = ByteBuffer.allocate(iv.length + sealed.length).put(iv).put(sealed).array();
            x.mountCookie(mount(path), COOKIE, Base64.getUrlEncoder().withoutPadding().encodeToString(value), LIFETIME);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The secret sealed for {@code path} in this session, once: the cookie is cleared whatever it held. Empty when
     * there is none, it expired, or it was sealed for another page or session.
     */
    static Optional<String> open(ConsoleExchange x, String path) {
        Optional<String> cookie = x.cookie(COOKIE);
        Optional<String> sessionToken = x.cookie(ConsoleExchange.SESSION_COOKIE);
        if (cookie.isEmpty()) {
            return Optional.empty();
        }
        x.mountCookie(mount(path), COOKIE, "", Duration.ZERO);
        if (sessionToken.isEmpty()) {
            return Optional.empty();
        }
        try {
            byte[] value = Base64.getUrlDecoder().decode(cookie.get());
            if (value.length <= IV_BYTES) {
                return Optional.empty();
            }
            byte[] iv = java.util.Arrays.copyOf(value, IV_BYTES);
            Cipher cipher = cipher(Cipher.DECRYPT_MODE, sessionToken.get(), iv, path);
            byte[] plain = cipher.doFinal(value, IV_BYTES, value.length - IV_BYTES);
            return Optional.of(new String(plain, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException | GeneralSecurityException e) {
            // Tampered with, or sealed under another session or for another page: nothing to show.
            return Optional.empty();
        }
    }

    /** The cookie goes only to the part of the site the page is in: the console, or the application. */
    private static String mount(String path) {
        return path.startsWith("/app/") ? "/app" : "/console";
    }

    private static Cipher cipher(int mode, String sessionToken, byte[] iv, String path)
            throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(sessionToken.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        byte[] key = mac.doFinal("lnp console one-time view".getBytes(StandardCharsets.UTF_8));
        Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
        cipher.init(mode, new SecretKeySpec(key, "AES"), new GCMParameterSpec(128, iv));
        cipher.updateAAD(path.getBytes(StandardCharsets.UTF_8));
        return cipher;
    }
}
