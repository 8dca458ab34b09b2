package dev.lnp.core.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code bin/platform}: the server and the operator commands. */
@Command(name = "platform", mixinStandardHelpOptions = true, version = "lnp platform 0.1.0",
        description = "The LNP workspace platform.",
        subcommands = {ServeCommand.class, RoutesCommand.class, ScopesCommand.class, WorkspaceCommand.class,
                KeyCommand.class, MailCommand.class})
public final class Main {

    public static void main(String[] args) {
        System.exit(run(args));
    }

    public static int run(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            commandLine.getErr().println("error: " + message.lines().findFirst().orElse(message));
            return 1;
        });
        cli.setParameterExceptionHandler((e, arguments) -> {
            e.getCommandLine().getErr().println("error: " + e.getMessage().lines().findFirst().orElse("")
                    + " (see --help)");
            return 2;
        });
        return cli.execute(args);
    }
}
