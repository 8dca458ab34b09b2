package dev.lnp.plugins.chatbot.widget;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;
import java.util.zip.Deflater;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

/** The widget script as the plugin ships it: small, self-contained, and without the things the brief rules out. */
class WidgetScriptTest {

    /** The widget's script stays under 15 KB gzipped: it loads on every page of the customer's site. */
    static final int MAX_GZIPPED_BYTES = 15 * 1024;

    static byte[] script() throws IOException {
        try (InputStream in = WidgetScriptTest.class.getResourceAsStream("/widget/widget.js")) {
            assertNotNull(in, "widget/widget.js is a resource of the chatbot plugin");
            return in.readAllBytes();
        }
    }

    /** gzip at level 9, as {@code gzip -9 | wc -c} measures it. */
    static int gzipped(byte[] bytes) throws IOException {
        var out = new ByteArrayOutputStream();
        try (var gzip = new GZIPOutputStream(out) {
            {
                def.setLevel(Deflater.BEST_COMPRESSION);
            }
        }) {
            gzip.write(bytes);
        }
        return out.size();
    }

    @Test
    void isUnder15KilobytesGzipped() throws IOException {
        int size = gzipped(script());
        assertTrue(size < MAX_GZIPPED_BYTES, "widget.js is " + size + " bytes gzipped, the limit is " + MAX_GZIPPED_BYTES);
    }

    @Test
    void loadsNothingFromElsewhereAndKeepsNoKeysOrCookies() throws IOException {
        String js = new String(script(), StandardCharsets.UTF_8);
        // only the SVG namespace is an absolute URL: no CDN, no fonts, no third-party script
        var urls = Pattern.compile("https?://[^'\"\\s)]+").matcher(js).results().map(m -> m.group())
                .filter(u -> !u.equals("http://www.w3.org/2000/svg")).toList();
        assertTrue(urls.isEmpty(), "absolute URLs in widget.js: " + urls);
        assertFalse(js.contains("localStorage"), "no localStorage");
        assertFalse(js.contains("document.cookie"), "no cookies");
        assertFalse(js.contains("innerHTML"), "server text is never parsed as HTML");
        assertFalse(js.contains("eval(") || js.contains("new Function"), "nothing a strict CSP refuses");
        assertTrue(js.contains("credentials: 'omit'"), "requests carry no credentials");
        assertTrue(js.contains("attachShadow"), "renders in a shadow root");
    }
}
