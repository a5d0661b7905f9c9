package io.stacksexplorer.codec.address;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.stacksexplorer.codec.CodecException;
import org.junit.jupiter.api.Test;

class ContractIdTest {

    @Test
    void parsesAddressAndName() {
        ContractId pox = ContractId.parse("SP000000000000000000002Q6VF78.pox-4");
        assertEquals(StacksAddress.parse("SP000000000000000000002Q6VF78"), pox.address());
        assertEquals("pox-4", pox.name());
        assertEquals("SP000000000000000000002Q6VF78.pox-4", pox.toString());
        // The address part is normalised, the name is kept as written.
        assertEquals("SP000000000000000000002Q6VF78.My_Token",
                ContractId.parse("sp000000000000000000002q6vf78.My_Token").toString());
    }

    @Test
    void appliesTheDeployRuleToNames() {
        String address = "ST000000000000000000002AMW42H";
        assertEquals(40, ContractId.parse(address + "." + "a".repeat(40)).name().length());
        assertThrows(CodecException.class, () -> ContractId.parse(address + "." + "a".repeat(41)));
        assertThrows(CodecException.class, () -> ContractId.parse(address + "."));
        assertThrows(CodecException.class, () -> ContractId.parse(address + ".1abc"));
        assertThrows(CodecException.class, () -> ContractId.parse(address + ".a.b"));
        assertThrows(CodecException.class, () -> ContractId.parse(address + ".__transient"));
        assertThrows(CodecException.class, () -> ContractId.parse(address));
        assertThrows(CodecException.class, () -> ContractId.parse("ST000000000000000000002AMW42J.pox"));
    }

    @Test
    void wireDataMayCarryLongerNames() {
        // The node still accepts principals with names up to 128 bytes inside Clarity values.
        ContractId legacy = new ContractId(StacksAddress.parse("SP000000000000000000002Q6VF78"), "a".repeat(128));
        assertEquals(128, legacy.name().length());
        assertThrows(CodecException.class,
                () -> new ContractId(StacksAddress.parse("SP000000000000000000002Q6VF78"), "a".repeat(129)));
    }

    @Test
    void principalParsesEitherForm() {
        assertInstanceOf(StacksAddress.class, Principal.parse("SP000000000000000000002Q6VF78"));
        assertInstanceOf(ContractId.class, Principal.parse("SP000000000000000000002Q6VF78.pox"));
        assertEquals("SP000000000000000000002Q6VF78",
                Principal.parse("SP000000000000000000002Q6VF78.pox").address().toString());
    }
}
