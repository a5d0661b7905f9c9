package io.stacksexplorer.ops;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * The server's logging, set up in code (found by logback through {@code META-INF/services}): one line
 * per event on standard output, INFO and above, Hikari and Flyway only from WARN. This was a
 * {@code logback.xml}; reading it loaded logback's XML configuration machinery and the JDK's XML
 * parser, about 600 classes and 0.3-0.4 s of every start on this 2-core machine (issue 50's demo
 * start). An operator's own file still wins: with {@code -Dlogback.configurationFile=FILE} this steps
 * aside and logback reads that file as usual.
 */
public class LogSetup extends ContextAwareBase implements Configurator {

    static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{36} - %msg%n";

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("STDOUT");
        console.setEncoder(encoder);
        console.start();
        Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(console);
        context.getLogger("com.zaxxer.hikari").setLevel(Level.WARN);
        context.getLogger("org.flywaydb").setLevel(Level.WARN);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
