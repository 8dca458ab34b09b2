package dev.lnp.core.http;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.server.ClientFaults;
import dev.lnp.server.ReadDeadlines;
import io.helidon.webserver.http.ServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Reads a request body up to the deployment's cap (413 beyond it), under the read deadline (400 when cut off). */
final class BodyReader {

    private final long maxBodyBytes;
    private final ReadDeadlines deadlines;

    BodyReader(long maxBodyBytes, ReadDeadlines deadlines) {
        this.maxBodyBytes = maxBodyBytes;
        this.deadlines = deadlines;
    }

    byte[] read(RouteCall call) {
        ServerRequest req = call.req;
        Optional<Long> declared = req.headers().contentLength().stream().boxed().findFirst();
        if (declared.isPresent() && declared.get() > maxBodyBytes) {
            throw tooLarge();
        }
        deadlines.arm();
        try (InputStream in = req.content().inputStream()) {
            if (declared.isPresent()) {
                // Read straight into an array of the declared size (readNBytes(n) reads through 16 KB chunks and
                // copies them once more: most of a small POST's allocation here). Helidon ends the stream there.
                byte[] bytes = new byte[(int) (long) declared.get()];
                int read = in.readNBytes(bytes, 0, bytes.length);
                return read == bytes.length ? bytes : java.util.Arrays.copyOf(bytes, read);
            }
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBodyBytes + 1));
            if (bytes.length > maxBodyBytes) {
                throw tooLarge();
            }
            return bytes;
        } catch (IOException | RuntimeException e) {
            if (e instanceof ApiProblem problem) {
                throw problem;
            }
            // Cut off, timed out or malformed (a bad chunk size): the client's fault, and what is left of the body
            // on the connection cannot be framed any more, so the answer closes it.
            ClientFaults.report("400 unreadable body " + call.routeName() + " (" + e.getClass().getSimpleName()
                    + ")");
            throw new ApiProblem(400, "unreadable_body", "Bad Request", "The body could not be read: it was cut "
                    + "off, too slow, or its chunked framing is malformed.", List.of(), Map.of("Connection", "close"));
        } finally {
            deadlines.disarm();
            // An interrupt meant for a body read that finished just in time must not hit the handler's work.
            Thread.interrupted();
        }
    }

    private ApiProblem tooLarge() {
        return new ApiProblem(413, "payload_too_large", "Content Too Large",
                "The body is larger than " + maxBodyBytes + " bytes.");
    }
}
