package io.stacksexplorer.subscribe;

/**
 * What a subscription watches: an event name with, for {@code tx_update} and
 * {@code address_tx_update}, the transaction id or address (normalised); null key otherwise.
 */
record Topic(String method, String key) {
}
