package dev.lnp.json.rows;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import dev.lnp.api.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The word-at-a-time check must agree with a byte-at-a-time one for every byte value in every position of a word,
 * and what {@link Utf8Text#write} writes must be exactly what Jackson's {@code writeUTF8String} writes.
 */
class Utf8TextTest {

    private static final String[] PIECES = {"a", "Z", "0", " ", "~", "\u007f", "é", "Ø", "ı", "Ł", "€", "😀",
            "\u2028", "\"", "\\", "/", "\n", "\t", "\u0000", "\u001f", "\r", "<", "'"};

    @Test
    void everyByteValueInEveryPositionIsFoundAsTheSimpleLoopFindsIt() {
        for (int length = 1; length <= 24; length++) {
            for (int offset = 0; offset <= 3; offset++) {
                byte[] bytes = new byte[offset + length + 3];
                java.util.Arrays.fill(bytes, (byte) 'a');
                for (int at = offset; at < offset + length; at++) {
                    for (int value = 0; value < 256; value++) {
                        bytes[at] = (byte) value;
                        assertEquals(reference(bytes, offset, length), Utf8Text.needsNoEscape(bytes, offset, length),
                                "byte " + value + " at " + at + " of " + offset + ".." + (offset + length));
                    }
                    bytes[at] = 'a';
                }
                // Outside the range nothing counts.
                bytes[offset + length] = '"';
                if (offset > 0) {
                    bytes[offset - 1] = '\\';
                }
                assertEquals(true, Utf8Text.needsNoEscape(bytes, offset, length));
            }
        }
    }

    @Test
    void randomBytesAgreeWithTheSimpleLoop() {
        SplittableRandom random = new SplittableRandom(14);
        for (int i = 0; i < 100_000; i++) {
            byte[] bytes = new byte[random.nextInt(1, 40)];
            for (int j = 0; j < bytes.length; j++) {
                // Mostly bytes that need no escape, so that both answers occur often.
                bytes[j] = (byte) (random.nextInt(10) == 0 ? random.nextInt(256) : random.nextInt(0x23, 0x5C));
            }
            int offset = random.nextInt(bytes.length);
            int length = random.nextInt(bytes.length - offset + 1);
            assertEquals(reference(bytes, offset, length), Utf8Text.needsNoEscape(bytes, offset, length));
        }
    }

    @Test
    void theJsonIsWhatJacksonWritesByteForByte() throws IOException {
        SplittableRandom random = new SplittableRandom(2026);
        JsonFactory platform = Json.mapper().getFactory();
        JsonFactory asciiOnly = JsonFactory.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();
        for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder();
            int pieces = random.nextInt(0, 30);
            for (int p = 0; p < pieces; p++) {
                // Long plain runs too, so whole words of eight bytes are checked, not only the tail.
                text.append(random.nextInt(3) == 0 ? PIECES[random.nextInt(PIECES.length)] : "Björn Dvořák ");
            }
            byte[] utf8 = text.toString().getBytes(StandardCharsets.UTF_8);
            int offset = random.nextInt(Math.max(1, utf8.length / 2));
            offset = Math.min(offset, utf8.length);
            byte[] shifted = new byte[utf8.length + offset];
            System.arraycopy(utf8, 0, shifted, offset, utf8.length);
            for (JsonFactory factory : new JsonFactory[] {platform, asciiOnly}) {
                assertArrayEquals(jackson(factory, shifted, offset, utf8.length),
                        ours(factory, shifted, offset, utf8.length), text::toString);
            }
            // A generator that takes no UTF-8 bytes (a writer: writeValueAsString) gets the same JSON text.
            assertEquals(new String(jackson(platform, shifted, offset, utf8.length), StandardCharsets.UTF_8),
                    oursThroughAWriter(platform, shifted, offset, utf8.length));
        }
    }

    @Test
    void aValueLongerThanTheGeneratorsBufferIsWrittenWhole() throws IOException {
        byte[] utf8 = "Malmö, Łódź and Ødegaard ".repeat(4_000).getBytes(StandardCharsets.UTF_8);
        assertArrayEquals(jackson(Json.mapper().getFactory(), utf8, 0, utf8.length),
                ours(Json.mapper().getFactory(), utf8, 0, utf8.length));
    }

    private static boolean reference(byte[] bytes, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            int b = bytes[i] & 0xFF;
            if (b < 0x20 || b == '"' || b == '\\') {
                return false;
            }
        }
        return true;
    }

    @FunctionalInterface
    private interface Value {
        void write(JsonGenerator json) throws IOException;
    }

    /** The value as the one element of a JSON array: inside a structure, where a list writes its cells. */
    private static byte[] inArray(JsonFactory factory, Value value) throws IOException {
        var out = new ByteArrayOutputStream();
        try (JsonGenerator json = factory.createGenerator(out)) {
            json.writeStartArray();
            value.write(json);
            json.writeEndArray();
        }
        return out.toByteArray();
    }

    private static byte[] jackson(JsonFactory factory, byte[] utf8, int offset, int length) throws IOException {
        return inArray(factory, json -> json.writeUTF8String(utf8, offset, length));
    }

    private static byte[] ours(JsonFactory factory, byte[] utf8, int offset, int length) throws IOException {
        return inArray(factory, json -> Utf8Text.write(utf8, offset, length, json));
    }

    private static String oursThroughAWriter(JsonFactory factory, byte[] utf8, int offset, int length)
            throws IOException {
        var out = new StringWriter();
        try (JsonGenerator json = factory.createGenerator(out)) {
            json.writeStartArray();
            Utf8Text.write(utf8, offset, length, json);
            json.writeEndArray();
        }
        return out.toString();
    }
}
