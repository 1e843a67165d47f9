package dev.tributary.tiering.soak;

/** The short fault soak tiering into Paimon. */
class PaimonFaultSoakITCase extends AbstractFaultSoakITCase {
    @Override
    String format() {
        return "paimon";
    }
}
