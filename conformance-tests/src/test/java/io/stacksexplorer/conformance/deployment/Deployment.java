package io.stacksexplorer.conformance.deployment;

import java.net.MalformedURLException;
import java.net.URL;

/** The deployment under check: system property {@code explorer.verify.url}, e.g. http://host:3999. */
final class Deployment {

    static final String URL_PROPERTY = "explorer.verify.url";

    private Deployment() {
    }

    static boolean configured() {
        return !System.getProperty(URL_PROPERTY, "").isBlank();
    }

    static String baseUrl() {
        String url = System.getProperty(URL_PROPERTY, "").trim();
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }

    static URL url() {
        try {
            return new URL(baseUrl());
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(URL_PROPERTY + " is not a URL: " + baseUrl(), e);
        }
    }
}
