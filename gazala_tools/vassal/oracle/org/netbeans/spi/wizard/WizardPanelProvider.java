// Stand-in for the NetBeans wizard library: see Wizard.java.
package org.netbeans.spi.wizard;

import java.util.Arrays;
import java.util.Map;
import javax.swing.JComponent;

public abstract class WizardPanelProvider {
    private final String title;
    private final String[] steps;

    protected WizardPanelProvider(String title, String singleStep, String singleDescription) {
        this(title, new String[] {singleStep}, new String[] {singleDescription});
    }

    protected WizardPanelProvider(String title, String[] steps, String[] descriptions) {
        this.title = title;
        this.steps = steps == null ? new String[0] : steps.clone();
    }

    protected WizardPanelProvider(String[] steps, String[] descriptions) {
        this(null, steps, descriptions);
    }

    protected abstract JComponent createPanel(WizardController controller, String id, Map settings);

    protected Object finish(Map settings) throws WizardException {
        return settings;
    }

    public boolean cancel(Map settings) {
        return true;
    }

    protected final int indexOfStep(String id) {
        return Arrays.asList(steps).indexOf(id);
    }

    public final Wizard createWizard() {
        return new Wizard(title == null ? String.join(", ", steps) : title);
    }
}
