package dev.lnp.api.console;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One page of a section's rows, as the plugin's list callback answers it.
 *
 * @param rows the rows of the requested page; each has a string or UUID field {@code id} (the row's address in
 *             the console, at most 100 letters, digits, {@code -} or {@code _})
 * @param total how many rows there are in all (for the pager)
 */
public record RowPage(List<ObjectNode> rows, long total) {

    public RowPage {
        rows = List.copyOf(rows);
    }
}
