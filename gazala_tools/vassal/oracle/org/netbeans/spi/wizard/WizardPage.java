// Stand-in for the NetBeans wizard library: see Wizard.java.
package org.netbeans.spi.wizard;

import java.util.Map;
import javax.swing.JPanel;

public class WizardPage extends JPanel {
    private static final long serialVersionUID = 1L;

    private final String description;

    public WizardPage(String stepDescription) {
        this.description = stepDescription;
        org.netbeans.api.wizard.WizardDisplayer.SUPPRESSED.add("setup step: " + stepDescription);
    }

    protected final void putWizardData(Object key, Object value) {
    }

    protected final Object getWizardData(Object key) {
        return null;
    }

    public String getDescription() {
        return description;
    }

    public interface WizardResultProducer {
        Object finish(Map wizardData) throws WizardException;

        boolean cancel(Map settings);
    }

    public interface CustomComponentListener {
    }

    public interface CustomComponentNotifier {
    }
}
