package io.stacksexplorer.subscribe;

/**
 * Where a notification stands in the stream: the change log position of its change and its index
 * among that change's notifications (a transaction concerning several addresses). Written
 * {@code "1042"} for index 0 and {@code "1042:2"} otherwise.
 */
record Position(long change, int index) implements Comparable<Position> {

    /** After every notification of {@code change}. */
    static Position afterAllOf(long change) {
        return new Position(change, Integer.MAX_VALUE);
    }

    /** Null when {@code text} is not a position. */
    static Position parse(String text) {
        if (text == null || text.isEmpty() || text.length() > 30) {
            return null;
        }
        int colon = text.indexOf(':');
        try {
            long change = Long.parseLong(colon < 0 ? text : text.substring(0, colon));
            int index = colon < 0 ? 0 : Integer.parseInt(text.substring(colon + 1));
            return change < 0 || index < 0 ? null : new Position(change, index);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    @Override
    public int compareTo(Position o) {
        int c = Long.compare(change, o.change);
        return c != 0 ? c : Integer.compare(index, o.index);
    }

    boolean isAfter(Position o) {
        return compareTo(o) > 0;
    }

    @Override
    public String toString() {
        return index == 0 ? Long.toString(change) : change + ":" + index;
    }
}
