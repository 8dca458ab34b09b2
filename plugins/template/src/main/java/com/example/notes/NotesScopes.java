package com.example.notes;

/** The scopes this plugin declares and the monthly quota its writes take; nothing else names them as text. */
final class NotesScopes {

    static final String READ = "notes.read";
    static final String WRITE = "notes.write";

    /** Every write (route or tool) takes one unit; deployments change the default with lnp.quotas.notes.monthly. */
    static final String QUOTA = "notes";
    static final long QUOTA_DEFAULT_MONTHLY = 1_000;

    private NotesScopes() {
    }
}
