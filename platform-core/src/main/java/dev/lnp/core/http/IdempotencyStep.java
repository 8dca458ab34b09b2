package dev.lnp.core.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.core.limits.IdempotencyStore;
import dev.lnp.core.pipeline.PipelineStep;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * Inside the request transaction of an authenticated POST, for a request with an {@code Idempotency-Key}: claims the key and replays the
 * stored answer of an earlier request with it (the rest does not run), or stores this request's answer once
 * rendered, in the same transaction as its effects.
 */
final class IdempotencyStep implements PipelineStep<RouteCall> {

    private final IdempotencyStore store;

    IdempotencyStep(IdempotencyStore store) {
        this.store = store;
    }

    @Override
    public String name() {
        return "idempotency";
    }

    @Override
    public void apply(RouteCall call, Rest rest) {
        if (call.idempotencyKey == null) {
            rest.proceed();
            return;
        }
        var principal = call.caller.principal();
        var stored = store.claim(call.tx.handle(), principal.workspaceId(), principal.connectionId(),
                call.idempotencyKey, call.route.method() + " " + call.req.path().path(), requestHash(call.body));
        if (stored.isPresent()) {
            byte[] storedBody = stored.get().body();
            call.rendered = new RouteCall.Rendered(stored.get().status(),
                    storedBody == null ? null : ResponseWriter.of(storedBody), true);
            return;
        }
        rest.proceed();
        store.complete(call.tx.handle(), principal.connectionId(), call.idempotencyKey, call.rendered.status(),
                call.rendered.body() == null ? null : call.rendered.body().toByteArray());
    }

    private static byte[] requestHash(JsonNode body) {
        try {
            return MessageDigest.getInstance("SHA-256")
                    .digest(body.isMissingNode() ? new byte[0] : Json.mapper().writeValueAsBytes(body));
        } catch (NoSuchAlgorithmException | JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
