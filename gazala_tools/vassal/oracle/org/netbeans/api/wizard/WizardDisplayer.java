// Stand-in for the NetBeans wizard library: see ../../spi/wizard/Wizard.java.
package org.netbeans.api.wizard;

import java.awt.Rectangle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import javax.swing.Action;
import org.netbeans.spi.wizard.Wizard;

/** Never shows a wizard; records which wizards VASSAL asked for (the oracle reports them). */
public abstract class WizardDisplayer {
    public static final List<String> SUPPRESSED = Collections.synchronizedList(new ArrayList<>());

    protected WizardDisplayer() {
    }

    public static Object showWizard(Wizard wizard, Rectangle rect) {
        return showWizard(wizard, rect, null, null);
    }

    public static Object showWizard(Wizard wizard, Rectangle rect, Action help, Map initialProperties) {
        SUPPRESSED.add(wizard == null ? "null" : String.valueOf(wizard.getName()));
        return null;
    }
}
