package io.stacksexplorer.ingest;

class NodeEventsIngestH2Test extends NodeEventsIngestContract {

    @Override
    IngestServer.Database database() {
        return IngestServer.Database.H2;
    }
}
