package dev.lnp.json.rows;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * The buffered rows' UTF-8 bytes, grown as the generator flushes into them and kept as they are: no blocks to join
 * and no final copy (a list tool's page was allocated about three times over by a block builder). Its fields are read
 * directly by {@link StreamedJsonRows}, which hands them on as one slice.
 */
final class RowBytes extends OutputStream {
    byte[] bytes;
    int length;

    RowBytes(int capacity) {
        bytes = new byte[capacity];
    }

    @Override
    public void write(int b) {
        room(1);
        bytes[length++] = (byte) b;
    }

    @Override
    public void write(byte[] source, int offset, int count) {
        room(count);
        System.arraycopy(source, offset, bytes, length, count);
        length += count;
    }

    private void room(int more) {
        if (length + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
        }
    }
}
