package dev.tributary.common.exception;

/**
 * A configuration value could not be parsed or is out of range; the message names the key, the
 * value and the expected form.
 */
public class InvalidConfigException extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    public InvalidConfigException(String message) {
        super(message);
    }

    public InvalidConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
