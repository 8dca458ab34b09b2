package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One page of rows for the application's lists, and whether another follows: the list reads one row more than the
 * page instead of counting the whole table.
 */
record RowsPage(List<ObjectNode> rows, boolean hasMore) {

    /** @param read the rows of a query limited to {@code limit + 1} */
    static RowsPage of(List<ObjectNode> read, int limit) {
        boolean more = read.size() > limit;
        return new RowsPage(more ? List.copyOf(read.subList(0, limit)) : List.copyOf(read), more);
    }
}
