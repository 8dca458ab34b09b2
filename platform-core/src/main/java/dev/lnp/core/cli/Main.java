package dev.lnp.core.cli;

import dev.lnp.core.Version;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;

/** {@code bin/platform}: the server and the operator commands. */
@Command(name = "platform", mixinStandardHelpOptions = true, versionProvider = Main.BuildVersion.class,
        description = "The LNP workspace platform.",
        subcommands = {ServeCommand.class, RoutesCommand.class, ScopesCommand.class, WorkspaceCommand.class,
                KeyCommand.class, MigrateCommand.class, DoctorCommand.class, BackupCommands.Backup.class,
                BackupCommands.Restore.class, MailCommand.class, HelpCommand.class})
public final class Main {

    /** The version the build wrote into the platform's version file (the Maven project version). */
    static final class BuildVersion implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"lnp platform " + Version.current()};
        }
    }

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
