package dev.lnp.api.pages;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The people of the request's workspace, read-only, for pages: who an assignee, an author or the person who took a
 * conversation is, in words, and the members a form offers as choices. Only the signed-in person's workspace is
 * ever read; another workspace's user id is not found here. The platform owns people and memberships; a plugin
 * keeps user ids and asks here for their names.
 */
public interface Members {

    /** At most this many members are listed; a workspace with more is worked through the console's member list. */
    int MAX_LISTED = 500;

    /**
     * One member of the workspace.
     *
     * @param name what the person is called: their display name, else their e-mail address
     * @param role {@code owner}, {@code admin} or {@code member}
     */
    record Member(UUID id, String name, String email, String role) {
        public Member {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(email, "email");
            if (name == null || name.isBlank()) name = email;
        }

        /** The name, and the address when the name is not the address: how a choice tells two people apart. */
        public String label() {
            return name.equals(email) ? email : name + " (" + email + ")";
        }
    }

    /** The workspace's members by name (case ignored), at most {@link #MAX_LISTED}. */
    List<Member> list();

    /** The member with this user id, if they are one of this workspace. */
    Optional<Member> find(UUID userId);

    /**
     * How a page names a person by user id: "You" for {@code me}, a member's name, {@code nobody} for no id, and
     * "Former member" for an id that is no member of the workspace (any more).
     */
    default String nameOf(UUID userId, UUID me, String nobody) {
        if (userId == null) return nobody;
        if (userId.equals(me)) return "You";
        return find(userId).map(Member::name).orElse("Former member");
    }

    /**
     * The members as the choices of an assignee field: the signed-in person first ("Me", with their name), then the
     * others by name.
     */
    default List<FormView.Choice> choices(UUID me) {
        List<FormView.Choice> choices = new ArrayList<>();
        List<Member> all = list();
        all.stream().filter(m -> m.id().equals(me)).findFirst()
                .ifPresent(m -> choices.add(new FormView.Choice(m.id().toString(), "Me (" + m.name() + ")")));
        all.stream().filter(m -> !m.id().equals(me))
                .forEach(m -> choices.add(new FormView.Choice(m.id().toString(), m.label())));
        return choices;
    }
}
