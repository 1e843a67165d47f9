package dev.tributary.union;

/** {@link AbstractUnionReadITCase} over Iceberg tables. */
class IcebergUnionReadITCase extends AbstractUnionReadITCase {
    @Override
    String format() {
        return "iceberg";
    }
}
