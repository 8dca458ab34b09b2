package dev.lnp.json.rows;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * PostgreSQL's binary one-dimensional {@code text[]} (or {@code varchar[]}), which the driver receives once it
 * prepares the statement, written as a JSON array straight from its bytes.
 */
final class BinaryTextArray {

    /** The element types whose binary array elements are the text itself: {@code text} and {@code varchar}. */
    private static final int TEXT_OID = 25;
    private static final int VARCHAR_OID = 1043;

    private BinaryTextArray() {
    }

    /**
     * Writes the array from {@code raw}: each element is the text in the client encoding, UTF-8, so no array object,
     * no String per element. Returns false, having written nothing, for anything else (the text form before the
     * statement is prepared starts with '{'; more dimensions, another element type).
     */
    static boolean write(byte[] raw, JsonGenerator json) throws IOException {
        if (raw.length < 12 || raw[0] == '{') {
            return false;
        }
        ByteBuffer in = ByteBuffer.wrap(raw);
        int dimensions = in.getInt();
        in.getInt(); // has nulls: each element says so itself
        int elementType = in.getInt();
        if (dimensions > 1 || (elementType != TEXT_OID && elementType != VARCHAR_OID)
                || (dimensions == 1 && raw.length < 20)) {
            return false;
        }
        int count = dimensions == 0 ? 0 : in.getInt();
        if (dimensions == 1) {
            in.getInt(); // lower bound
        }
        json.writeStartArray();
        for (int i = 0; i < count; i++) {
            int length = in.getInt();
            if (length < 0) {
                json.writeNull();
            } else {
                Utf8Text.write(raw, in.position(), length, json);
                in.position(in.position() + length);
            }
        }
        json.writeEndArray();
        return true;
    }
}
