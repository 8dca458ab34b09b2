package dev.lnp.plugins.projects;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.lnp.api.Json;
import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.pages.Column;
import dev.lnp.api.pages.Filter;
import dev.lnp.api.pages.Filter.Choice;
import dev.lnp.api.pages.Link;
import dev.lnp.api.pages.ListView;
import dev.lnp.api.pages.PageCall;
import dev.lnp.api.pages.PageRoute;
import dev.lnp.api.pages.PageView;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The capacity view of the workspace application: per person and ISO week, the hours their allocations book against
 * their capacity, as {@code GET /api/v1/planning/capacity} counts them. An overbooked week is accepted (the rule in
 * docs/projects-and-issues.md) and marked in words, "Overbooked by 8 h", not by colour alone; each row leads to the
 * person's allocations, where one is changed or deleted.
 */
final class CapacityPages {

    static final String PATH = "/app/projects/capacity";
    private static final List<String> WEEKS = List.of("4", "8", "13", "26");

    private final CapacityService capacity;

    CapacityPages(CapacityService capacity) {
        this.capacity = capacity;
    }

    List<PageRoute> pages() {
        return List.of(PageRoute.view(PATH).scope(ProjectScopes.PLANNING_READ).nav("Projects", "Capacity")
                .liveOn("planning.allocation.*").renderer(this::view));
    }

    private PageView view(PageCall call) {
        LocalDate from = date(call);
        int weeks = Integer.parseInt(call.query("weeks").filter(WEEKS::contains).orElse("4"));
        LocalDate start = from != null ? from : LocalDate.now(java.time.ZoneOffset.UTC);
        ObjectNode report = capacity.report(call.tx(), start, start.plusWeeks(weeks).minusDays(1), List.of(),
                uuid(call, "project_id"));
        List<ObjectNode> rows = new ArrayList<>();
        for (JsonNode person : report.path("people")) {
            String user = person.get("user_id").asText();
            String who = user.equals(call.userId().toString()) ? "you"
                    : call.members().nameOf(java.util.UUID.fromString(user), call.userId(), user);
            for (JsonNode week : person.path("weeks")) {
                BigDecimal available = week.get("available_hours").decimalValue();
                int booked = week.path("allocation_ids").size();
                rows.add(Json.object().put("user_id", user).put("person", who)
                        .put("week", week.get("week").asText() + " (" + week.get("start_date").asText() + ")")
                        .put("capacity", hours(week.get("capacity_hours").decimalValue()))
                        .put("allocated", hours(week.get("allocated_hours").decimalValue()))
                        .put("state", week.get("overbooked").asBoolean()
                                ? "⚠ Overbooked by " + hours(available.negate())
                                : "Within capacity, " + hours(available) + " free")
                        .put("allocations", booked == 0 ? "none" : booked + (booked == 1 ? " allocation" : " allocations")));
            }
        }
        return new ListView("Capacity", List.of(
                Column.of("Person", "person").linkedTo(AllocationPages.LIST + "?user_id={user_id}"),
                Column.of("Week", "week"),
                Column.of("Capacity", "capacity"),
                Column.of("Allocated", "allocated"),
                Column.of("Booking", "state"),
                Column.of("Allocations", "allocations").linkedTo(AllocationPages.LIST + "?user_id={user_id}")),
                List.of(Filter.search("from", "From (a date, YYYY-MM-DD)"), Filter.choice("weeks", "Weeks",
                        WEEKS.stream().map(w -> new Choice(w, w + " weeks")).toList())),
                rows, false, List.of(Link.to("All allocations", AllocationPages.LIST)),
                "Nobody has an allocation in these weeks. Allocations are made through the API or the MCP tools.");
    }

    /** The first day asked for; a value that is no date is a readable 400, as the API's query answers it. */
    private static LocalDate date(PageCall call) {
        try {
            return call.query("from").map(LocalDate::parse).orElse(null);
        } catch (DateTimeParseException notADate) {
            throw new ApiProblem(400, "invalid_query", "Bad Request", "From: give a date like 2026-12-07.",
                    List.of(), java.util.Map.of());
        }
    }

    private static UUID uuid(PageCall call, String name) {
        try {
            return call.query(name).map(UUID::fromString).orElse(null);
        } catch (IllegalArgumentException notAnId) {
            return null;
        }
    }

    private static String hours(BigDecimal hours) {
        return hours.stripTrailingZeros().toPlainString() + " h";
    }
}
