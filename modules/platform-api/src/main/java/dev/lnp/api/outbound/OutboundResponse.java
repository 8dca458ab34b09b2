package dev.lnp.api.outbound;

import java.io.InputStream;
import java.util.Optional;

/** The answer to an {@link OutboundRequest}: read the body as it arrives, then close it. */
public interface OutboundResponse extends AutoCloseable {

    int status();

    /** The first value of a response header, by case-insensitive name. */
    Optional<String> header(String name);

    /**
     * The body as it arrives; it ends after the request's response cap even when the server sends more (see
     * {@link #truncated()}). A read waits at most the request's timeout.
     */
    InputStream body();

    /** Whether the body went on past the response cap; known once the body has been read to its end. */
    boolean truncated();

    @Override
    void close();
}
