package dev.lnp.logging;

import java.io.Console;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Whether the process's standard error, where the log goes, is a terminal. */
final class Terminal {

    private static final Path STANDARD_ERROR = Path.of("/proc/self/fd/2");

    private Terminal() {
    }

    /**
     * On Linux, where standard error leads ({@code /proc/self/fd/2}): a pseudo-terminal or a console device is a
     * terminal, a file, pipe or socket (journald, {@code 2>file}, a test's redirect) is not. Elsewhere whether
     * there is a {@link System#console()}, which asks about standard input and output instead (the runtime image
     * has no {@code jdk.internal.le}, so there is none when they are not a terminal).
     */
    static boolean standardError() {
        if (Files.isSymbolicLink(STANDARD_ERROR)) {
            try {
                return isTerminalDevice(Files.readSymbolicLink(STANDARD_ERROR).toString());
            } catch (IOException | UnsupportedOperationException e) {
                // fall back to the console below
            }
        }
        Console console = System.console();
        return console != null;
    }

    static boolean isTerminalDevice(String target) {
        return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
    }
}
