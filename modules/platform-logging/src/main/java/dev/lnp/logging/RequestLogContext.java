package dev.lnp.logging;

import java.util.UUID;

/**
 * The request a thread is serving, for the JSON log lines written meanwhile ({@code request_id},
 * {@code workspace_id}, {@code route} as fields of their own). Each request runs on its own virtual thread and
 * JUL formats a record on the thread that logs it, so a thread-local is exact; {@link #close()} clears it.
 */
public final class RequestLogContext implements AutoCloseable {

    record Fields(String requestId, String route, UUID workspaceId) {
    }

    private static final ThreadLocal<Fields> CURRENT = new ThreadLocal<>();

    private RequestLogContext() {
    }

    /** @param route the route template, e.g. {@code GET /api/v1/crm/deals/{id}} */
    public static RequestLogContext open(String requestId, String route) {
        CURRENT.set(new Fields(requestId, route, null));
        return new RequestLogContext();
    }

    /** Known once the caller's key is checked. */
    public static void workspace(UUID workspaceId) {
        Fields fields = CURRENT.get();
        if (fields != null) {
            CURRENT.set(new Fields(fields.requestId(), fields.route(), workspaceId));
        }
    }

    static Fields current() {
        return CURRENT.get();
    }

    @Override
    public void close() {
        CURRENT.remove();
    }
}
