package dev.lnp.plugins.mcp.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.RawRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * The checks a 2026-07-28 request passes before its method runs, each a 400: the routing headers the Streamable
 * HTTP transport mirrors from the body ({@code Mcp-Method}, {@code Mcp-Name}; a missing, repeated or differing
 * one is {@link JsonRpc#HEADER_MISMATCH}), then the per-request {@code _meta} fields (a missing required one is
 * {@link JsonRpc#INVALID_PARAMS}; a {@code protocolVersion} other than the {@code MCP-Protocol-Version} header is
 * a mismatch). Nothing is remembered between requests: every request carries all of it.
 */
final class StatelessRequest {

    static final String PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
    static final String CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";

    /** The methods whose {@code Mcp-Name} header mirrors a body field, and that field. */
    private static final Map<String, String> NAME_SOURCES =
            Map.of("tools/call", "name", "prompts/get", "name", "resources/read", "uri");
    private static final String BASE64_PREFIX = "=?base64?";
    private static final String BASE64_SUFFIX = "?=";

    private StatelessRequest() {
    }

    /** Throws the failure to answer with when {@code request} (a JSON-RPC request) may not be served. */
    static void check(JsonNode request, String headerVersion, RawRequest http) {
        String method = request.get("method").asText();
        String methodHeader = single(http, "Mcp-Method");
        if (!method.equals(methodHeader)) {
            throw mismatch("Mcp-Method", methodHeader, method);
        }
        JsonNode params = request.path("params");
        String source = NAME_SOURCES.get(method);
        if (source != null && params.path(source).isTextual()) {
            String nameHeader = single(http, "Mcp-Name");
            String name = params.get(source).asText();
            if (!name.equals(decode(nameHeader))) {
                throw mismatch("Mcp-Name", nameHeader, name);
            }
        }
        JsonNode meta = params.path("_meta");
        if (!meta.isObject()) {
            throw invalidMeta("params._meta is required: an object with " + PROTOCOL_VERSION + " and "
                    + CLIENT_CAPABILITIES);
        }
        JsonNode version = meta.path(PROTOCOL_VERSION);
        if (!version.isTextual()) {
            throw invalidMeta("params._meta needs " + PROTOCOL_VERSION + " (a string)");
        }
        if (!meta.path(CLIENT_CAPABILITIES).isObject()) {
            throw invalidMeta("params._meta needs " + CLIENT_CAPABILITIES + " (an object; {} declares none)");
        }
        if (!version.asText().equals(headerVersion)) {
            throw mismatch("MCP-Protocol-Version", headerVersion, version.asText());
        }
    }

    /** The header's one value without the optional whitespace around it; {@code null} when absent. */
    private static String single(RawRequest http, String header) {
        List<String> values = http.headers(header);
        if (values.size() > 1) {
            throw new JsonRpc.Failure(400, JsonRpc.HEADER_MISMATCH, "Header mismatch: " + header
                    + " was sent " + values.size() + " times", null);
        }
        return values.isEmpty() ? null : values.get(0).strip();
    }

    /** A value in the transport's {@code =?base64?…?=} form decoded; any other value as it is. */
    private static String decode(String value) {
        if (value == null || !value.startsWith(BASE64_PREFIX) || !value.endsWith(BASE64_SUFFIX)
                || value.length() < BASE64_PREFIX.length() + BASE64_SUFFIX.length()) {
            return value;
        }
        String encoded = value.substring(BASE64_PREFIX.length(), value.length() - BASE64_SUFFIX.length());
        try {
            return new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new JsonRpc.Failure(400, JsonRpc.HEADER_MISMATCH, "Header mismatch: Mcp-Name is not valid "
                    + "Base64 inside =?base64?…?=", null);
        }
    }

    private static JsonRpc.Failure mismatch(String header, String headerValue, String bodyValue) {
        String message = headerValue == null
                ? "Header mismatch: the " + header + " header is required and must be '" + bodyValue + "'"
                : "Header mismatch: " + header + " header value '" + headerValue + "' does not match body value '"
                        + bodyValue + "'";
        return new JsonRpc.Failure(400, JsonRpc.HEADER_MISMATCH, message,
                Json.object().put("header", header));
    }

    private static JsonRpc.Failure invalidMeta(String message) {
        return new JsonRpc.Failure(400, JsonRpc.INVALID_PARAMS, "Invalid params: " + message, null);
    }
}
