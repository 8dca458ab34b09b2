package dev.lnp.core.http;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.Page;
import dev.lnp.api.http.ResponseShape;
import dev.lnp.api.sql.JsonRows;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.util.Arrays;
import java.util.concurrent.ArrayBlockingQueue;

/**
 * A route's JSON answer, from the handler's objects to the socket with one copy at most.
 *
 * <p>The answer is written by Jackson into a pooled buffer while the handler's transaction is still open (a
 * {@code JsonRows} page reads its rows then), and goes out only after that: a failure anywhere while it is written,
 * or a commit that fails, still becomes a problem+json answer, never a 200 cut off half way, and every answer keeps
 * its {@code Content-Length}. It is handed to Helidon's output stream in two writes: the first bytes go with the
 * headers (Helidon copies those into its header buffer), the rest is written to the socket from the pooled buffer as
 * it is. Before, a page was copied out of its buffer ({@code toByteArray}) and again into Helidon's response buffer:
 * 26 % and 16 % of a contacts page's allocation (JFR).
 */
final class ResponseWriter {

    private static final System.Logger LOG = System.getLogger(ResponseWriter.class.getName());

    /** Enough buffers for every request the database pool lets run at once, and some. */
    private static final int POOLED_BUFFERS = 32;
    /** A buffer grown past this (a rare huge answer) is left to the garbage collector rather than kept. */
    private static final int LARGEST_POOLED = 512 * 1024;
    private static final int FIRST_SIZE = 16 * 1024;
    /** Sent in one segment with the headers; Helidon copies these into its header buffer. */
    private static final int HEAD_BYTES = 512;

    private static final ArrayBlockingQueue<Body> POOL = new ArrayBlockingQueue<>(POOLED_BUFFERS);

    private ResponseWriter() {
    }

    /** Writes {@code result}'s JSON (the route's envelope unless it answers directly) into a pooled buffer. */
    static Body render(ApiResponse result, ResponseShape shape) {
        Body body = take();
        try (JsonGenerator json = Json.mapper().createGenerator(body)) {
            if (shape == ResponseShape.DIRECT) {
                Json.mapper().writeValue(json, result.data());
            } else {
                json.writeStartObject();
                json.writeFieldName("data");
                Json.mapper().writeValue(json, result.data());
                Page pagination = pagination(result);
                if (pagination != null) {
                    json.writeFieldName("pagination");
                    pagination.write(json);
                }
                json.writeEndObject();
            }
            return body;
        } catch (IOException | RuntimeException e) {
            body.release();
            if (e instanceof IOException io) {
                throw new IllegalStateException("the response is not serializable", io);
            }
            throw (RuntimeException) e;
        }
    }

    /** Asked after {@code data} is written: rows that read their total with them know it only then. */
    private static Page pagination(ApiResponse result) {
        if (result.pagination() == null && result.data() instanceof JsonRows rows) {
            return rows.pagination();
        }
        return result.pagination();
    }

    /** A body that is already bytes (an idempotent replay), sent the same way. */
    static Body of(byte[] bytes) {
        return new Body(bytes, bytes.length, false);
    }

    /**
     * Sends {@code body} as JSON with its {@code Content-Length}, and gives its buffer back. A client that hung up
     * meanwhile ends it quietly (nothing can reach it, and nothing failed here): the audit keeps the status.
     */
    static void send(ServerResponse res, Body body) {
        res.header(HeaderNames.CONTENT_TYPE, "application/json");
        res.contentLength(body.size);
        try (OutputStream out = res.outputStream()) {
            int head = Math.min(body.size, HEAD_BYTES);
            out.write(body.bytes, 0, head);
            // Headers and the first bytes leave now, so the rest does not wait in (and is not copied into) the
            // first-write buffer Helidon assembles with the headers.
            out.flush();
            out.write(body.bytes, head, body.size - head);
        } catch (IOException | UncheckedIOException | CloseConnectionException e) {
            LOG.log(Level.DEBUG, () -> "the client closed the connection while its response was written ("
                    + e.getMessage() + ")");
        } finally {
            body.release();
        }
    }

    private static Body take() {
        Body body = POOL.poll();
        if (body == null) {
            return new Body(new byte[FIRST_SIZE], 0, true);
        }
        body.released = false;
        return body;
    }

    /** An answer's bytes: a growing buffer that goes back to the pool once sent. */
    static final class Body extends OutputStream {

        private byte[] bytes;
        private int size;
        private final boolean pooled;
        /** Guards the pool against a second release: two answers sharing one buffer would mix their bytes. */
        private boolean released;

        private Body(byte[] bytes, int size, boolean pooled) {
            this.bytes = bytes;
            this.size = size;
            this.pooled = pooled;
        }

        int size() {
            return size;
        }

        /** A copy that outlives the buffer (what an idempotency key stores). */
        byte[] toByteArray() {
            return Arrays.copyOf(bytes, size);
        }

        @Override
        public void write(int b) {
            ensure(1);
            bytes[size++] = (byte) b;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            ensure(len);
            System.arraycopy(b, off, bytes, size, len);
            size += len;
        }

        private void ensure(int more) {
            if (size + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
            }
        }

        /** Gives the buffer back for the next answer; this body must not be used afterwards. */
        void release() {
            if (pooled && !released && bytes.length <= LARGEST_POOLED) {
                released = true;
                size = 0;
                POOL.offer(this);
            }
        }
    }
}
