package dev.lnp.plugins.chatbot;

import java.util.Map;
import java.util.OptionalLong;

/**
 * A widget's limits on its language model, from its responder settings: requests and tokens per conversation
 * ({@code max_requests_per_session}, {@code max_tokens_per_session}) and per widget and day, UTC
 * ({@code max_requests_per_day}, {@code max_tokens_per_day}). An absent limit is no limit.
 */
record LlmLimits(OptionalLong sessionRequests, OptionalLong sessionTokens, OptionalLong dayRequests,
        OptionalLong dayTokens) {

    static final String SESSION_REQUESTS = "max_requests_per_session";
    static final String SESSION_TOKENS = "max_tokens_per_session";
    static final String DAY_REQUESTS = "max_requests_per_day";
    static final String DAY_TOKENS = "max_tokens_per_day";

    static LlmLimits of(Map<String, String> settings) {
        return new LlmLimits(limit(settings, SESSION_REQUESTS), limit(settings, SESSION_TOKENS),
                limit(settings, DAY_REQUESTS), limit(settings, DAY_TOKENS));
    }

    boolean none() {
        return sessionRequests.isEmpty() && sessionTokens.isEmpty() && dayRequests.isEmpty() && dayTokens.isEmpty();
    }

    /** Which limit a conversation and day that used this much have reached, or null when another request may go. */
    Reached reached(long sessionRequestsUsed, long sessionTokensUsed, long dayRequestsUsed, long dayTokensUsed) {
        if (over(sessionRequests, sessionRequestsUsed) || over(sessionTokens, sessionTokensUsed)) {
            return Reached.SESSION;
        }
        if (over(dayRequests, dayRequestsUsed) || over(dayTokens, dayTokensUsed)) {
            return Reached.DAY;
        }
        return null;
    }

    enum Reached { SESSION, DAY }

    private static boolean over(OptionalLong limit, long used) {
        return limit.isPresent() && used >= limit.getAsLong();
    }

    private static OptionalLong limit(Map<String, String> settings, String name) {
        String value = settings.get(name);
        if (value == null || value.isBlank()) {
            return OptionalLong.empty();
        }
        // The schema admits whole numbers of 1 or more only; a row changed by hand that holds anything else is no limit.
        try {
            return OptionalLong.of(Long.parseLong(value.strip()));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }
}
