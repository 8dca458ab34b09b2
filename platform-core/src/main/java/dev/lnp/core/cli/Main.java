package dev.lnp.core.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.HelpCommand;
import picocli.CommandLine.IVersionProvider;

/** {@code bin/platform}: the server and the operator commands. */
@Command(name = "platform", mixinStandardHelpOptions = true, versionProvider = Main.BuildVersion.class,
        description = "The LNP workspace platform.",
        subcommands = {ServeCommand.class, RoutesCommand.class, ScopesCommand.class, WorkspaceCommand.class,
                KeyCommand.class, HelpCommand.class})
public final class Main {

    /** The version the build wrote into {@code version.properties} (the Maven project version). */
    static final class BuildVersion implements IVersionProvider {
        @Override
        public String[] getVersion() throws IOException {
            return new String[] {"lnp platform " + version()};
        }

        static String version() throws IOException {
            Properties properties = new Properties();
            try (InputStream in = Main.class.getResourceAsStream("version.properties")) {
                if (in == null) {
                    throw new IOException("version.properties is missing from the platform-core jar");
                }
                properties.load(in);
            }
            return properties.getProperty("version");
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
