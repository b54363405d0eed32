// Minimal stand-in for the NetBeans wizard library (not available from Debian or Maven Central as
// VASSAL ships it). Only what VASSAL 3.6 links against; nothing is ever displayed.
package org.netbeans.spi.wizard;

/** A wizard that is never shown (see {@link org.netbeans.api.wizard.WizardDisplayer}). */
public final class Wizard {
    private final String name;

    Wizard(String name) {
        this.name = name;
    }

    public String getName() {
        return name;
    }
}
