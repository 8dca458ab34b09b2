package dev.lnp.core.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.lnp.api.workspace.WorkspaceTx;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.ApiResponse;
import dev.lnp.api.http.PageRequest;
import dev.lnp.api.http.RouteSpec;
import dev.lnp.core.pipeline.QuotaStep;
import dev.lnp.core.pipeline.TransactionStep;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * One request to a plugin route on its way through the route's steps: what the request brought, and what each
 * step found for the steps after it (the caller, the checked query and body, the transaction, the answer).
 */
final class RouteCall implements QuotaStep.Charged, TransactionStep.Transactional {

    final String requestId;
    final long startedNanos = System.nanoTime();
    final RouteSpec route;
    final ServerRequest req;
    final ServerResponse res;
    final Map<String, String> pathParams;
    final Map<String, List<String>> query;

    /** Set by the admit step; stays null on a public route. */
    PipelineServices.Caller caller;
    /** The unit of the route's quota the admission statement took, or null. */
    QuotaStep.AdmittedUnit quotaUnit;
    PageRequest page;
    JsonNode body = MissingNode.getInstance();
    /**
     * The body as read from the request, or why it could not be read: the request's stream can be read only once,
     * and the steps after admission run again when a tool call finds its cached admission stale.
     */
    byte[] bodyBytes;
    ApiProblem bodyUnreadable;
    /** A POST's {@code Idempotency-Key}, or null. */
    String idempotencyKey;
    WorkspaceTx tx;
    /** Set when the transaction's opening found the cached admission stale (see {@link RecheckAdmissionStep}). */
    boolean staleAdmission;
    ApiResponse response;
    /** The answer to send, rendered inside the transaction so that an idempotent replay sends the same bytes. */
    Rendered rendered;
    /** The status answered, for the audit: 500 until a step knows better. */
    int status = 500;

    /** A response ready to send. */
    record Rendered(int status, ResponseWriter.Body body, boolean replayed) {
    }

    RouteCall(String requestId, RouteSpec route, ServerRequest req, ServerResponse res) {
        this.requestId = requestId;
        this.route = route;
        this.req = req;
        this.res = res;
        this.pathParams = new LinkedHashMap<>();
        req.path().pathParameters().toMap().forEach((k, v) -> pathParams.put(k, v.get(0)));
        this.query = new LinkedHashMap<>();
        for (String name : req.query().names()) {
            query.put(name, req.query().all(name));
        }
    }

    /** {@code POST /api/v1/crm/contacts}: the route as declared, for logs and messages. */
    String routeName() {
        return route.method() + " " + route.path();
    }

    @Override
    public Map<String, Long> workspaceQuotas() {
        return caller.key().workspaceQuotas();
    }

    @Override
    public dev.lnp.core.db.AdmissionCheck admissionCheck() {
        return caller == null ? null : caller.check();
    }

    @Override
    public boolean read() {
        return route.method() == dev.lnp.api.http.HttpMethod.GET;
    }

    @Override
    public Object readKey() {
        return routeName();
    }

    @Override
    public String quota() {
        return route.quota();
    }

    @Override
    public QuotaStep.AdmittedUnit admittedUnit() {
        return quotaUnit;
    }

    @Override
    public boolean usedQuota() {
        return rendered != null && !rendered.replayed();
    }

    @Override
    public UUID workspaceId() {
        return caller.principal().workspaceId();
    }

    @Override
    public void openedTx(WorkspaceTx tx) {
        this.tx = tx;
    }

    @Override
    public void admissionStale() {
        staleAdmission = true;
    }
}
