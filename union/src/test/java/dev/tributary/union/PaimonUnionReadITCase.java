package dev.tributary.union;

/** {@link AbstractUnionReadITCase} over Paimon tables. */
class PaimonUnionReadITCase extends AbstractUnionReadITCase {
    @Override
    String format() {
        return "paimon";
    }
}
