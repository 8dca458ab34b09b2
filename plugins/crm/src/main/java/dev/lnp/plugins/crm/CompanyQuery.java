package dev.lnp.plugins.crm;

import dev.lnp.api.http.PageRequest;
import java.util.List;

/**
 * Which companies a list asks for.
 *
 * @param words search words, already escaped for LIKE; every one must match
 */
record CompanyQuery(List<String> words, PageRequest page) {

    CompanyQuery {
        words = List.copyOf(words);
    }
}
