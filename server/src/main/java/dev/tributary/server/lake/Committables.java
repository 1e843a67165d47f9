package dev.tributary.server.lake;

import dev.tributary.common.exception.InvalidInputException;
import dev.tributary.common.io.BinaryReader;
import dev.tributary.common.io.BinaryWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Packs a round's serialized lake write results into the one opaque committable the coordinator
 * carries: a varint count, then each result length-prefixed. Each result keeps its own serializer
 * version inside.
 */
public final class Committables {
    private Committables() {}

    public static byte[] pack(List<byte[]> results) {
        int size = 8;
        for (byte[] r : results) {
            size += r.length + 5;
        }
        BinaryWriter out = new BinaryWriter(size);
        out.writeVarInt(results.size());
        for (byte[] r : results) {
            out.writeLengthPrefixed(r);
        }
        return out.toByteArray();
    }

    public static List<byte[]> unpack(byte[] committable) {
        try {
            BinaryReader in = new BinaryReader(committable);
            int n = in.readVarInt();
            if (n < 0 || n > committable.length) {
                throw new InvalidInputException("malformed committable: " + n + " results");
            }
            List<byte[]> out = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                out.add(in.readLengthPrefixed());
            }
            if (in.remaining() != 0) {
                throw new InvalidInputException(
                        "malformed committable: " + in.remaining() + " trailing bytes");
            }
            return out;
        } catch (InvalidInputException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new InvalidInputException("malformed committable: " + e.getMessage(), e);
        }
    }
}
