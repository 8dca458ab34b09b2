package dev.lnp.testkit.pipeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lnp.testkit.PlatformTest;
import dev.lnp.testkit.TestPlatform;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/** Browsers ask for /favicon.ico on every console visit: a cacheable 204, and no log line for it. */
@PlatformTest
class FaviconTest {

    @Test
    void theFaviconIsAnsweredWithoutAContentAndWithoutALogLine(TestPlatform platform) throws Exception {
        List<LogRecord> logged = new CopyOnWriteArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.INFO.intValue()) {
                    logged.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger dev = Logger.getLogger("dev.lnp");
        Logger helidon = Logger.getLogger("io.helidon");
        dev.addHandler(capture);
        helidon.addHandler(capture);
        try (HttpClient client = HttpClient.newHttpClient()) {
            HttpResponse<String> icon = client.send(HttpRequest.newBuilder(platform.uri("/favicon.ico"))
                    .header("Accept", "image/avif,image/webp,*/*").build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(204, icon.statusCode(), icon.body());
            assertTrue(icon.headers().firstValue("Cache-Control").orElse("").contains("max-age="),
                    icon.headers().map().toString());
            Thread.sleep(200);
            assertEquals(List.of(), logged.stream().map(r -> r.getLoggerName() + ": " + r.getMessage()).toList());
        } finally {
            dev.removeHandler(capture);
            helidon.removeHandler(capture);
        }
    }
}
