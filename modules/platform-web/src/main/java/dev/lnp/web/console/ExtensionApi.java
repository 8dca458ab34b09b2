package dev.lnp.web.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.internal.console.ActivityLog;
import dev.lnp.api.internal.console.ConsoleApi;
import dev.lnp.api.internal.console.ConsoleSession;
import dev.lnp.api.internal.console.PageExchange;
import io.helidon.webserver.http.Handler;
import java.util.UUID;

/** The console's JSON routes as a subsystem's operations see them ({@link ConsoleApi}): the same rules. */
final class ExtensionApi implements ConsoleApi {

    private final ManagementApi api;
    private final ActivityLog activity;

    ExtensionApi(ManagementApi api, ActivityLog activity) {
        this.api = api;
        this.activity = activity;
    }

    @Override
    public Handler json(JsonHandler handler) {
        return api.json(handler);
    }

    @Override
    public ConsoleSession session(PageExchange exchange) {
        return api.session(exchange);
    }

    @Override
    public ConsoleSession changing(Call call) {
        return api.changing(call);
    }

    @Override
    public UUID pathId(Call call, String name) {
        return api.pathId(call, name);
    }

    @Override
    public JsonNode jsonObject(Call call) {
        return ManagementApi.jsonObject(call.req());
    }

    @Override
    public ActivityLog activity() {
        return activity;
    }

    @Override
    public ObjectNode envelope(ArrayNode data) {
        return ManagementApi.envelope(data);
    }
}
