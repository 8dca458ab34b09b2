package dev.lnp.plugins.issues;

import dev.lnp.api.http.ApiProblem;
import dev.lnp.api.http.FieldError;
import dev.lnp.api.http.QueryParam;
import dev.lnp.api.pages.PageCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The ticket inbox's address read into the issues list's filter: the API's own query parameters (declared once in
 * {@code schemas/issue-list.json}, checked here as the API checks them, a bad value a readable 400 page), plus what
 * only a person has: {@code mine} (assigned to whoever is signed in, so a shared link shows each reader their own)
 * and {@code sort}, the list headings' order in the API's {@code order_by} terms.
 */
final class TicketListing {

    /** Set by the page, not the address: the kind is always ticket; the order comes from {@code sort}. */
    private static final Set<String> NOT_FROM_THE_ADDRESS = Set.of("kind", "order_by", "page", "limit");
    static final IssueOrder DEFAULT_ORDER = IssueOrder.CREATED_AT_DESC;

    private final List<QueryParam> params;

    TicketListing(List<QueryParam> listQuery) {
        this.params = listQuery.stream().filter(p -> !NOT_FROM_THE_ADDRESS.contains(p.name())).toList();
    }

    IssueFilter filter(PageCall call) {
        for (QueryParam param : params) {
            for (String value : call.queryAll(param.name())) {
                check(param, value);
            }
        }
        List<String> assignees = new ArrayList<>(call.queryAll("assignee"));
        if (call.query("mine").isPresent()) {
            assignees.add(call.userId().toString());
        }
        IssueFilter asked = IssueFilter.from(name -> switch (name) {
            case "kind" -> Optional.of(IssueKind.TICKET.key);
            case "order_by" -> Optional.of(order(call.query("sort").orElse("")).key);
            default -> call.query(name);
        }, name -> name.equals("assignee") ? assignees : call.queryAll(name));
        return asked;
    }

    /** The order a sortable heading asks for; an unknown one is the inbox's default, newest first. */
    static IssueOrder order(String sort) {
        return IssueOrder.keys().contains(sort) ? IssueOrder.of(sort) : DEFAULT_ORDER;
    }

    private static void check(QueryParam param, String value) {
        boolean valid = switch (param.type()) {
            case UUID -> isUuid(value);
            case ENUM -> param.allowed().contains(value);
            case BOOLEAN -> value.equals("true") || value.equals("false");
            default -> true;
        };
        if (!valid) {
            String message = param.name() + ": " + switch (param.type()) {
                case UUID -> "not an id: " + value;
                case ENUM -> value + " is not one of " + String.join(", ", param.allowed());
                default -> "give true or false";
            };
            throw new ApiProblem(400, "invalid_query", "Bad Request", message,
                    List.of(new FieldError("?" + param.name(), "invalid", message)), Map.of());
        }
    }

    private static boolean isUuid(String value) {
        try {
            UUID.fromString(value);
            return value.length() == 36;
        } catch (IllegalArgumentException notAnId) {
            return false;
        }
    }
}
