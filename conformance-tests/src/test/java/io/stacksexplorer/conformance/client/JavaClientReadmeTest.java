package io.stacksexplorer.conformance.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.server.EmbeddedServer;
import io.stacksexplorer.client.ApiClient;
import io.stacksexplorer.conformance.provider.states.DemoChainSeed;
import io.stacksexplorer.http.TestDatabase;
import io.stacksexplorer.write.ChainWriter;
import io.stacksexplorer.write.NewBlock;
import org.junit.jupiter.api.Test;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * README's "Java client" section is what a user copies, so it is run as written: its Maven
 * coordinates must be this build's, and its program is compiled and run in a JVM of its own whose
 * class path is the client plus exactly what the client's installed POM brings (api-client writes
 * that list at build time), against the real server on the demo chain. What it prints must be the
 * server's data: the tip, the whole address history in order, and the 400's problem details.
 */
class JavaClientReadmeTest {

    private static final Path WORK = Path.of("target", "readme-client");
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Enough blocks that the address below has more than one page of 50. */
    private static final long BLOCKS = 60;

    @Test
    void readmeProgramRunsAgainstTheServer() throws Exception {
        String section = readmeSection();
        assertCoordinates(block(section, "xml"));
        String program = block(section, "java");
        Path classes = compile(program);

        Map<String, Object> props = new HashMap<>(TestDatabase.H2.freshProperties());
        props.put("micronaut.server.host", "127.0.0.1");
        try (EmbeddedServer server = ApplicationContext.run(EmbeddedServer.class, props)) {
            DemoChainSeed seed = new DemoChainSeed(server.getApplicationContext().getBean(ChainWriter.class));
            NewBlock tip = seed.ensureBlocks(BLOCKS);
            String base = "http://127.0.0.1:" + server.getPort();
            String address = DemoChainSeed.chain().summary().hotAddresses().get(0);
            List<String> history = historyByOffset(base, address);
            assertTrue(history.size() > 50, "the address needs more than one page, has " + history.size());

            List<String> lines = run(classes, mainClass(program), base, address);

            assertEquals("tip " + tip.height(), lines.get(0));
            assertEquals(history, lines.subList(1, lines.size() - 1), "the cursor walk, newest first");
            String error = lines.get(lines.size() - 1);
            assertTrue(error.startsWith("400 address: ") && error.length() > "400 address: ".length(), error);
        }
    }

    /** From "## Java client" to the next second-level heading. */
    private static String readmeSection() throws Exception {
        String readme = Files.readString(Path.of(System.getProperty("readme.file")));
        int start = readme.indexOf("\n## Java client\n");
        assertTrue(start >= 0, "README has no '## Java client' section");
        int end = readme.indexOf("\n## ", start + 1);
        return readme.substring(start, end < 0 ? readme.length() : end);
    }

    /** The section's only fenced block of this language, exactly as written. */
    private static String block(String section, String language) {
        Matcher m = Pattern.compile("\n```" + language + "\n(.*?)\n```\n", Pattern.DOTALL).matcher(section);
        assertTrue(m.find(), "no ```" + language + " block in README's Java client section");
        String body = m.group(1) + "\n";
        assertTrue(!m.find(), "more than one ```" + language + " block in README's Java client section");
        return body;
    }

    private static void assertCoordinates(String xml) {
        assertEquals("""
                <dependency>
                  <groupId>io.stacksexplorer</groupId>
                  <artifactId>api-client</artifactId>
                  <version>%s</version>
                </dependency>
                """.formatted(System.getProperty("project.version")), xml);
    }

    private static String mainClass(String program) {
        Matcher m = Pattern.compile("public class (\\w+)").matcher(program);
        assertTrue(m.find(), "no public class in the README program");
        return m.group(1);
    }

    /** The class path an application gets: the client and what its installed POM brings in. */
    private static String clientClassPath() throws Exception {
        String client = Path.of(ApiClient.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        String dependencies = Files.readString(Path.of(System.getProperty("client.runtime.classpath.file"))).trim();
        return client + File.pathSeparator + dependencies;
    }

    private static Path compile(String program) throws Exception {
        Path sources = Files.createDirectories(WORK.resolve("src"));
        Path classes = Files.createDirectories(WORK.resolve("classes"));
        Path source = sources.resolve(mainClass(program) + ".java");
        Files.writeString(source, program);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream errors = new ByteArrayOutputStream();
        int status = javac.run(null, null, errors, "-proc:none", "-Xlint:all", "-Werror",
                "-cp", clientClassPath(), "-d", classes.toString(), source.toString());
        assertEquals(0, status, "README's program does not compile:\n" + errors.toString(StandardCharsets.UTF_8));
        return classes;
    }

    private static List<String> run(Path classes, String mainClass, String... args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(java, "-cp",
                classes.toAbsolutePath() + File.pathSeparator + clientClassPath(), mainClass));
        command.addAll(List.of(args));
        Path out = WORK.resolve("out.txt");
        Path err = WORK.resolve("err.txt");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail("README's program did not finish within 120 s");
        }
        String stderr = Files.readString(err);
        assertEquals(0, process.exitValue(), "README's program failed:\n" + stderr);
        return Files.readAllLines(out);
    }

    /** The same history read without the client, by offset, as "height tx_id" lines. */
    private static List<String> historyByOffset(String base, String address) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        List<String> lines = new ArrayList<>();
        long total;
        do {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "/extended/v2/addresses/"
                    + address + "/transactions?limit=50&offset=" + lines.size())).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            JsonNode page = JSON.readTree(response.body());
            total = page.get("total").asLong();
            for (JsonNode record : page.get("results")) {
                lines.add(record.at("/tx/block_height").asLong() + " " + record.at("/tx/tx_id").asText());
            }
            if (page.get("results").isEmpty()) {
                break;
            }
        } while (lines.size() < total);
        assertEquals(total, lines.size(), "total against the records served");
        return lines;
    }
}
