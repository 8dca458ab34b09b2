package dev.lnp.json.rows;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A JSON string value written from the UTF-8 bytes PostgreSQL sent. Most values of a list page need no escaping
 * at all; this finds that out eight bytes at a time and then copies the bytes as they are. Jackson's own check
 * ({@code writeUTF8String}) looks at one byte at a time, which was 5–9 % of a list page's CPU in the JVM.
 * A value that does need escaping goes through Jackson as before.
 */
final class Utf8Text {

    private static final VarHandle LITTLE_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGH_BITS = 0x8080808080808080L;
    private static final long BELOW_SPACE = 0x20 * ONES;
    private static final long QUOTES = '"' * ONES;
    private static final long BACKSLASHES = '\\' * ONES;

    private Utf8Text() {
    }

    /**
     * Writes {@code length} bytes of UTF-8 text from {@code offset} as a JSON string. Copied as they are only into
     * Jackson's UTF-8 generator with its standard escapes (JSON's mandatory ones: control characters, quotation
     * mark, backslash; a {@code /} stays as it is, as the platform's mapper writes it); with non-ASCII escaping
     * that generator escapes them itself. Generators that take no UTF-8 bytes (a writer, a tree) get the text as a
     * String.
     */
    static void write(byte[] utf8, int offset, int length, JsonGenerator json) throws IOException {
        if (!(json instanceof UTF8JsonGenerator)) {
            json.writeString(new String(utf8, offset, length, StandardCharsets.UTF_8));
        } else if (json.getCharacterEscapes() == null && json.getHighestEscapedChar() == 0
                && needsNoEscape(utf8, offset, length)) {
            json.writeRawUTF8String(utf8, offset, length);
        } else {
            json.writeUTF8String(utf8, offset, length);
        }
    }

    /**
     * Writes the first {@code length} bytes of {@code ascii}, text that holds only characters JSON never escapes
     * (a UUID's hex digits and dashes, a timestamp's digits and separators), as a JSON string: copied as they are
     * into Jackson's UTF-8 generator, where checking each character for escaping and encoding it again was most
     * of what writing such a value cost; other generators get a String.
     */
    static void writeAscii(byte[] ascii, int length, JsonGenerator json) throws IOException {
        if (json instanceof UTF8JsonGenerator && json.getCharacterEscapes() == null
                && json.getHighestEscapedChar() == 0) {
            json.writeRawUTF8String(ascii, 0, length);
        } else {
            json.writeString(new String(ascii, 0, length, StandardCharsets.US_ASCII));
        }
    }

    /**
     * Whether no byte in the range is one JSON must escape: below 0x20, {@code "} or {@code \}. Bytes of multi-byte
     * characters (0x80 and above) never are. Eight bytes per step: for each word, a byte below 0x20 and a byte equal
     * to a given one each set a high bit (the usual word-at-a-time tests: exact for "is there any", which is all
     * this asks).
     */
    static boolean needsNoEscape(byte[] bytes, int offset, int length) {
        int i = offset;
        int end = offset + length;
        for (; i <= end - Long.BYTES; i += Long.BYTES) {
            long word = (long) LITTLE_ENDIAN_LONG.get(bytes, i);
            long quotes = word ^ QUOTES;
            long backslashes = word ^ BACKSLASHES;
            long found = ((word - BELOW_SPACE) & ~word) | ((quotes - ONES) & ~quotes)
                    | ((backslashes - ONES) & ~backslashes);
            if ((found & HIGH_BITS) != 0) {
                return false;
            }
        }
        for (; i < end; i++) {
            int b = bytes[i];
            if ((b >= 0 && b < 0x20) || b == '"' || b == '\\') {
                return false;
            }
        }
        return true;
    }
}
