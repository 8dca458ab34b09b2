package dev.lnp.web.console;

import dev.lnp.api.internal.console.ConsoleAuthorization.Permission;
import dev.lnp.api.internal.console.ConsoleAuthorization;
import dev.lnp.api.internal.console.ConsoleSession;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;

/**
 * A workspace's members and the rules for changing them, for the console pages and the management routes
 * alike: owners and admins invite, change roles and remove; nobody acts on the owner but through a transfer;
 * only the owner transfers ownership, and a workspace always keeps exactly one owner (a unique index backs it).
 * Every change is recorded in the activity list in the same transaction.
 */
public final class Members {

    /**
     * @param invitation the newest invitation mail to this member, while they have not signed in yet (null once
     *        they have, or when none is recorded: an owner made by the CLI, or mail older than the history kept)
     */
    public record Member(UUID id, String email, String role, Instant createdAt, boolean signedInOnce,
            InvitationMail invitation) {
        Member(UUID id, String email, String role, Instant createdAt, boolean signedInOnce) {
            this(id, email, role, createdAt, signedInOnce, null);
        }
    }

    /**
     * Where an invitation mail is: {@code local} (kept in the local mailbox), {@code pending} (queued, or being
     * retried after {@code lastError}), {@code sent} (the SMTP server accepted it) or {@code failed} (given up).
     */
    public record InvitationMail(String state, int attempts, String lastError) {
        /** The state in words, for the members page. */
        public String describe() {
            return switch (state) {
                case "local" -> "invitation in the local mailbox";
                case "sent" -> "invitation sent";
                case "failed" -> "invitation could not be delivered" + (lastError == null ? "" : ": " + lastError);
                default -> lastError == null ? "invitation queued"
                        : "invitation not delivered yet, retrying (" + lastError + ")";
            };
        }

        public boolean failed() {
            return "failed".equals(state) || lastError != null;
        }
    }

    /**
     * Writes the invitation's link and mail through the member's transaction, so a member exists only with
     * their invitation queued; it throws {@link Refused} when the mail cannot be queued (the change rolls back).
     */
    @FunctionalInterface
    public interface InvitationWriter {
        void write(Handle handle, Member member);
    }

    /** A refused change; the message says why, for a person. */
    public static final class Refused extends RuntimeException {
        private final int status;

        Refused(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    private static final List<String> ASSIGNABLE = List.of("admin", "member");

    private final Jdbi jdbi;
    private final ConsoleActivity activity;

    public Members(Jdbi jdbi, ConsoleActivity activity) {
        this.jdbi = jdbi;
        this.activity = activity;
    }

    public List<Member> list(UUID workspaceId) {
        return jdbi.withHandle(h -> h.createQuery("""
                        SELECT u.id, u.email, u.role, u.created_at, signed.signed_in,
                               mail.state AS mail_state, mail.attempts AS mail_attempts, mail.last_error AS mail_error
                          FROM lnp_core.users u
                         CROSS JOIN LATERAL (SELECT EXISTS (SELECT 1 FROM lnp_core.console_sessions s
                                                             WHERE s.user_id = u.id) AS signed_in) signed
                          LEFT JOIN LATERAL (SELECT m.state, m.attempts, m.last_error FROM lnp_core.mail_messages m
                                              WHERE NOT signed.signed_in AND lower(m.recipient) = lower(u.email)
                                                AND m.workspace_id = u.workspace_id AND m.kind = 'invitation'
                                              ORDER BY m.seq DESC LIMIT 1) mail ON true
                         WHERE u.workspace_id = :ws
                         ORDER BY CASE u.role WHEN 'owner' THEN 0 WHEN 'admin' THEN 1 ELSE 2 END, lower(u.email)
                        """)
                .bind("ws", workspaceId)
                .map((rs, ctx) -> new Member(rs.getObject("id", UUID.class), rs.getString("email"),
                        rs.getString("role"), rs.getTimestamp("created_at").toInstant(), rs.getBoolean("signed_in"),
                        rs.getString("mail_state") == null ? null : new InvitationMail(rs.getString("mail_state"),
                                rs.getInt("mail_attempts"), rs.getString("mail_error"))))
                .list());
    }

    /**
     * Adds the person as a user of the actor's workspace and queues their invitation through {@code invitation}, in
     * one transaction: when the mail cannot be queued, nobody is added and nothing is recorded.
     */
    public Member invite(ConsoleSession actor, String email, String role, InvitationWriter invitation) {
        ConsoleAuthorization.require(actor, Permission.MANAGE_MEMBERS);
        String address = email == null ? "" : email.strip();
        if (address.isEmpty() || address.length() > 254 || !address.matches("[^@\\s]+@[^@\\s]+\\.[^@\\s]+")) {
            throw new Refused(400, "E-mail: enter the address of the person to invite, for example ada@example.com.");
        }
        requireAssignable(role);
        return jdbi.inTransaction(h -> {
            boolean exists = h.createQuery("""
                            SELECT count(*) > 0 FROM lnp_core.users WHERE workspace_id = :ws AND lower(email) = lower(:e)
                            """).bind("ws", actor.workspaceId()).bind("e", address).mapTo(Boolean.class).one();
            if (exists) {
                throw new Refused(409, address + " is already a member of this workspace.");
            }
            Member member = h.createQuery("""
                            INSERT INTO lnp_core.users (workspace_id, email, role) VALUES (:ws, :e, :role)
                            RETURNING id, email, role, created_at
                            """)
                    .bind("ws", actor.workspaceId()).bind("e", address).bind("role", role)
                    .map((rs, ctx) -> new Member(rs.getObject("id", UUID.class), rs.getString("email"),
                            rs.getString("role"), rs.getTimestamp("created_at").toInstant(), false))
                    .one();
            invitation.write(h, member);
            activity.record(h, actor, "member.invited", address, "as " + role);
            return member;
        });
    }

    /**
     * A new invitation for a member who has not signed in yet (the last one was lost, failed or expired): their
     * earlier invitation links stop working and a new one is queued, in one transaction.
     */
    public Member resendInvitation(ConsoleSession actor, UUID userId, InvitationWriter invitation) {
        ConsoleAuthorization.require(actor, Permission.MANAGE_MEMBERS);
        return jdbi.inTransaction(h -> {
            Member target = target(h, actor, userId);
            boolean signedIn = h.createQuery("SELECT EXISTS (SELECT 1 FROM lnp_core.console_sessions WHERE user_id = :id)")
                    .bind("id", userId).mapTo(Boolean.class).one();
            if (signedIn) {
                throw new Refused(409, target.email() + " has signed in already; they ask for a sign-in link on the "
                        + "sign-in page.");
            }
            h.createUpdate("""
                            UPDATE lnp_core.sign_in_links SET expires_at = now()
                             WHERE purpose = 'invitation' AND workspace_id = :ws AND lower(email) = lower(:e)
                               AND used_at IS NULL AND expires_at > now()
                            """)
                    .bind("ws", actor.workspaceId()).bind("e", target.email()).execute();
            invitation.write(h, target);
            activity.record(h, actor, "member.invitation_resent", target.email(), "as " + target.role());
            return target;
        });
    }

    public void changeRole(ConsoleSession actor, UUID userId, String role) {
        ConsoleAuthorization.require(actor, Permission.MANAGE_MEMBERS);
        requireAssignable(role);
        jdbi.useTransaction(h -> {
            Member target = target(h, actor, userId);
            if (target.role().equals("owner")) {
                throw new Refused(409, "The owner's role changes only by transferring ownership.");
            }
            h.createUpdate("UPDATE lnp_core.users SET role = :role WHERE id = :id").bind("role", role)
                    .bind("id", userId).execute();
            // Their open sessions end: the next sign-in starts a session with a new id for the new privileges.
            endSessions(h, userId);
            activity.record(h, actor, "member.role_changed", target.email(), target.role() + " → " + role);
        });
    }

    public void remove(ConsoleSession actor, UUID userId) {
        ConsoleAuthorization.require(actor, Permission.MANAGE_MEMBERS);
        jdbi.useTransaction(h -> {
            Member target = target(h, actor, userId);
            if (target.role().equals("owner")) {
                throw new Refused(409, "The owner cannot be removed; transfer ownership first.");
            }
            List<String> delegating = h.createQuery("""
                            SELECT name FROM lnp_core.connections WHERE delegated_user_id = :id ORDER BY name
                            """).bind("id", userId).mapTo(String.class).list();
            if (!delegating.isEmpty()) {
                throw new Refused(409, target.email() + " is the delegated user of the connection(s) "
                        + String.join(", ", delegating) + "; revoke them first.");
            }
            h.createUpdate("DELETE FROM lnp_core.users WHERE id = :id").bind("id", userId).execute();
            activity.record(h, actor, "member.removed", target.email(), "was " + target.role());
        });
    }

    /**
     * Makes {@code userId} the owner and the current owner an admin, in one transaction. The caller renews the
     * actor's session id (their privileges changed); the new owner's sessions end.
     */
    public void transferOwnership(ConsoleSession actor, UUID userId) {
        ConsoleAuthorization.require(actor, Permission.TRANSFER_OWNERSHIP);
        jdbi.useTransaction(h -> {
            h.createQuery("SELECT id FROM lnp_core.workspaces WHERE id = :ws FOR UPDATE")
                    .bind("ws", actor.workspaceId()).mapTo(UUID.class).one();
            Member target = target(h, actor, userId);
            if (target.id().equals(actor.userId())) {
                throw new Refused(409, "You already own this workspace.");
            }
            h.createUpdate("UPDATE lnp_core.users SET role = 'admin' WHERE id = :id").bind("id", actor.userId()).execute();
            h.createUpdate("UPDATE lnp_core.users SET role = 'owner' WHERE id = :id").bind("id", userId).execute();
            h.createUpdate("UPDATE lnp_core.workspaces SET owner_email = :e WHERE id = :ws")
                    .bind("e", target.email()).bind("ws", actor.workspaceId()).execute();
            endSessions(h, userId);
            activity.record(h, actor, "ownership.transferred", target.email(), actor.email() + " is now an admin");
        });
    }

    private static Member target(Handle h, ConsoleSession actor, UUID userId) {
        Optional<Member> found = userId == null ? Optional.empty() : h.createQuery("""
                        SELECT id, email, role, created_at FROM lnp_core.users
                         WHERE id = :id AND workspace_id = :ws FOR UPDATE
                        """)
                .bind("id", userId).bind("ws", actor.workspaceId())
                .map((rs, ctx) -> new Member(rs.getObject("id", UUID.class), rs.getString("email"),
                        rs.getString("role"), rs.getTimestamp("created_at").toInstant(), false))
                .findOne();
        return found.orElseThrow(() -> new Refused(404, "This workspace has no member with that id."));
    }

    private static void requireAssignable(String role) {
        if (role == null || !ASSIGNABLE.contains(role.toLowerCase(Locale.ROOT)) || !role.equals(role.toLowerCase(Locale.ROOT))) {
            throw new Refused(400, "Role: choose admin or member (ownership moves only by transfer).");
        }
    }

    private static void endSessions(Handle h, UUID userId) {
        h.createUpdate("UPDATE lnp_core.console_sessions SET revoked_at = now() WHERE user_id = :id AND revoked_at IS NULL")
                .bind("id", userId).execute();
    }
}
