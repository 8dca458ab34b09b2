package dev.lnp.cli;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Operator commands print tables and one-line answers; the INFO lines of the libraries they load (PF4J finding
 * plugins, Hikari starting a pool) would come before them. Warnings and errors still show.
 */
final class QuietLogging {

    private QuietLogging() {
    }

    static void install() {
        Logger.getLogger("").setLevel(Level.WARNING);
    }
}
