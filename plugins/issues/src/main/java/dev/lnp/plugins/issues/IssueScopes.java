package dev.lnp.plugins.issues;

/** The scopes the issues plugin declares; routes and tools name them only through these constants. */
final class IssueScopes {

    static final String READ = "issues.read";
    static final String WRITE = "issues.write";

    private IssueScopes() {
    }
}
