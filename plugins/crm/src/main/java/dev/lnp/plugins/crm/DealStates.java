package dev.lnp.plugins.crm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.http.ApiProblem;
import java.util.Set;

/**
 * How a deal's status and stage go together, and which status changes are allowed (docs/crm.md).
 *
 * <ul>
 *   <li>Consistency: stage closed_won ⇔ status closed_won, stage closed_lost ⇔ status closed_lost; open and
 *       on_hold go with an open stage. A request that names both inconsistently is 422 (on /stage).</li>
 *   <li>Naming one implies the other where it is determined: a closed stage closes the deal, a closed status
 *       sets the same stage.</li>
 *   <li>Moves: open ⇄ on_hold and open/on_hold → closed_* freely; a closed deal only reopens explicitly, with
 *       status open and an open stage in the same request; closed_won ⇄ closed_lost and closed → on_hold are
 *       409 invalid_transition.</li>
 * </ul>
 */
final class DealStates {

    static final Set<String> CLOSED = Set.of("closed_won", "closed_lost");

    record State(String status, String stage) {
        boolean closed() {
            return CLOSED.contains(status);
        }
    }

    private DealStates() {
    }

    /** The state of a new deal: open in discovery unless the body says otherwise. */
    static State forCreate(JsonNode body) {
        String status = text(body, "status");
        String stage = text(body, "stage");
        if (status == null) {
            status = stage != null && CLOSED.contains(stage) ? stage : "open";
        }
        if (stage == null) {
            stage = CLOSED.contains(status) ? status : "discovery";
        }
        requireConsistent(status, stage);
        return new State(status, stage);
    }

    /** The state after a PATCH, or the problem that refuses it. */
    static State forUpdate(State current, JsonNode patch) {
        String status = text(patch, "status");
        String stage = text(patch, "stage");
        if (status == null && stage == null) {
            return current;
        }
        if (status != null && stage != null) {
            requireConsistent(status, stage);
        } else if (status == null) {
            if (CLOSED.contains(stage)) {
                status = stage;
            } else if (current.closed()) {
                throw invalidTransition("The deal is " + current.status() + "; reopen it explicitly with status "
                        + "open and an open stage in the same request.");
            } else {
                status = current.status();
            }
        } else {
            if (CLOSED.contains(status)) {
                stage = status;
            } else if (current.closed()) {
                throw invalidTransition("Reopening a " + current.status() + " deal needs status open together "
                        + "with an open stage (discovery, qualified, proposal or negotiation).");
            } else {
                stage = current.stage();
            }
        }
        requireAllowedMove(current.status(), status);
        return new State(status, stage);
    }

    private static void requireAllowedMove(String from, String to) {
        if (!CLOSED.contains(from) || from.equals(to) || to.equals("open")) {
            return;
        }
        throw invalidTransition(CLOSED.contains(to)
                ? "A " + from + " deal cannot become " + to + " directly; reopen it (status open) first."
                : "A " + from + " deal can only be reopened to status open, not " + to + ".");
    }

    private static void requireConsistent(String status, String stage) {
        boolean consistent = CLOSED.contains(status) ? stage.equals(status) : !CLOSED.contains(stage);
        if (!consistent) {
            throw ApiProblem.invalidField("/stage", "consistency", "stage " + stage + " does not go with status "
                    + status + ": a closed stage needs the same status, and open or on_hold need an open stage");
        }
    }

    private static ApiProblem invalidTransition(String detail) {
        return ApiProblem.conflict("invalid_transition", detail);
    }

    private static String text(JsonNode body, String field) {
        JsonNode value = body.get(field);
        return value == null || value.isNull() ? null : value.asText();
    }
}
