package dev.lnp.core.http;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.core.limits.IdempotencyStore;
import dev.lnp.core.pipeline.PipelineStep;
import io.helidon.http.HeaderNames;
import java.util.Optional;

/**
 * Authenticated POSTs (the only routes with this step): reads and checks the {@code Idempotency-Key} (400 when malformed), before the quota is
 * taken. A route without a request transaction refuses one (400): its effects commit in transactions of their
 * own, so a replay could not be the same answer.
 */
final class IdempotencyKeyStep implements PipelineStep<RouteCall> {

    @Override
    public String name() {
        return "idempotency key";
    }

    @Override
    public void apply(RouteCall call, Rest rest) {
        Optional<String> key = call.req.headers().first(HeaderNames.create(IdempotencyStore.HEADER));
        key.ifPresent(IdempotencyStore::checkKey);
        if (key.isPresent() && !call.route.transactional()) {
            throw new ApiProblem(400, "idempotency_not_supported", "Bad Request", call.routeName()
                    + " does not take an Idempotency-Key: its effects commit in transactions of their own.");
        }
        call.idempotencyKey = key.orElse(null);
        rest.proceed();
    }
}
