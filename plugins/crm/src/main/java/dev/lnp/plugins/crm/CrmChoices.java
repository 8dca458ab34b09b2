package dev.lnp.plugins.crm;

import dev.lnp.api.pages.FormView;
import dev.lnp.api.pages.FormView.Choice;
import dev.lnp.api.pages.PageCall;
import java.util.ArrayList;
import java.util.List;

/**
 * The records a CRM form chooses from instead of ids to type: the workspace's companies (a contact's and a deal's),
 * its contacts (a deal's) and its members (whom a deal is assigned to). Read in the request's transaction, so
 * row-level security keeps them to the workspace; what is posted is still checked by the services as the API checks
 * it. A long list gets the form's search box, which narrows it while typing.
 */
final class CrmChoices {

    /** Records a choice lists, by name; a workspace with more reaches the others through the API. */
    static final int MAX_CHOICES = 1000;

    private CrmChoices() {
    }

    static List<Choice> companies(PageCall call) {
        List<Choice> choices = new ArrayList<>(List.of(new Choice("", "No company")));
        choices.addAll(call.tx().handle().createQuery("""
                        SELECT id, name, domain FROM crm.companies
                         WHERE workspace_id = :workspace_id
                         ORDER BY lower(name), id
                         LIMIT :limit
                        """)
                .bind("workspace_id", call.workspaceId()).bind("limit", MAX_CHOICES)
                .map((rs, ctx) -> new Choice(rs.getString("id"), rs.getString("domain") == null ? rs.getString("name")
                        : rs.getString("name") + " (" + rs.getString("domain") + ")"))
                .list());
        return choices;
    }

    static List<Choice> contacts(PageCall call) {
        List<Choice> choices = new ArrayList<>(List.of(new Choice("", "No contact")));
        choices.addAll(call.tx().handle().createQuery("""
                        SELECT id, email, concat_ws(' ', first_name, last_name) AS name FROM crm.contacts
                         WHERE workspace_id = :workspace_id
                         ORDER BY lower(concat_ws(' ', last_name, first_name, email)), id
                         LIMIT :limit
                        """)
                .bind("workspace_id", call.workspaceId()).bind("limit", MAX_CHOICES)
                .map((rs, ctx) -> new Choice(rs.getString("id"), rs.getString("name").isBlank() ? rs.getString("email")
                        : rs.getString("name") + " (" + rs.getString("email") + ")"))
                .list());
        return choices;
    }

    /** A company of the workspace by its name; its id when it is none (any more). */
    static String companyName(PageCall call, String id) {
        java.util.UUID company;
        try {
            company = java.util.UUID.fromString(id);
        } catch (IllegalArgumentException notAnId) {
            return id;
        }
        return call.tx().handle().createQuery("""
                        SELECT name FROM crm.companies WHERE workspace_id = :workspace_id AND id = :id
                        """)
                .bind("workspace_id", call.workspaceId()).bind("id", company)
                .mapTo(String.class).findOne().orElse(id);
    }

    /** A contact's form with its company as a choice. */
    static FormView contactForm(PageCall call, FormView form) {
        return form.withChoices("company_id", companies(call));
    }

    /** A deal's form with its contact, company and the member it is assigned to as choices. */
    static FormView dealForm(PageCall call, FormView form) {
        List<Choice> members = new ArrayList<>(List.of(new Choice("", "Nobody")));
        members.addAll(call.members().choices(call.userId()));
        return form.withChoices("contact_id", contacts(call)).withChoices("company_id", companies(call))
                .withChoices("assigned_to", members);
    }
}
