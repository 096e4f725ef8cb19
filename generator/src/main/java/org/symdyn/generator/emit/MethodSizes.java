package org.symdyn.generator.emit;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the bytecode length of every method of a compiled class (the {@code code_length} of each Code attribute,
 * JVMS §4.7.3), so that the build can refuse a generated method that HotSpot would never compile.
 */
public final class MethodSizes {
    /** HotSpot's default limit (-XX:HugeMethodLimit): longer methods are never JIT-compiled. */
    public static final int HUGE_METHOD_LIMIT = 8000;

    private MethodSizes() {
    }

    /** Method name and descriptor (e.g. {@code massMatrix([DLorg/ejml/data/DMatrixRMaj;)V}) to bytecode bytes. */
    public static Map<String, Integer> of(byte[] classFile) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(classFile))) {
            if (in.readInt() != 0xCAFEBABE) {
                throw new IllegalArgumentException("not a class file");
            }
            in.readUnsignedShort();
            in.readUnsignedShort();
            int count = in.readUnsignedShort();
            String[] utf8 = new String[count];
            for (int i = 1; i < count; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = in.readUTF();
                    case 3, 4 -> in.readInt();
                    case 5, 6 -> {
                        in.readLong();
                        i++; // 8-byte constants take two slots
                    }
                    case 7, 8, 16, 19, 20 -> in.readUnsignedShort();
                    case 9, 10, 11, 12, 17, 18 -> in.readInt();
                    case 15 -> {
                        in.readUnsignedByte();
                        in.readUnsignedShort();
                    }
                    default -> throw new IllegalArgumentException("unknown constant pool tag " + tag);
                }
            }
            in.readUnsignedShort();
            in.readUnsignedShort();
            in.readUnsignedShort();
            int interfaces = in.readUnsignedShort();
            for (int i = 0; i < interfaces; i++) {
                in.readUnsignedShort();
            }
            int fields = in.readUnsignedShort();
            for (int i = 0; i < fields; i++) {
                in.readUnsignedShort();
                in.readUnsignedShort();
                in.readUnsignedShort();
                skipAttributes(in);
            }
            Map<String, Integer> sizes = new LinkedHashMap<>();
            int methods = in.readUnsignedShort();
            for (int i = 0; i < methods; i++) {
                in.readUnsignedShort();
                String name = utf8[in.readUnsignedShort()];
                String descriptor = utf8[in.readUnsignedShort()];
                int attributes = in.readUnsignedShort();
                for (int a = 0; a < attributes; a++) {
                    String attr = utf8[in.readUnsignedShort()];
                    int length = in.readInt();
                    if ("Code".equals(attr)) {
                        in.readUnsignedShort();
                        in.readUnsignedShort();
                        int codeLength = in.readInt();
                        sizes.put(name + descriptor, codeLength);
                        in.skipBytes(length - 8);
                    } else {
                        in.skipBytes(length);
                    }
                }
            }
            return sizes;
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated class file", e);
        }
    }

    private static void skipAttributes(DataInputStream in) throws IOException {
        int n = in.readUnsignedShort();
        for (int i = 0; i < n; i++) {
            in.readUnsignedShort();
            in.skipBytes(in.readInt());
        }
    }
}
