package io.stacksexplorer.generate;

import com.fasterxml.jackson.core.JsonGenerator;
import io.stacksexplorer.codec.address.StacksAddress;
import io.stacksexplorer.codec.clarity.ClarityValue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The {@code value} field a 2.x stacks-node puts beside {@code raw_value} in contract and NFT
 * events: the Clarity value as serde derives it from the node's Rust types ({@code {"UInt": 877}},
 * {@code {"Tuple": {"data_map": …, "type_signature": {"type_map": …}}}}, byte arrays as numbers).
 * Nobody here reads it back (the ingest takes {@code raw_value}); it is written so that a
 * generated payload weighs and parses like a real one.
 */
final class ClaritySerdeJson {

    private ClaritySerdeJson() {
    }

    static void write(JsonGenerator g, ClarityValue value) throws IOException {
        g.writeStartObject();
        if (value instanceof ClarityValue.Int v) {
            g.writeFieldName("Int");
            g.writeNumber(v.value());
        } else if (value instanceof ClarityValue.UInt v) {
            g.writeFieldName("UInt");
            g.writeNumber(v.value());
        } else if (value instanceof ClarityValue.Bool v) {
            g.writeBooleanField("Bool", v.value());
        } else if (value instanceof ClarityValue.Buffer v) {
            g.writeObjectFieldStart("Sequence");
            g.writeObjectFieldStart("Buffer");
            bytesField(g, "data", v.bytes());
            g.writeEndObject();
            g.writeEndObject();
        } else if (value instanceof ClarityValue.StringAscii v) {
            g.writeObjectFieldStart("Sequence");
            g.writeObjectFieldStart("String");
            g.writeObjectFieldStart("ASCII");
            bytesField(g, "data", v.value().getBytes(StandardCharsets.US_ASCII));
            g.writeEndObject();
            g.writeEndObject();
            g.writeEndObject();
        } else if (value instanceof ClarityValue.StringUtf8 v) {
            g.writeObjectFieldStart("Sequence");
            g.writeObjectFieldStart("String");
            g.writeObjectFieldStart("UTF8");
            g.writeArrayFieldStart("data");
            // One byte array per character.
            for (int i = 0; i < v.value().length(); ) {
                int cp = v.value().codePointAt(i);
                bytes(g, new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8));
                i += Character.charCount(cp);
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndObject();
            g.writeEndObject();
        } else if (value instanceof ClarityValue.ListValue v) {
            g.writeObjectFieldStart("Sequence");
            g.writeObjectFieldStart("List");
            g.writeArrayFieldStart("data");
            for (ClarityValue item : v.items()) {
                write(g, item);
            }
            g.writeEndArray();
            g.writeFieldName("type_signature");
            listType(g, v);
            g.writeEndObject();
            g.writeEndObject();
        } else if (value instanceof ClarityValue.StandardPrincipal v) {
            g.writeObjectFieldStart("Principal");
            g.writeFieldName("Standard");
            standard(g, v.address());
            g.writeEndObject();
        } else if (value instanceof ClarityValue.ContractPrincipal v) {
            g.writeObjectFieldStart("Principal");
            g.writeObjectFieldStart("Contract");
            g.writeFieldName("issuer");
            standard(g, v.contract().address());
            g.writeStringField("name", v.contract().name());
            g.writeEndObject();
            g.writeEndObject();
        } else if (value instanceof ClarityValue.Tuple v) {
            g.writeObjectFieldStart("Tuple");
            g.writeObjectFieldStart("data_map");
            for (ClarityValue.Tuple.Entry e : v.entries()) {
                g.writeFieldName(e.name());
                write(g, e.value());
            }
            g.writeEndObject();
            g.writeObjectFieldStart("type_signature");
            g.writeFieldName("type_map");
            tupleTypeMap(g, v);
            g.writeEndObject();
            g.writeEndObject();
        } else if (value instanceof ClarityValue.OptionalNone) {
            g.writeObjectFieldStart("Optional");
            g.writeNullField("data");
            g.writeEndObject();
        } else if (value instanceof ClarityValue.OptionalSome v) {
            g.writeObjectFieldStart("Optional");
            g.writeFieldName("data");
            write(g, v.value());
            g.writeEndObject();
        } else if (value instanceof ClarityValue.ResponseOk v) {
            response(g, true, v.value());
        } else if (value instanceof ClarityValue.ResponseErr v) {
            response(g, false, v.value());
        }
        g.writeEndObject();
    }

    /** The type the node derives from a value ({@code TypeSignature::type_of}). */
    private static void type(JsonGenerator g, ClarityValue value) throws IOException {
        if (value instanceof ClarityValue.Int) {
            g.writeString("IntType");
        } else if (value instanceof ClarityValue.UInt) {
            g.writeString("UIntType");
        } else if (value instanceof ClarityValue.Bool) {
            g.writeString("BoolType");
        } else if (value instanceof ClarityValue.StandardPrincipal || value instanceof ClarityValue.ContractPrincipal) {
            g.writeString("PrincipalType");
        } else if (value instanceof ClarityValue.Buffer v) {
            g.writeStartObject();
            g.writeObjectFieldStart("SequenceType");
            g.writeNumberField("BufferType", v.length());
            g.writeEndObject();
            g.writeEndObject();
        } else if (value instanceof ClarityValue.StringAscii v) {
            stringType(g, "ASCII", v.value().length());
        } else if (value instanceof ClarityValue.StringUtf8 v) {
            stringType(g, "UTF8", v.value().codePointCount(0, v.value().length()));
        } else if (value instanceof ClarityValue.ListValue v) {
            g.writeStartObject();
            g.writeObjectFieldStart("SequenceType");
            g.writeFieldName("ListType");
            listType(g, v);
            g.writeEndObject();
            g.writeEndObject();
        } else if (value instanceof ClarityValue.Tuple v) {
            g.writeStartObject();
            g.writeObjectFieldStart("TupleType");
            g.writeFieldName("type_map");
            tupleTypeMap(g, v);
            g.writeEndObject();
            g.writeEndObject();
        } else if (value instanceof ClarityValue.OptionalNone) {
            g.writeStartObject();
            g.writeStringField("OptionalType", "NoType");
            g.writeEndObject();
        } else if (value instanceof ClarityValue.OptionalSome v) {
            g.writeStartObject();
            g.writeFieldName("OptionalType");
            type(g, v.value());
            g.writeEndObject();
        } else if (value instanceof ClarityValue.ResponseOk v) {
            responseType(g, v.value(), true);
        } else if (value instanceof ClarityValue.ResponseErr v) {
            responseType(g, v.value(), false);
        }
    }

    private static void listType(JsonGenerator g, ClarityValue.ListValue v) throws IOException {
        g.writeStartObject();
        g.writeNumberField("max_len", v.items().size());
        g.writeFieldName("entry_type");
        if (v.items().isEmpty()) {
            g.writeString("NoType");
        } else {
            type(g, v.items().get(0));
        }
        g.writeEndObject();
    }

    private static void tupleTypeMap(JsonGenerator g, ClarityValue.Tuple v) throws IOException {
        g.writeStartObject();
        for (ClarityValue.Tuple.Entry e : v.entries()) {
            g.writeFieldName(e.name());
            type(g, e.value());
        }
        g.writeEndObject();
    }

    private static void stringType(JsonGenerator g, String kind, int length) throws IOException {
        g.writeStartObject();
        g.writeObjectFieldStart("SequenceType");
        g.writeObjectFieldStart("StringType");
        g.writeNumberField(kind, length);
        g.writeEndObject();
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void responseType(JsonGenerator g, ClarityValue inner, boolean ok) throws IOException {
        g.writeStartObject();
        g.writeArrayFieldStart("ResponseType");
        if (ok) {
            type(g, inner);
            g.writeString("NoType");
        } else {
            g.writeString("NoType");
            type(g, inner);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void response(JsonGenerator g, boolean committed, ClarityValue inner) throws IOException {
        g.writeObjectFieldStart("Response");
        g.writeBooleanField("committed", committed);
        g.writeFieldName("data");
        write(g, inner);
        g.writeEndObject();
    }

    /** {@code StandardPrincipalData(version, [u8; 20])}, a tuple struct: {@code [22, [..20 bytes..]]}. */
    private static void standard(JsonGenerator g, StacksAddress address) throws IOException {
        g.writeStartArray();
        g.writeNumber(address.version());
        bytes(g, address.hash160());
        g.writeEndArray();
    }

    private static void bytesField(JsonGenerator g, String name, byte[] bytes) throws IOException {
        g.writeFieldName(name);
        bytes(g, bytes);
    }

    private static void bytes(JsonGenerator g, byte[] bytes) throws IOException {
        g.writeStartArray();
        for (byte b : bytes) {
            g.writeNumber(b & 0xff);
        }
        g.writeEndArray();
    }
}
