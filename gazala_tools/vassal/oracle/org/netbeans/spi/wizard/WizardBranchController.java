// Stand-in for the NetBeans wizard library: see Wizard.java.
package org.netbeans.spi.wizard;

import java.util.Map;

public abstract class WizardBranchController {
    private final WizardPanelProvider base;

    protected WizardBranchController(WizardPanelProvider base) {
        this.base = base;
    }

    protected WizardPanelProvider getPanelProviderForStep(String step, Map settings) {
        return null;
    }

    protected Wizard getWizardForStep(String step, Map settings) {
        WizardPanelProvider provider = getPanelProviderForStep(step, settings);
        return provider == null ? null : provider.createWizard();
    }

    public final Wizard createWizard() {
        return base.createWizard();
    }
}
