package io.micronaut.openapi.generator;

/** Public entry point so openapi-generator-maven-plugin can instantiate Micronaut's package-private server generator. */
public class StacksServerCodegen extends JavaMicronautServerCodegen { }
