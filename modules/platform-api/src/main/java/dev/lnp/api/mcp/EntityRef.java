package dev.lnp.api.mcp;

import java.util.UUID;

/** A resource a tool call touched, e.g. {@code {type: "deal", id: ..., action: "updated"}}. */
public record EntityRef(String type, UUID id, String action) {
}
