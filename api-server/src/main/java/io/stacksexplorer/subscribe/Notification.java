package io.stacksexplorer.subscribe;

/**
 * One notification, rendered once per server and shared by every connection it goes to.
 *
 * @param topic      what a subscription must watch to receive it
 * @param paramsJson the payload, serialized
 * @param recordedAt when the writer logged the change (epoch ms)
 */
record Notification(Position position, Topic topic, String paramsJson, long recordedAt) {

    String method() {
        return topic.method();
    }
}
