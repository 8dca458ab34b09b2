package dev.lnp.api.internal.platform;

import java.util.Map;

/** The deployment's request limits, as the console's Usage page shows them. */
public interface RateLimits {

    /** Requests per key and minute on the REST surface, unless a connection has its own. */
    int restPerMinute();

    /** Requests per key and minute on the MCP surface, unless a connection has its own. */
    int mcpPerMinute();

    /** The monthly limit of {@code quota}: the workspace's own, else the deployment's, else the plugin's default. */
    long quotaLimit(String quota, Map<String, Long> workspaceLimits);
}
