package dev.lnp.plugins.trials;

import java.time.Duration;

/**
 * The trial's terms and the key it issues. Every trial route is public (the agent has no key yet, the owner signs
 * in by the mailed link), so the plugin declares no scope of its own; the trial key gets the {@code full-access}
 * preset of its (empty, isolated) workspace, restricted to MCP and to {@link #TOOL_CALLS} calls.
 */
final class TrialScopes {

    /** The preset of the trial key: every tool of the trial workspace, on MCP only. */
    static final String TRIAL_KEY_PRESET = "full-access";
    /** The preset of the short-lived key that seeds sample data, revoked once seeding is done. */
    static final String SEED_KEY_PRESET = "full-access";

    static final Duration APPROVAL_WINDOW = Duration.ofHours(24);
    static final Duration CREDENTIAL_LIFETIME = Duration.ofDays(7);
    static final int TOOL_CALLS = 250;
    static final Duration CHALLENGE_LIFETIME = Duration.ofMinutes(2);
    static final int FIRST_POLL_SECONDS = 2;
    static final int MAX_POLL_SECONDS = 30;

    private TrialScopes() {
    }
}
