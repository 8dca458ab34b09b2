package dev.lnp.plugins.issues;

import com.fasterxml.jackson.databind.JsonNode;
import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.PageCall;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** People on the task and ticket pages: names for the user ids an item keeps, and members as an assignee's choices. */
final class PeopleOnPages {

    private PeopleOnPages() {
    }

    /** "You", a member's name, {@code nobody} for no id, "Former member" for someone no longer of the workspace. */
    static String name(PageCall call, JsonNode userId, String nobody) {
        if (userId == null || userId.isNull() || userId.asText().isEmpty()) return nobody;
        try {
            return call.members().nameOf(UUID.fromString(userId.asText()), call.userId(), nobody);
        } catch (IllegalArgumentException notAnId) {
            return userId.asText();
        }
    }

    /** An assignee's choices: nobody, then the signed-in person ("Me"), then the other members by name. */
    static List<FormView.Choice> assignees(PageCall call) {
        List<FormView.Choice> choices = new ArrayList<>();
        choices.add(new FormView.Choice("", "Nobody"));
        choices.addAll(call.members().choices(call.userId()));
        return choices;
    }
}
