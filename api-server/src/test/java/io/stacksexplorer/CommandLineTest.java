package io.stacksexplorer;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The command line: an unknown command or option prints the usage and exits 2 without starting
 * anything (no server, no demo database in the working directory); --help lists every command;
 * --version prints the server version.
 */
class CommandLineTest {

    record Run(int code, String out, String err) {
    }

    private static synchronized Run run(String... args) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
            int code = Application.run(args);
            return new Run(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    @Test
    void unknownCommandsAndOptionsPrintUsageAndFail() {
        for (String[] args : new String[][]{{"replya"}, {"--verbose"}, {"-x"},
                {"generate", "--transactions", "5", "--out", "x", "never-written.tsv"},
                {"serve", "-micronaut.server.port=1"}}) {
            Run r = run(args);
            assertEquals(2, r.code(), String.join(" ", args) + "\n" + r.err());
            assertTrue(r.err().contains("Unknown") && r.err().contains("Usage: api-server"), r.err());
        }
        assertFalse(Files.exists(Path.of("data")), "nothing started, no demo database written");
    }

    @Test
    void helpListsEveryCommandWithOneLine() {
        Run r = run("--help");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("Usage: api-server"), r.out());
        for (String command : new String[]{"help", "replay", "rebuild", "generate"}) {
            assertTrue(r.out().lines().anyMatch(l -> l.matches("\\s+" + command + "\\s+\\S.*")),
                    command + " listed with its description:\n" + r.out());
        }
    }

    @Test
    void versionPrintsTheServerVersionOfTheStatus() {
        for (String[] args : new String[][]{{"--version"}, {"-V"}, {"replay", "--version"}, {"generate", "--version"}}) {
            Run r = run(args);
            assertEquals(0, r.code(), String.join(" ", args) + "\n" + r.err());
            assertTrue(r.out().strip().matches("stacks-explorer-api v\\d+\\.\\d+\\.\\d+\\S*"),
                    String.join(" ", args) + " printed '" + r.out() + "'");
        }
        assertFalse(Files.exists(Path.of("data")), "nothing started");
    }

    @Test
    void subcommandErrorsToo() {
        Run r = run("replay");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("Missing required parameter"), r.err());
        Run unknown = run("rebuild", "--force");
        assertEquals(2, unknown.code());
        assertTrue(unknown.err().contains("Unknown option"), unknown.err());
    }

    @Test
    void onlyMicronautPropertyArgumentsPassThrough() {
        assertTrue(Application.PROPERTY_ARGUMENT.matcher("-micronaut.server.port=8080").matches());
        assertTrue(Application.PROPERTY_ARGUMENT.matcher("--datasources.default.maximum-pool-size=4").matches());
        assertFalse(Application.PROPERTY_ARGUMENT.matcher("--port=8080").matches());
        assertFalse(Application.PROPERTY_ARGUMENT.matcher("replay").matches());
        assertFalse(Application.PROPERTY_ARGUMENT.matcher("-micronaut.server.port").matches());
    }
}
