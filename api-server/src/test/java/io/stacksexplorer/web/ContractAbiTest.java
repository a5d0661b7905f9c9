package io.stacksexplorer.web;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Function signatures rendered from a deployment's ABI exactly as the peer writes them. */
class ContractAbiTest {

    private static final String ABI = """
            {"functions": [
              {"name": "claim", "access": "public", "args": [], "outputs": {"type": "bool"}},
              {"name": "get-balance", "access": "read_only",
               "args": [{"name": "who", "type": "principal"}], "outputs": {"type": "uint128"}},
              {"name": "transfer", "access": "public",
               "args": [{"name": "amount", "type": "uint128"}, {"name": "memo",
                         "type": {"optional": {"buffer": {"length": 34}}}}],
               "outputs": {"type": "bool"}},
              {"name": "helper", "access": "private", "args": [], "outputs": {"type": "bool"}}
            ]}""";

    @Test
    void aFunctionWithoutArgumentsHasASpaceBeforeItsClosingParenthesis() {
        ContractAbi abi = ContractAbi.parse(ABI).orElseThrow();
        assertEquals("(define-public (claim ))", abi.function("claim").orElseThrow().signature());
        assertEquals("(define-private (helper ))", abi.function("helper").orElseThrow().signature());
    }

    @Test
    void argumentsFollowTheNameSeparatedBySpaces() {
        ContractAbi abi = ContractAbi.parse(ABI).orElseThrow();
        assertEquals("(define-read-only (get-balance (who principal)))", abi.function("get-balance").orElseThrow().signature());
        ContractAbi.Function transfer = abi.function("transfer").orElseThrow();
        assertEquals("(define-public (transfer (amount uint) (memo (optional (buff 34)))))", transfer.signature());
        assertEquals(List.of("amount", "memo"), transfer.argNames());
    }
}
