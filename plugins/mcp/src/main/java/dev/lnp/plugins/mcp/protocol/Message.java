package dev.lnp.plugins.mcp.protocol;

import com.fasterxml.jackson.databind.JsonNode;

/** What kind of JSON-RPC 2.0 message a JSON value is, and what is wrong with it when it is none. */
final class Message {

    enum Kind { REQUEST, NOTIFICATION, RESPONSE, INVALID }

    private Message() {
    }

    static Kind kind(JsonNode m) {
        if (problem(m) != null) {
            return Kind.INVALID;
        }
        if (m.has("method")) {
            return m.has("id") ? Kind.REQUEST : Kind.NOTIFICATION;
        }
        return Kind.RESPONSE;
    }

    /** Why {@code m} is not a valid message, or {@code null}. */
    static String problem(JsonNode m) {
        if (!m.isObject()) {
            return "a message is a JSON object";
        }
        if (!"2.0".equals(m.path("jsonrpc").textValue())) {
            return "\"jsonrpc\" must be \"2.0\"";
        }
        if (m.has("id") && !validId(m.get("id"))) {
            return "\"id\" must be a string or a number";
        }
        if (m.has("method")) {
            if (!m.get("method").isTextual()) {
                return "\"method\" must be a string";
            }
            if (m.has("params") && !m.get("params").isObject()) {
                return "\"params\" must be an object";
            }
            return null;
        }
        boolean result = m.has("result");
        boolean error = m.has("error");
        if (result == error || !m.has("id")) {
            return "a message needs \"method\" (request or notification) or \"id\" with \"result\" or \"error\"";
        }
        return null;
    }

    /** The message's id when it has a usable one, for the error answer; else {@code null}. */
    static JsonNode idOf(JsonNode m) {
        JsonNode id = m.isObject() ? m.get("id") : null;
        return id != null && validId(id) ? id : null;
    }

    private static boolean validId(JsonNode id) {
        return id.isTextual() || id.isIntegralNumber();
    }
}
