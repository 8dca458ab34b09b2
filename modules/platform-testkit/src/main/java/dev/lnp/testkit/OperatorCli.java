package dev.lnp.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.cli.Main;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Runs {@code bin/platform} operator commands in-process against a test platform's database, capturing what
 * they print. The CLI reads its configuration from system properties, so runs are serialised.
 */
public final class OperatorCli {

    /** What a command returned and printed (stripped). */
    public record Result(int exit, String out, String err) {
        public JsonNode json() {
            return Json.parse(out);
        }
    }

    private OperatorCli() {
    }

    /** Runs the command with the database of {@code platform} and no plugins folder. */
    public static Result run(TestPlatform platform, String... args) {
        return run(platform, Map.of(), "", args);
    }

    /** As {@link #run(TestPlatform, String...)}, with {@code stdin} as the command's standard input. */
    public static Result runWithInput(TestPlatform platform, String stdin, String... args) {
        return run(platform, Map.of(), stdin, args);
    }

    /** As {@link #run(TestPlatform, String...)}, with configuration keys set or replaced (e.g. another database). */
    public static Result run(TestPlatform platform, Map<String, String> overrides, String... args) {
        return run(platform, overrides, "", args);
    }

    private static synchronized Result run(TestPlatform platform, Map<String, String> overrides, String stdin,
            String... args) {
        Map<String, String> properties = new java.util.HashMap<>(Map.of("lnp.database.url", platform.databaseUrl(),
                "lnp.database.user", TestDatabases.server().user(),
                "lnp.database.password", TestDatabases.server().password(),
                "lnp.plugins.dir", "target/no-plugins"));
        properties.putAll(overrides);
        PrintStream out = System.out;
        PrintStream err = System.err;
        InputStream in = System.in;
        var outBytes = new ByteArrayOutputStream();
        var errBytes = new ByteArrayOutputStream();
        properties.forEach(System::setProperty);
        try {
            System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
            System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
            int exit = Main.run(args);
            return new Result(exit, outBytes.toString(StandardCharsets.UTF_8).strip(),
                    errBytes.toString(StandardCharsets.UTF_8).strip());
        } finally {
            System.setOut(out);
            System.setErr(err);
            System.setIn(in);
            properties.keySet().forEach(System::clearProperty);
        }
    }
}
