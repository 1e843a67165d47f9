package dev.tributary.common.exception;

/**
 * The request is well-formed but asks for something this version does not do yet (for example a
 * union read of a partitioned table); retrying it unchanged fails again. The message names what is
 * not supported and for which object. Nothing was written.
 */
public class UnsupportedFeatureException extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    public UnsupportedFeatureException(String message) {
        super(message);
    }
}
