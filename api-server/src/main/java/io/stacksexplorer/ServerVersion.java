package io.stacksexplorer;

import io.micronaut.context.env.yaml.YamlPropertySourceLoader;
import picocli.CommandLine.IVersionProvider;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * {@code --version}: the server version the status reports ({@code server_version}), read from
 * application.yml's {@code api.server-version}, which the build fills in, without starting anything.
 */
public final class ServerVersion implements IVersionProvider {

    static final String PROPERTY = "api.server-version";

    @Override
    public String[] getVersion() throws IOException {
        try (InputStream yml = Objects.requireNonNull(ServerVersion.class.getResourceAsStream("/application.yml"),
                "application.yml on the class path")) {
            Object version = new YamlPropertySourceLoader().read("application", yml).get(PROPERTY);
            return new String[]{String.valueOf(version)};
        }
    }
}
