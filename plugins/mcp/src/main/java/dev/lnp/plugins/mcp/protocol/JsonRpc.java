package dev.lnp.plugins.mcp.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;

/** JSON-RPC 2.0 messages and the error codes this endpoint answers with. */
final class JsonRpc {

    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;
    static final int INTERNAL_ERROR = -32603;
    /**
     * A registered tool the key may not call (implementation-defined range). Distinct from an unknown tool,
     * which is {@link #INVALID_PARAMS} as MCP's tools page shows.
     */
    static final int TOOL_DENIED = -32010;
    /** 2026-07-28: a routing header is missing, malformed or differs from the body (HTTP 400). */
    static final int HEADER_MISMATCH = -32020;
    /** 2026-07-28 (sent to every revision, since a version we do not know has no era): HTTP 400. */
    static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

    private JsonRpc() {
    }

    static ObjectNode result(JsonNode id, JsonNode result) {
        ObjectNode response = Json.object().put("jsonrpc", "2.0");
        response.set("id", id);
        response.set("result", result);
        return response;
    }

    static ObjectNode error(JsonNode id, int code, String message, JsonNode data) {
        ObjectNode response = Json.object().put("jsonrpc", "2.0");
        if (id != null && !id.isNull()) {
            // an error whose request id could not be read has no id at all (the schemas make it optional, not null)
            response.set("id", id);
        }
        ObjectNode error = response.putObject("error").put("code", code).put("message", message);
        if (data != null) {
            error.set("data", data);
        }
        return response;
    }

    /**
     * A failure that becomes a JSON-RPC error response for the request being handled, sent with HTTP
     * {@code status}: 200 for errors of a method, 400 for the transport's own rejections in 2026-07-28.
     */
    static final class Failure extends RuntimeException {
        final int code;
        final transient JsonNode data;
        final int status;

        Failure(int status, int code, String message, JsonNode data) {
            super(message, null, false, false);
            this.status = status;
            this.code = code;
            this.data = data;
        }

        Failure(int code, String message, JsonNode data) {
            this(200, code, message, data);
        }

        Failure(int code, String message) {
            this(code, message, null);
        }
    }
}
