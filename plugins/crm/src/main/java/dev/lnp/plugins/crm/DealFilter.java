package dev.lnp.plugins.crm;

import dev.lnp.api.http.PageRequest;
import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;

/**
 * Which deals a list asks for. Within one filter several values match any of them; different filters must
 * all match. A value bound excludes deals without a value. {@code words} are search words already escaped for LIKE
 * ({@link SearchWords}): each must occur in the title.
 */
record DealFilter(List<String> words, List<String> statuses, List<String> stages, List<UUID> assignees, UUID contactId, UUID companyId,
        BigDecimal valueMin, BigDecimal valueMax, PageRequest page) {

    DealFilter {
        words = List.copyOf(words);
        statuses = List.copyOf(statuses);
        stages = List.copyOf(stages);
        assignees = List.copyOf(assignees);
    }
}
