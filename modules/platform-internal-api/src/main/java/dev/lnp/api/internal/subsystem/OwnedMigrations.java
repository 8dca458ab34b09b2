package dev.lnp.api.internal.subsystem;

import java.util.List;

/**
 * The Flyway migrations of the tables a subsystem owns ({@link Subsystem#migrations()}): scripts under
 * {@code db/migration/<owner>} in the subsystem's module, applied after the core's and before the plugins', with a
 * history of their own in {@code historySchema}. The scripts say in which schema their objects live; a subsystem's
 * tables created while they were still the kernel's stay in {@code lnp_core}, where every version finds them.
 *
 * <p>{@code takenFromCore}: the versions of the core's history that created those tables before the subsystem had a
 * module of its own. The subsystem carries scripts of the same versions with the same effect; on a database whose
 * core history applied some of them, the subsystem's history starts as a baseline at the highest of those, and the
 * core's history keeps them without this version carrying them.
 *
 * @param owner         {@code lnp-<name>}: not a legal package name, so the scripts stay readable from inside the
 *                      subsystem's named module, and never a plugin's id
 * @param historySchema {@code lnp_<name>}, the schema of the history table
 */
public record OwnedMigrations(String owner, String historySchema, List<String> takenFromCore) {

    public OwnedMigrations {
        if (owner == null || !owner.matches("lnp-[a-z][a-z0-9-]*") || owner.equals("lnp-core")) {
            throw new IllegalArgumentException("a subsystem's migrations owner is lnp-<name>, not the core's: " + owner);
        }
        if (historySchema == null || !historySchema.matches("lnp_[a-z][a-z0-9_]*") || historySchema.equals("lnp_core")) {
            throw new IllegalArgumentException("a subsystem's history schema is lnp_<name>, not the core's: "
                    + historySchema);
        }
        takenFromCore = List.copyOf(takenFromCore);
        for (String version : takenFromCore) {
            if (!version.matches("[0-9]+(\\.[0-9]+)*")) {
                throw new IllegalArgumentException("a version of the core's history looks like 6 or 13.20, not "
                        + version);
            }
        }
    }
}
