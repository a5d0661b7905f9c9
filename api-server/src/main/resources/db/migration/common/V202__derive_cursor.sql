-- Derivation after the answer (STACKS_OBSERVER_DERIVE=after-answer): the event observer stores a
-- payload and answers 200 once that commit is durable, and a second thread derives the stored
-- payloads in arrival order, many per transaction. 'accepted' is the id of the last payload
-- answered that way (advanced in the commit that stores it); 'derived' the id up to which those
-- payloads' rows are written (advanced in the commit that writes them). After a crash, the stored
-- payloads with derived < id <= accepted are derived at the next start. Two rows, not two columns
-- of one row: the observer thread and the deriving thread each update their own row, so neither
-- waits for the other's row lock. Both stay 0 when every payload is derived before its answer.
CREATE TABLE derive_cursor (
    name       VARCHAR(16) NOT NULL PRIMARY KEY,
    payload_id BIGINT      NOT NULL
);
INSERT INTO derive_cursor (name, payload_id) VALUES ('accepted', 0);
INSERT INTO derive_cursor (name, payload_id) VALUES ('derived', 0);
