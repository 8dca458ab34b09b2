package dev.lnp.core.http;

import dev.lnp.api.http.RawResponse;
import dev.lnp.core.pipeline.PipelineStep;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;

/**
 * Innermost step of a raw route: hands its handler the unparsed body (capped) and writes whatever it answers,
 * a whole body or a stream.
 */
final class RawInvokeStep implements PipelineStep<RouteCall> {

    /** The request log's name from before the steps: what operators' log filters and the tests select. */
    private static final System.Logger LOG = System.getLogger(RouteHandler.class.getName());

    private final BodyReader reader;

    RawInvokeStep(BodyReader reader) {
        this.reader = reader;
    }

    @Override
    public String name() {
        return "invoke raw";
    }

    @Override
    public void apply(RouteCall call, Rest rest) {
        byte[] body = call.req.content().hasEntity() ? reader.read(call) : new byte[0];
        RawResponse response;
        try {
            response = call.route.rawHandler().handle(new RawRequestImpl(call.requestId, call.req, body, call.caller,
                    call.route.path()));
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        if (response == null) {
            throw new IllegalStateException("raw handler of " + call.routeName() + " returned null");
        }
        write(call, response);
        rest.proceed();
    }

    private static void write(RouteCall call, RawResponse response) {
        ServerResponse res = call.res;
        response.headers().forEach((k, v) -> res.header(HeaderNames.create(k), v));
        res.status(Status.create(response.status()));
        call.status = response.status();
        if (response.isStream()) {
            writeStream(call, response);
            return;
        }
        if (response.body() == null) {
            res.send();
        } else {
            if (response.contentType() != null) {
                res.header(HeaderNames.CONTENT_TYPE, response.contentType());
            }
            res.send(response.body());
        }
    }

    /**
     * A streamed raw answer (e.g. Server-Sent Events): headers first, then the handler writes and flushes on this
     * virtual thread until it returns. No read deadline is armed while it runs (those bound request reads only),
     * and a client that goes away ends it quietly: a write to its closed socket throws, which is not a failure.
     */
    private static void writeStream(RouteCall call, RawResponse response) {
        if (response.contentType() != null) {
            call.res.header(HeaderNames.CONTENT_TYPE, response.contentType());
        }
        try (OutputStream out = call.res.outputStream()) {
            response.stream().write(out);
        } catch (IOException | UncheckedIOException | CloseConnectionException e) {
            LOG.log(Level.DEBUG, () -> "stream " + call.routeName() + " ended by the client (" + e.getMessage()
                    + ")");
        }
    }
}
