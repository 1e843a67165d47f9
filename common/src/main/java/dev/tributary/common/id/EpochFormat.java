package dev.tributary.common.id;

/**
 * How a tiering epoch is shown to people. The coordinator makes epochs durable without a disk write
 * per epoch by handing out, in its n-th incarnation (start), {@code n * STRIDE + counter}; the raw
 * number (3000000013) says nothing to a reader, so every view a person reads prints it as {@code
 * incarnation:counter} (3:13). The wire, the metadata and the lake snapshot properties keep the
 * exact number, and JSON carries both.
 */
public final class EpochFormat {
    /**
     * Epochs of incarnation n start at {@code n * STRIDE}; the coordinator's {@code
     * TieringManager.EPOCH_STRIDE} is this value (a coordinator test checks they agree).
     */
    public static final long STRIDE = 1_000_000_000L;

    private EpochFormat() {}

    /** The incarnation (coordinator start) that handed out {@code epoch}. */
    public static long incarnation(long epoch) {
        return epoch / STRIDE;
    }

    /** The epoch's position within its incarnation. */
    public static long counter(long epoch) {
        return epoch % STRIDE;
    }

    /**
     * {@code incarnation:counter}, e.g. {@code 3:13} for 3000000013. A negative epoch (the "none"
     * marker some records use) is printed as {@code -}.
     */
    public static String format(long epoch) {
        if (epoch < 0) {
            return "-";
        }
        return incarnation(epoch) + ":" + counter(epoch);
    }
}
