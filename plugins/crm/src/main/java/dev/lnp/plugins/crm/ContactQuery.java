package dev.lnp.plugins.crm;

import dev.lnp.api.http.PageRequest;
import java.util.List;

/**
 * Which contacts a list asks for.
 *
 * @param words search words, already escaped for LIKE; every one must match
 * @param statuses contact statuses to keep; empty keeps all
 */
record ContactQuery(List<String> words, List<String> statuses, PageRequest page) {

    ContactQuery {
        words = List.copyOf(words);
        statuses = List.copyOf(statuses);
    }
}
