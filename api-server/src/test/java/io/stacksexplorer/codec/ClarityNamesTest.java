package io.stacksexplorer.codec;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ClarityNamesTest {

    @Test
    void deployableContractNames() {
        assertTrue(ClarityNames.isDeployableContractName("pox-4"));
        assertTrue(ClarityNames.isDeployableContractName("a"));
        assertTrue(ClarityNames.isDeployableContractName("A_b-9"));
        assertTrue(ClarityNames.isDeployableContractName("a".repeat(40)));
        assertFalse(ClarityNames.isDeployableContractName("a".repeat(41)));
        assertFalse(ClarityNames.isDeployableContractName(""));
        assertFalse(ClarityNames.isDeployableContractName("9lives"));
        assertFalse(ClarityNames.isDeployableContractName("-x"));
        assertFalse(ClarityNames.isDeployableContractName("a.b"));
        assertFalse(ClarityNames.isDeployableContractName("a!"));
        assertFalse(ClarityNames.isDeployableContractName("__transient"));
    }

    @Test
    void valueContractNamesFollowTheNodesBackwardsCompatibleRule() {
        assertTrue(ClarityNames.isContractNameInValue("a".repeat(128)));
        assertFalse(ClarityNames.isContractNameInValue("a".repeat(129)));
        assertTrue(ClarityNames.isContractNameInValue("__transient"));
        assertFalse(ClarityNames.isContractNameInValue(""));
        assertFalse(ClarityNames.isContractNameInTransaction("a".repeat(41)));
        assertTrue(ClarityNames.isContractNameInTransaction("__transient"));
    }

    @Test
    void clarityNames() {
        assertTrue(ClarityNames.isClarityName("stack-stx"));
        assertTrue(ClarityNames.isClarityName("is-ok?"));
        assertTrue(ClarityNames.isClarityName("set!"));
        assertTrue(ClarityNames.isClarityName("+"));
        assertTrue(ClarityNames.isClarityName("<="));
        assertTrue(ClarityNames.isClarityName(">"));
        assertFalse(ClarityNames.isClarityName("=>"));
        assertFalse(ClarityNames.isClarityName(""));
        assertFalse(ClarityNames.isClarityName("1st"));
        assertFalse(ClarityNames.isClarityName("a b"));
        assertFalse(ClarityNames.isClarityName("a".repeat(129)));
    }
}
