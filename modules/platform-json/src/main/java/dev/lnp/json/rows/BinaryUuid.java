package dev.lnp.json.rows;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * PostgreSQL's binary {@code uuid}, the 16 bytes the driver receives once it prepares the statement, written as
 * {@link java.util.UUID#toString} would: hex digits into a buffer the field writer keeps, no UUID object and no String
 * per value.
 */
final class BinaryUuid {

    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    private BinaryUuid() {
    }

    /**
     * Writes {@code raw} as a JSON string using {@code buffer} (36 bytes at least); returns false, having written
     * nothing, when {@code raw} is not 16 bytes (the text form, before the statement is prepared).
     */
    static boolean write(byte[] raw, byte[] buffer, JsonGenerator json) throws IOException {
        if (raw.length != 16) {
            return false;
        }
        int at = 0;
        for (int i = 0; i < 16; i++) {
            if (i == 4 || i == 6 || i == 8 || i == 10) {
                buffer[at++] = '-';
            }
            buffer[at++] = HEX[(raw[i] >> 4) & 0xF];
            buffer[at++] = HEX[raw[i] & 0xF];
        }
        Utf8Text.writeAscii(buffer, at, json);
        return true;
    }
}
