package dev.lnp.api.internal.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.http.ApiRequest;
import dev.lnp.api.http.RequestContext;
import dev.lnp.api.mcp.ToolResult;
import java.util.List;

/**
 * The platform's tool catalog and tool calls as one caller sees them, for plugins that expose tools over some
 * protocol (the hosted MCP plugin). Obtained with {@code context.service(ToolGateway.class)}. Every method takes
 * the request the plugin is handling, which carries the authenticated caller; requests of public routes are
 * refused.
 *
 * <p>A tool is allowed when the key holds the tool's scope, the connection does not deny it (its deny list, its
 * allow list, its read-only switch) and the tool's plugin is enabled for the workspace.
 */
public interface ToolGateway {

    /** Who is calling: scopes, key expiry, the MCP rate-limit budget left, the connection's tool settings. */
    McpCaller caller(RequestContext request);

    /** Every registered tool with its permission for this caller, in a stable order (plugin, then registration). */
    List<ToolEntry> catalog(RequestContext request);

    /**
     * Calls a tool as the caller and records the call in the tool-call audit. Failures are {@code ApiProblem}s:
     * 404 {@code unknown_tool}; 403 {@code tool_denied} (one error whose {@code rule} is the
     * {@link ToolDenial#reason()}); 422 {@code validation_failed} naming each argument by its pointer in the
     * arguments; 429 {@code quota_exceeded}; anything the tool itself answers (404, 409, 422...).
     * The tool runs in a workspace transaction of its own, after its quota is taken, so the request must not hold
     * one: call this from a raw route or from a route declared {@code withoutTransaction()}.
     */
    ToolResult call(RequestContext request, String name, JsonNode arguments);

    /**
     * Calls a tool as the holder of {@code apiKey} would over MCP (same permissions, limits, budget and audit;
     * recorded with the endpoint {@code internal}), for work a plugin does for a workspace outside any request of
     * that workspace, e.g. seeding a newly provisioned workspace with sample data through other plugins' public
     * tools. A bad, revoked or expired key is refused as on a request (401 problem).
     */
    ToolResult callWithKey(String apiKey, String name, JsonNode arguments);

    /** The workspace's recorded tool calls, newest first. */
    ToolCallPage audit(ApiRequest request, ToolCallFilter filter);

    /**
     * A plugin calling another plugin's tool on its own behalf, outside any request (e.g. the chatbot opening a
     * support ticket with {@code issues_create}), so that it needs none of that plugin's classes. The tool runs in
     * a workspace transaction of its own as a service principal whose identity is {@code actorId} (what the tool
     * records as author or creator) and who holds exactly the tool's scope. Arguments are validated as for any
     * caller; failures are {@code ApiProblem}s as in {@link #call}.
     */
    ToolResult callAsPlugin(java.util.UUID workspaceId, java.util.UUID actorId, String name, JsonNode arguments);
}
