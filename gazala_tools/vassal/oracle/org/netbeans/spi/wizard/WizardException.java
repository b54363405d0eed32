// Stand-in for the NetBeans wizard library: see Wizard.java.
package org.netbeans.spi.wizard;

public class WizardException extends Exception {
    private static final long serialVersionUID = 1L;

    public WizardException(String message) {
        super(message);
    }
}
