package dev.tributary.tiering.soak;

/**
 * The short fault soak tiering into Iceberg; it covers the T22 bug a full disk found there (seed
 * 14404104510080: Hadoop's FSError escaped a PK split and ended the job).
 */
class IcebergFaultSoakITCase extends AbstractFaultSoakITCase {
    @Override
    String format() {
        return "iceberg";
    }
}
