package dev.tributary.common.exception;

/**
 * A write or read named a partition that does not exist (never created, dropped, or being dropped)
 * and the table does not create partitions on first write ({@code table.partition.dynamic-create}).
 * Nothing of the batch was written. Create the partition ({@code tributary partition add}) or
 * enable dynamic creation.
 */
public class PartitionNotFoundException extends NotFoundException {
    private static final long serialVersionUID = 1L;

    public PartitionNotFoundException(String message) {
        super(message);
    }
}
