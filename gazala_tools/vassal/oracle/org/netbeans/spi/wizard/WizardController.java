// Stand-in for the NetBeans wizard library: see Wizard.java.
package org.netbeans.spi.wizard;

public final class WizardController {
    public static final int MODE_CAN_CONTINUE = 1;
    public static final int MODE_CAN_FINISH = 2;
    public static final int MODE_CAN_CONTINUE_OR_FINISH = 3;

    WizardController() {
    }

    public void setProblem(String problem) {
    }

    public void setForwardNavigationMode(int mode) {
    }

    public void setBusy(boolean busy) {
    }
}
