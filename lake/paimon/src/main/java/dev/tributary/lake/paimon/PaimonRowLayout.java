package dev.tributary.lake.paimon;

import dev.tributary.common.exception.CorruptDataException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.apache.paimon.data.BinaryArray;
import org.apache.paimon.data.BinaryRow;
import org.apache.paimon.memory.MemorySegment;
import org.apache.paimon.types.ArrayType;
import org.apache.paimon.types.DataField;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.DecimalType;
import org.apache.paimon.types.LocalZonedTimestampType;
import org.apache.paimon.types.MapType;
import org.apache.paimon.types.MultisetType;
import org.apache.paimon.types.RowType;
import org.apache.paimon.types.TimestampType;

/**
 * Checks that bytes from the network are a well-formed Paimon {@link BinaryRow} or {@link
 * BinaryArray} of a known type before Paimon reads them. Paimon reads its binary rows through
 * {@code Unsafe} and trusts every size and offset in them, so a row whose fixed-length part does
 * not fit, or whose variable-length field points outside the row, reads memory that is not the row.
 * This class enforces, for every non-null field and element and recursively for nested arrays, maps
 * and rows: the fixed-length part fits in the bytes, each variable-length value lies inside its
 * enclosing row or array, an array's element count matches its byte length, a decimal's unscaled
 * bytes are 1 to 16, a timestamp's nanoseconds are below a millisecond. Layouts are Paimon's
 * (BinaryRow: 8-byte header word with the row kind then null bits, 8-byte slots; BinaryArray: int
 * count, null bits in 4-byte words, fixed-width elements; BinaryMap: int key-array length, key
 * array, value array), in the platform's byte order as Paimon's memory segments use it.
 */
final class PaimonRowLayout {
    /** Paimon marks a string or binary of at most 7 bytes kept inside its 8-byte slot. */
    private static final long INLINE_MARK = 0x80L << 56;

    private static final int MAX_ROW_KIND = 3;
    private static final int MAX_DECIMAL_BYTES = 16;
    private static final int NANOS_PER_MILLI = 1_000_000;

    private PaimonRowLayout() {}

    /**
     * A {@link BinaryRow} over {@code bytes}, after checking they are a well-formed row of {@code
     * type}.
     *
     * @throws CorruptDataException naming {@code what} if they are not
     */
    static BinaryRow row(int arity, byte[] bytes, RowType type, String what) {
        if (arity != type.getFieldCount()) {
            throw corrupt(
                    what,
                    "has "
                            + Integer.toUnsignedString(arity)
                            + " fields where the table's "
                            + type.getFieldCount());
        }
        checkRow(view(bytes), 0, bytes.length, type.getFields(), what);
        BinaryRow row = new BinaryRow(arity);
        row.pointTo(MemorySegment.wrap(bytes), 0, bytes.length);
        return row;
    }

    /**
     * A {@link BinaryArray} over {@code bytes}, after checking they are a well-formed array of
     * {@code elementType} with {@code expectedSize} elements.
     */
    static BinaryArray array(byte[] bytes, DataType elementType, int expectedSize, String what) {
        int size = checkArray(view(bytes), 0, bytes.length, elementType, what);
        if (size != expectedSize) {
            throw corrupt(what, "has " + size + " elements where " + expectedSize + " belong");
        }
        BinaryArray array = new BinaryArray();
        array.pointTo(MemorySegment.wrap(bytes), 0, bytes.length);
        return array;
    }

    /** Bytes of a row's null bits with its header byte, as Paimon sizes them (8-byte words). */
    static long rowHeaderBytes(long arity) {
        return ((arity + 63 + 8) / 64) * 8;
    }

    private static ByteBuffer view(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.nativeOrder());
    }

    private static void checkRow(
            ByteBuffer buf, int base, int size, List<DataField> fields, String what) {
        int arity = fields.size();
        long fixed = rowHeaderBytes(arity) + 8L * arity;
        if (fixed > size) {
            throw corrupt(
                    what,
                    "is "
                            + size
                            + " bytes, shorter than the "
                            + fixed
                            + " its "
                            + arity
                            + " fields need");
        }
        int kind = buf.get(base);
        if (kind < 0 || kind > MAX_ROW_KIND) {
            throw corrupt(what, "has row kind " + kind);
        }
        int slots = base + (int) rowHeaderBytes(arity);
        for (int i = 0; i < arity; i++) {
            int bit = i + 8;
            boolean isNull = (buf.get(base + (bit >>> 3)) & (1 << (bit & 7))) != 0;
            if (!isNull) {
                checkValue(
                        buf,
                        base,
                        size,
                        buf.getLong(slots + 8 * i),
                        fields.get(i).type(),
                        what + " field " + fields.get(i).name());
            }
        }
    }

    /** Returns the array's element count. */
    private static int checkArray(
            ByteBuffer buf, int base, int size, DataType elementType, String what) {
        if (size < 4) {
            throw corrupt(what, "is " + size + " bytes, too short for an array");
        }
        int n = buf.getInt(base);
        int width = BinaryArray.calculateFixLengthPartSize(elementType);
        long header = 4 + ((n + 31L) / 32) * 4;
        if (n < 0 || header + (long) n * width > size) {
            throw corrupt(
                    what,
                    "claims "
                            + Integer.toUnsignedString(n)
                            + " elements, more than its "
                            + size
                            + " bytes hold");
        }
        if (width == 8 && isVariableLength(elementType)) {
            int elements = base + (int) header;
            for (int i = 0; i < n; i++) {
                boolean isNull = (buf.get(base + 4 + (i >>> 3)) & (1 << (i & 7))) != 0;
                if (!isNull) {
                    checkValue(
                            buf,
                            base,
                            size,
                            buf.getLong(elements + 8 * i),
                            elementType,
                            what + " element " + i);
                }
            }
        }
        return n;
    }

    private static boolean isVariableLength(DataType type) {
        switch (type.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
            case ARRAY:
            case MAP:
            case MULTISET:
            case ROW:
            case VARIANT:
                return true;
            case DECIMAL:
                return ((DecimalType) type).getPrecision() > 18;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return ((TimestampType) type).getPrecision() > 3;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return ((LocalZonedTimestampType) type).getPrecision() > 3;
            default:
                return false;
        }
    }

    /**
     * Checks the value one 8-byte slot holds or points to; offsets are relative to {@code base},
     * the start of the row or array the slot belongs to, whose bytes end at {@code base + size}.
     */
    private static void checkValue(
            ByteBuffer buf, int base, int size, long slot, DataType type, String what) {
        if (!isVariableLength(type)) {
            return;
        }
        switch (type.getTypeRoot()) {
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
                if ((slot & INLINE_MARK) != 0) {
                    long inline = (slot >>> 56) & 0x7F;
                    if (inline > 7) {
                        throw corrupt(what, "claims " + inline + " bytes inside its 8-byte slot");
                    }
                    return;
                }
                region(base, size, slot, what);
                return;
            case DECIMAL:
                int bytes = region(base, size, slot, what);
                if (bytes < 1 || bytes > MAX_DECIMAL_BYTES) {
                    throw corrupt(what, "has a decimal of " + bytes + " bytes");
                }
                return;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                int nanos = (int) slot;
                if (nanos < 0 || nanos >= NANOS_PER_MILLI) {
                    throw corrupt(what, "has " + nanos + " nanoseconds of a millisecond");
                }
                region(base, size, (slot & 0xFFFFFFFF00000000L) | 8, what);
                return;
            case ARRAY:
                {
                    int length = region(base, size, slot, what);
                    checkArray(
                            buf,
                            base + (int) (slot >> 32),
                            length,
                            ((ArrayType) type).getElementType(),
                            what);
                    return;
                }
            case MAP:
                checkMap(
                        buf,
                        base,
                        size,
                        slot,
                        ((MapType) type).getKeyType(),
                        ((MapType) type).getValueType(),
                        what);
                return;
            case MULTISET:
                checkMap(
                        buf,
                        base,
                        size,
                        slot,
                        ((MultisetType) type).getElementType(),
                        new org.apache.paimon.types.IntType(false),
                        what);
                return;
            case ROW:
                {
                    int length = region(base, size, slot, what);
                    checkRow(
                            buf,
                            base + (int) (slot >> 32),
                            length,
                            ((RowType) type).getFields(),
                            what);
                    return;
                }
            default:
                // no stats, key or partition value of these kinds is ever written
                throw corrupt(what, "holds a " + type.getTypeRoot() + " value, which none may");
        }
    }

    private static void checkMap(
            ByteBuffer buf,
            int base,
            int size,
            long slot,
            DataType keyType,
            DataType valueType,
            String what) {
        int length = region(base, size, slot, what);
        int start = base + (int) (slot >> 32);
        if (length < 4) {
            throw corrupt(what, "is " + length + " bytes, too short for a map");
        }
        int keyBytes = buf.getInt(start);
        if (keyBytes < 0 || keyBytes > length - 4) {
            throw corrupt(what, "claims a key array of " + keyBytes + " bytes in " + length);
        }
        int keys = checkArray(buf, start + 4, keyBytes, keyType, what + " keys");
        int values =
                checkArray(
                        buf,
                        start + 4 + keyBytes,
                        length - 4 - keyBytes,
                        valueType,
                        what + " values");
        if (keys != values) {
            throw corrupt(what, "has " + keys + " keys and " + values + " values");
        }
    }

    /**
     * Checks that the offset (high 32 bits of {@code slot}) and length (low 32 bits) lie inside the
     * enclosing {@code size} bytes; returns the length.
     */
    private static int region(int base, int size, long slot, String what) {
        long offset = slot >> 32;
        long length = (int) slot;
        if (offset < 0 || length < 0 || offset + length > size) {
            throw corrupt(
                    what,
                    "points at "
                            + length
                            + " bytes at offset "
                            + offset
                            + ", outside its "
                            + size
                            + " bytes");
        }
        return (int) length;
    }

    private static CorruptDataException corrupt(String what, String problem) {
        return new CorruptDataException(what + " " + problem);
    }
}
