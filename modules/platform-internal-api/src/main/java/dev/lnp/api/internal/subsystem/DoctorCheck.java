package dev.lnp.api.internal.subsystem;

import dev.lnp.api.internal.platform.ConfigValues;
import dev.lnp.api.mail.OutgoingMail;
import java.util.Optional;
import java.util.function.Function;
import org.jdbi.v3.core.Jdbi;

/** A check {@code platform doctor} runs for a subsystem (the mail path), in the doctor's own process. */
public interface DoctorCheck {

    /**
     * What the check may use.
     *
     * @param mailTo the address given with {@code --mail-to}, if any
     * @param database the deployment's database, empty when it is not reachable
     * @param sampleMail a message to the given address as the platform really sends one (the console's sign-in
     *     mail, rendered from its templates); it may fail when a template cannot be rendered
     */
    record Context(ConfigValues config, Optional<String> mailTo, Optional<Jdbi> database,
            Function<String, OutgoingMail> sampleMail) {
    }

    /** The doctor's lines: {@code ok}, {@code WARN} and {@code FAIL} with what to fix. */
    interface Report {
        void ok(String check, String text);

        void warn(String check, String text);

        void fail(String check, String text, String fix);
    }

    void run(Context context, Report report);
}
