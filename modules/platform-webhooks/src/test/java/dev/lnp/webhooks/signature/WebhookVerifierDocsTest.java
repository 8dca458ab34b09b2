package dev.lnp.webhooks.signature;

import static dev.lnp.webhooks.signature.WebhookSignatureTest.BODY;
import static dev.lnp.webhooks.signature.WebhookSignatureTest.EXPECTED;
import static dev.lnp.webhooks.signature.WebhookSignatureTest.EXPECTED_OLD;
import static dev.lnp.webhooks.signature.WebhookSignatureTest.OLD_SECRET;
import static dev.lnp.webhooks.signature.WebhookSignatureTest.SECRET;
import static dev.lnp.webhooks.signature.WebhookSignatureTest.TIMESTAMP;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Node and Python verifiers in docs/webhooks.md, run exactly as written there against the golden vector
 * the Java verifier is tested with. Skipped only where node or python3 is not installed, and never in CI
 * ({@code CI=true}; {@code .ci/run} installs both): there a missing interpreter fails the test.
 */
class WebhookVerifierDocsTest {

    static final Path DOC = Path.of(System.getProperty("user.dir")).resolve("../../docs/webhooks.md").normalize();

    /** The fenced block right after {@code <!-- verifier:<name> -->}. */
    static String snippet(String name) throws Exception {
        String doc = Files.readString(DOC);
        int marker = doc.indexOf("<!-- verifier:" + name + " -->");
        assertTrue(marker >= 0, "docs/webhooks.md has a " + name + " verifier");
        int start = doc.indexOf('\n', doc.indexOf("```", marker)) + 1;
        return doc.substring(start, doc.indexOf("```", start));
    }

    /** {@code next} is the X-Service-Signature-Next header, null when the delivery has none. */
    record Case(String secret, String timestamp, String signature, String next, byte[] body, long now, boolean valid) {
    }

    static List<Case> cases() {
        byte[] tampered = new String(BODY, StandardCharsets.UTF_8).replace("Ada", "Eve").getBytes(StandardCharsets.UTF_8);
        return List.of(
                new Case(SECRET, "1700000000", EXPECTED, null, BODY, TIMESTAMP + 30, true),
                // During a rotation's overlap: the contract header is the previous secret's, the next header the new one's.
                new Case(SECRET, "1700000000", EXPECTED_OLD, EXPECTED, BODY, TIMESTAMP, true),
                new Case(OLD_SECRET, "1700000000", EXPECTED_OLD, EXPECTED, BODY, TIMESTAMP, true),
                new Case(SECRET, "1700000000", EXPECTED_OLD, null, BODY, TIMESTAMP, false),
                new Case(SECRET, "1700000000", EXPECTED + "," + EXPECTED_OLD, null, BODY, TIMESTAMP, false),
                new Case(SECRET, "1700000000", "", EXPECTED, BODY, TIMESTAMP, false),
                new Case("whsec_wrong", "1700000000", EXPECTED_OLD, EXPECTED, BODY, TIMESTAMP, false),
                new Case(SECRET, "1700000000", EXPECTED, null, tampered, TIMESTAMP, false),
                new Case(SECRET, "1700000000", EXPECTED_OLD, EXPECTED, tampered, TIMESTAMP, false),
                new Case(SECRET, "1700000001", EXPECTED, null, BODY, TIMESTAMP, false),
                new Case(SECRET, "1700000000", EXPECTED, null, BODY, TIMESTAMP + 301, false),
                new Case(SECRET, "1700000000", EXPECTED, null, BODY, TIMESTAMP - 301, false),
                new Case(SECRET, "", EXPECTED, null, BODY, TIMESTAMP, false),
                new Case(SECRET, "soon", EXPECTED, null, BODY, TIMESTAMP, false),
                new Case(SECRET, "1700000000", EXPECTED.toUpperCase(), null, BODY, TIMESTAMP, false));
    }

    @Test
    void theJavaVerifierAgreesWithTheCases() {
        for (Case c : cases()) {
            assertEquals(c.valid(), WebhookSignature.isValid(c.secret(), c.timestamp(), c.signature(), c.next(),
                    c.body(), java.time.Instant.ofEpochSecond(c.now())), c.toString());
        }
    }

    @Test
    void theNodeSnippetVerifies(@TempDir Path dir) throws Exception {
        requireInterpreter("node");
        Path script = dir.resolve("verify.js");
        Files.writeString(script, snippet("node") + """
                const fs = require('fs');
                const [secret, ts, sig, next, bodyFile, now] = process.argv.slice(2);
                console.log(verifyWebhook(secret, ts, sig, next || undefined, fs.readFileSync(bodyFile), Number(now)));
                """);
        runAll(dir, "node", script);
    }

    @Test
    void thePythonSnippetVerifies(@TempDir Path dir) throws Exception {
        requireInterpreter("python3");
        Path script = dir.resolve("verify.py");
        Files.writeString(script, snippet("python") + """

                import sys
                secret, ts, sig, nxt, body_file, now = sys.argv[1:]
                print("true" if verify_webhook(secret, ts, sig, nxt or None, open(body_file, "rb").read(), int(now)) else "false")
                """);
        runAll(dir, "python3", script);
    }

    @Test
    void theJavaSnippetUsesTheShippedVerifier() throws Exception {
        String java = snippet("java");
        assertTrue(java.contains("WebhookSignature.isValid("), java);
        assertTrue(java.contains("X-Service-Timestamp") && java.contains("\"X-Service-Signature\"")
                && java.contains("X-Service-Signature-Next"), java);
    }

    private static void runAll(Path dir, String interpreter, Path script) throws Exception {
        int i = 0;
        for (Case c : cases()) {
            Path body = dir.resolve("body-" + i++);
            Files.write(body, c.body());
            List<String> command = new ArrayList<>(List.of(interpreter, script.toString(), c.secret(), c.timestamp(),
                    c.signature(), c.next() == null ? "" : c.next(), body.toString(), Long.toString(c.now())));
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS));
            assertEquals(Boolean.toString(c.valid()), out, interpreter + " on " + c);
        }
    }

    private static boolean available(String... command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (Exception e) {
            return false;
        }
    }

    /** A missing interpreter skips the test on a developer's machine and fails it in CI, where it must run. */
    private static void requireInterpreter(String command) {
        boolean present = available(command, "--version");
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            org.junit.jupiter.api.Assertions.assertTrue(present, command + " is not installed, and CI=true: "
                    + ".ci/run installs it, so the verifier snippet must run here");
        }
        assumeTrue(present, command + " is not installed");
    }
}
