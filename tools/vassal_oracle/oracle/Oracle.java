// The real VASSAL engine as a test oracle: one command per JVM, one JSON object on stdout.
//
// Compiled and run by tools/vassal_oracle/engine.py (javac against the VASSAL 3.7.26 engine jar +
// the Debian jars of its debian-jars.txt, run under Xvfb with a private VASSAL.conf, tmpdir and
// logback config). GameModule is a process-wide singleton, so every call is a fresh JVM that loads
// exactly one module. VASSAL >= 3.7 carries the NetBeans wizard library in its own jar: a wizard
// it shows (e.g. "Choose side" when a game starts) is a dialog like any other, recorded and closed.
//
//   module     M.vmod                      build errors, dialogs, maps/boards/grids, piece slots,
//                                          buildFile round trip (dropped attributes/elements)
//   locate     M.vmod POINTS               POINTS: one "map<TAB>x<TAB>y" per line (map coordinates);
//                                          Map.locationName + Map.snapTo + Map.findBoard per point
//   read-save  M.vmod G.vsav               decodeSavedGame + execute; every piece and stack
//   write-save M.vmod OUT.vsav PLACE.json  new game, clone palette pieces, place them, save
//   new-game   M.vmod OUT.vsav             a new game as the player starts one (at-start stacks and decks
//                                          placed), saved; every piece and stack
//   log-steps  M.vmod SETUP OUT.vlog STEPS.json
//                                          as a player: launch predefined set-up SETUP (its name, or
//                                          "#N": the N-th that opens a file), begin a log (BasicLogger
//                                          as beginOutput sets it up, without its file chooser), make
//                                          each step of STEPS ({"steps": [...]}) as a player does, one
//                                          logged Step each, and write OUT.vlog (BasicLogger.write).
//                                          A step is a move ({"piece", "to" | "x","y" | "dx","dy",
//                                          "map", "snap"}: Map.placeOrMerge + sendAndLog, as the shared
//                                          harness's log-moves), a press of the Turn Tracker's "+"
//                                          button ({"turn": "next" | "prev", "tracker"}), or a chit
//                                          drawn from a deck ({"draw": deck name, "piece": the chit
//                                          ("Draw specific card") or "top": true (the deck's top
//                                          piece); neither: the deck's own draw, then a destination
//                                          as for a move): the drawn piece is dragged and dropped
//                                          through the map's PieceMover.movePieces
//
// All VASSAL work runs on the Swing event dispatch thread, one step at a time.
//
// Options (system properties): oracle.timeout (seconds, default 120).
// Everything VASSAL prints on stdout is redirected to stderr; stdout carries only the JSON line.

import java.awt.AWTEvent;
import java.awt.Component;
import java.awt.Container;
import java.awt.Dialog;
import java.awt.Dimension;
import java.awt.Point;
import java.awt.Rectangle;
import java.awt.Toolkit;
import java.awt.Window;
import java.awt.event.WindowEvent;
import java.io.File;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import javax.swing.AbstractButton;
import javax.swing.JLabel;
import javax.swing.JOptionPane;
import javax.swing.SwingUtilities;
import javax.swing.text.JTextComponent;

import org.slf4j.LoggerFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NamedNodeMap;
import org.w3c.dom.Node;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.AppenderBase;

import VASSAL.Info;
import VASSAL.build.AbstractBuildable;
import VASSAL.build.Buildable;
import VASSAL.build.Builder;
import VASSAL.build.Configurable;
import VASSAL.build.GameModule;
import VASSAL.build.module.BasicLogger;
import VASSAL.build.module.Chatter;
import VASSAL.build.module.GameState;
import VASSAL.build.module.PredefinedSetup;
import VASSAL.build.module.PrototypeDefinition;
import VASSAL.build.module.map.DrawPile;
import VASSAL.build.module.map.PieceMover;
import VASSAL.build.module.metadata.SaveMetaData;
import VASSAL.build.module.turn.TurnTracker;
import VASSAL.build.module.map.BoardPicker;
import VASSAL.build.module.map.boardPicker.Board;
import VASSAL.build.module.map.boardPicker.board.MapGrid;
import VASSAL.build.widget.PieceSlot;
import VASSAL.command.Command;
import VASSAL.counters.Deck;
import VASSAL.counters.DragBuffer;
import VASSAL.counters.GamePiece;
import VASSAL.counters.PieceCloner;
import VASSAL.counters.PieceIterator;
import VASSAL.counters.Stack;
import VASSAL.launch.StandardConfig;
import VASSAL.preferences.Prefs;
import VASSAL.tools.DataArchive;

public final class Oracle {
    private static final List<Object> DIALOGS = Collections.synchronizedList(new ArrayList<>());
    private static final List<Object> LOG = Collections.synchronizedList(new ArrayList<>());

    private Oracle() {
    }

    public static void main(String[] args) {
        final PrintStream out = System.out;
        System.setOut(System.err);
        final int timeout = Integer.getInteger("oracle.timeout", 120);
        Thread watchdog = new Thread(() -> {
            try {
                Thread.sleep(timeout * 1000L);
            }
            catch (InterruptedException e) {
                return;
            }
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("ok", false);
            r.put("error", "oracle watchdog: no result after " + timeout + " s");
            r.put("dialogs", snapshot(DIALOGS));
            r.put("log", snapshot(LOG));
            r.put("threads", threadDump());
            out.println(Json.write(r));
            out.flush();
            Runtime.getRuntime().halt(3);
        }, "oracle-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();

        Map<String, Object> result = new LinkedHashMap<>();
        int code = 0;
        try {
            if (args.length < 2) {
                throw new IllegalArgumentException("usage: Oracle module|locate|read-save|write-save|new-game|log-steps MODULE [ARGS]");
            }
            // Swing is single-threaded: every VASSAL call runs on the event dispatch thread (as in
            // VASSAL itself), one step at a time, with the queue drained between steps. Driving it
            // from the main thread deadlocks now and then (layout vs. the chat document lock).
            switch (args[0]) {
            case "module":
            case "locate":
            case "read-save":
            case "write-save":
                need(args, args[0].equals("write-save") ? 4 : args[0].equals("module") ? 2 : 3);
                break;
            case "log-steps":
                need(args, 5);
                break;
            case "new-game":
                need(args, 3);
                break;
            default:
                throw new IllegalArgumentException("unknown command " + args[0]);
            }
            edt(Oracle::bootstrap);
            result.put("ok", true);
            result.put("command", args[0]);
            result.put("vassal_version", Info.getVersion());
            final File module = new File(args[1]);
            edt(() -> loadModule(module, result));
            switch (args[0]) {
            case "module":
                edt(() -> describeModule(module, result));
                break;
            case "locate":
                startNewGame();
                edt(() -> locate(new File(args[2]), result));
                break;
            case "read-save":
                edt(() -> executeSave(new File(args[2])));
                edt(() -> {
                    result.put("game_started", GameModule.getGameModule().getGameState().isGameStarted());
                    listPieces(result);
                });
                break;
            case "log-steps":
                logSteps(args, result);
                break;
            case "new-game":
                // a new game as the player's "New Game" (PredefinedSetup.launch without a file) starts one:
                // setup(false) marks the game new, so at-start stacks and decks place their pieces
                edt(() -> {
                    GameModule.getGameModule().getGameState().setup(false);
                    GameModule.getGameModule().getGameState().setup(true);
                });
                edt(Oracle::chooseMissingBoards);
                edt(() -> GameModule.getGameModule().getGameState().saveGame(new File(args[2])));
                edt(() -> {
                    result.put("saved", args[2]);
                    listPieces(result);
                });
                break;
            default: // write-save
                startNewGame();
                edt(() -> placePieces(new File(args[3]), result));
                edt(() -> GameModule.getGameModule().getGameState().saveGame(new File(args[2])));
                edt(() -> {
                    result.put("saved", args[2]);
                    result.put("maps", boardsInUse());
                });
            }
        }
        catch (Throwable t) {
            result.put("ok", false);
            result.put("error", describe(t));
            code = 2;
        }
        result.put("dialogs", snapshot(DIALOGS));
        result.put("log", snapshot(LOG));
        final String[] chat = {""};
        try {
            edt(() -> chat[0] = chatText());
        }
        catch (Throwable t) {
            chat[0] = "(chat unavailable: " + t + ")";
        }
        result.put("chat", chat[0]);
        out.println(Json.write(result));
        out.flush();
        Runtime.getRuntime().halt(code);
    }

    /** The stacks of the threads that matter when a call hangs (main, the AWT event queue). */
    private static Map<String, Object> threadDump() {
        Map<String, Object> out = new TreeMap<>();
        for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
            String name = e.getKey().getName();
            if (!name.equals("main") && !name.startsWith("AWT-EventQueue")) {
                continue;
            }
            List<String> frames = new ArrayList<>();
            StackTraceElement[] st = e.getValue();
            for (int i = 0; i < Math.min(st.length, 40); i++) {
                frames.add(st[i].toString());
            }
            out.put(name, frames);
        }
        return out;
    }

    private static void need(String[] args, int n) {
        if (args.length < n) {
            throw new IllegalArgumentException(args[0] + " needs " + (n - 1) + " arguments");
        }
    }

    private static List<Object> snapshot(List<?> list) {
        synchronized (list) {
            return new ArrayList<>(list);
        }
    }

    private static String describe(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (sb.length() > 0) {
                sb.append(" <- ");
            }
            sb.append(c.getClass().getName()).append(": ").append(c.getMessage());
            StackTraceElement[] st = c.getStackTrace();
            if (st.length > 0) {
                sb.append(" at ").append(st[0]);
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return sb.toString();
    }

    // ------------------------------------------------------------------------------------------
    // bootstrap: config, menu manager, dialog killer, log capture

    /**
     * VASSAL's standard configuration, except that the "java" it would launch is a no-op: after a
     * save VASSAL starts a second JVM (ModuleManagerUpdateHelper) to tell the Module Manager, and
     * that JVM knows nothing of our private VASSAL.conf (it would write ~/.VASSAL).
     */
    static final class OracleConfig extends StandardConfig {
        OracleConfig() throws java.io.IOException {
            super();
        }

        @Override
        public java.nio.file.Path getJavaBinPath() {
            return java.nio.file.Path.of(System.getProperty("oracle.noop", "/bin/true"));
        }
    }

    private static void bootstrap() throws Exception {
        Info.setConfig(new OracleConfig());
        Constructor<?> mm = Class.forName("VASSAL.launch.Player$PlayerMenuManager").getDeclaredConstructor();
        mm.setAccessible(true);
        mm.newInstance();

        Toolkit.getDefaultToolkit().addAWTEventListener(ev -> {
            if (ev.getID() != WindowEvent.WINDOW_OPENED) {
                return;
            }
            Window w = ((WindowEvent) ev).getWindow();
            if (!(w instanceof Dialog)) {
                return;
            }
            Map<String, Object> d = new LinkedHashMap<>();
            d.put("title", ((Dialog) w).getTitle());
            List<String> texts = new ArrayList<>();
            collectText(w, texts);
            d.put("text", String.join("\n", texts));
            DIALOGS.add(d);
            w.setVisible(false);
            w.dispose();
        }, AWTEvent.WINDOW_EVENT_MASK);

        ch.qos.logback.classic.Logger root =
            (ch.qos.logback.classic.Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        AppenderBase<ILoggingEvent> capture = new AppenderBase<ILoggingEvent>() {
            @Override
            protected void append(ILoggingEvent e) {
                if (!e.getLevel().isGreaterOrEqual(Level.WARN)) {
                    return;
                }
                StringBuilder sb = new StringBuilder();
                sb.append(e.getLevel()).append(' ').append(e.getLoggerName()).append(": ").append(e.getFormattedMessage());
                for (IThrowableProxy tp = e.getThrowableProxy(); tp != null; tp = tp.getCause()) {
                    sb.append(" | ").append(tp.getClassName()).append(": ").append(tp.getMessage());
                }
                LOG.add(sb.toString());
            }
        };
        capture.setContext(root.getLoggerContext());
        capture.start();
        root.addAppender(capture);
    }

    private static void collectText(Component c, List<String> texts) {
        String t = null;
        if (c instanceof JLabel) {
            t = ((JLabel) c).getText();
        }
        else if (c instanceof JTextComponent) {
            t = ((JTextComponent) c).getText();
        }
        else if (c instanceof AbstractButton) {
            t = null; // button captions are not the message
        }
        else if (c instanceof JOptionPane) {
            Object m = ((JOptionPane) c).getMessage();
            if (m instanceof String) {
                t = (String) m;
            }
        }
        if (t != null && !t.isBlank() && !texts.contains(t.strip())) {
            texts.add(t.strip());
        }
        if (c instanceof Container) {
            for (Component child : ((Container) c).getComponents()) {
                collectText(child, texts);
            }
        }
    }

    private static String chatText() {
        try {
            GameModule gm = GameModule.getGameModule();
            if (gm == null || gm.getChatter() == null) {
                return "";
            }
            Chatter ch = gm.getChatter();
            Field f = Chatter.class.getDeclaredField("doc");
            f.setAccessible(true);
            javax.swing.text.Document doc = (javax.swing.text.Document) f.get(ch);
            return doc == null ? "" : doc.getText(0, doc.getLength()).strip();
        }
        catch (Throwable t) {
            return "(chat unavailable: " + t + ")";
        }
    }

    @FunctionalInterface
    private interface Step {
        void run() throws Exception;
    }

    /** Run one step on the event dispatch thread, then let the events it queued run too. */
    private static void edt(Step step) throws Exception {
        final Throwable[] failure = new Throwable[1];
        SwingUtilities.invokeAndWait(() -> {
            try {
                step.run();
            }
            catch (Throwable t) {
                failure[0] = t;
            }
        });
        flushEdt();
        if (failure[0] instanceof Exception) {
            throw (Exception) failure[0];
        }
        if (failure[0] instanceof Error) {
            throw (Error) failure[0];
        }
    }

    private static void flushEdt() throws Exception {
        for (int i = 0; i < 3; i++) {
            SwingUtilities.invokeAndWait(() -> { });
        }
    }

    private static void loadModule(File module, Map<String, Object> result) throws Exception {
        if (!module.isFile()) {
            throw new IllegalArgumentException("module not found: " + module);
        }
        long t0 = System.nanoTime();
        GameModule.init(new GameModule(new DataArchive(module.getPath())));
        result.put("load_seconds", (System.nanoTime() - t0) / 1e9);
    }

    // ------------------------------------------------------------------------------------------
    // module

    private static void describeModule(File module, Map<String, Object> result) throws Exception {
        GameModule gm = GameModule.getGameModule();
        Map<String, Object> mod = new LinkedHashMap<>();
        mod.put("name", gm.getAttributeValueString("name"));
        mod.put("version", gm.getAttributeValueString("version"));
        mod.put("VassalVersion", gm.getAttributeValueString("VassalVersion"));
        result.put("module", mod);

        List<Object> maps = new ArrayList<>();
        for (VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
            maps.add(mapJson(m));
        }
        result.put("maps", maps);

        List<Object> slots = new ArrayList<>();
        for (PieceSlot s : gm.getAllDescendantComponentsOf(PieceSlot.class)) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("name", s.getConfigureName());
            o.put("gpid", s.getGpId());
            GamePiece p = s.getPiece();
            o.put("valid", p != null);
            if (p != null) {
                o.put("piece_name", p.getName());
                o.put("type", p.getType());
                o.put("state", p.getState());
            }
            slots.add(o);
        }
        result.put("piece_slots", slots);

        List<Object> protos = new ArrayList<>();
        for (PrototypeDefinition d : gm.getAllDescendantComponentsOf(PrototypeDefinition.class)) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("name", d.getConfigureName());
            GamePiece p = null;
            try {
                p = d.getPiece();
            }
            catch (RuntimeException e) {
                o.put("error", describe(e));
            }
            o.put("valid", p != null);
            if (p != null) {
                o.put("type", p.getType());
                o.put("state", p.getState());
            }
            protos.add(o);
        }
        result.put("prototypes", protos);

        Map<String, Integer> counts = new TreeMap<>();
        countComponents(gm, counts);
        result.put("component_counts", counts);

        result.put("roundtrip", roundTrip(module, gm));
    }

    private static void countComponents(Buildable b, Map<String, Integer> counts) {
        counts.merge(b.getClass().getName(), 1, Integer::sum);
        if (b instanceof AbstractBuildable) {
            for (Buildable c : ((AbstractBuildable) b).getBuildables()) {
                countComponents(c, counts);
            }
        }
    }

    private static Map<String, Object> attrs(Object o) {
        Map<String, Object> a = new LinkedHashMap<>();
        if (o instanceof AbstractBuildable) {
            AbstractBuildable b = (AbstractBuildable) o;
            for (String n : b.getAttributeNames()) {
                try {
                    a.put(n, b.getAttributeValueString(n));
                }
                catch (RuntimeException e) {
                    a.put(n, null);
                }
            }
        }
        return a;
    }

    private static Map<String, Object> mapJson(VASSAL.build.module.Map m) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("name", m.getMapName());
        o.put("id", m.getIdentifier());
        o.put("class", m.getClass().getName());
        Dimension edge = m.getEdgeBuffer();
        o.put("edge", List.of(edge.width, edge.height));
        BoardPicker picker = m.getBoardPicker();
        List<Object> boards = new ArrayList<>();
        if (picker != null) {
            for (String bn : picker.getAllowableBoardNames()) {
                Board b = picker.getBoard(bn);
                if (b != null) {
                    boards.add(boardJson(b, false));
                }
            }
        }
        o.put("boards", boards);
        List<Object> inUse = new ArrayList<>();
        for (Board b : m.getBoards()) {
            inUse.add(boardJson(b, true));
        }
        o.put("boards_in_use", inUse);
        return o;
    }

    private static Map<String, Object> boardJson(Board b, boolean withBounds) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("name", b.getName());
        Dimension size = b.getSize();
        o.put("width", size.width);
        o.put("height", size.height);
        o.put("reversible", b.getAttributeValueString("reversible"));
        o.put("image", b.getAttributeValueString("image"));
        if (withBounds) {
            Rectangle r = b.bounds();
            o.put("bounds", List.of(r.x, r.y, r.width, r.height));
            o.put("reversed", b.isReversed());
        }
        MapGrid g = b.getGrid();
        o.put("grid", g == null ? null : componentJson(g));
        return o;
    }

    /** A component with its class, attributes and (recursively) its child components. */
    private static Map<String, Object> componentJson(Object c) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("class", c.getClass().getName());
        o.put("attrs", attrs(c));
        List<Object> children = new ArrayList<>();
        if (c instanceof AbstractBuildable) {
            for (Buildable child : ((AbstractBuildable) c).getBuildables()) {
                children.add(componentJson(child));
            }
        }
        o.put("children", children);
        return o;
    }

    // ------------------------------------------------------------------------------------------
    // buildFile round trip: what the engine writes back vs what the module file says

    private static Document originalBuildFile(File module) throws Exception {
        try (ZipFile zf = new ZipFile(module)) {
            String entry = "buildFile.xml";
            ZipEntry md = zf.getEntry("moduledata");
            if (md != null) {
                String text = new String(zf.getInputStream(md).readAllBytes(), StandardCharsets.UTF_8);
                java.util.regex.Matcher mt =
                    java.util.regex.Pattern.compile("<VassalVersion>\\s*(\\d+)\\.(\\d+)").matcher(text);
                if (mt.find()) {
                    int major = Integer.parseInt(mt.group(1));
                    int minor = Integer.parseInt(mt.group(2));
                    if (major < 3 || (major == 3 && minor < 5)) {
                        entry = "buildFile";
                    }
                }
            }
            if (zf.getEntry(entry) == null) {
                entry = zf.getEntry("buildFile.xml") != null ? "buildFile.xml" : "buildFile";
            }
            try (InputStream in = zf.getInputStream(zf.getEntry(entry))) {
                return Builder.createDocument(in);
            }
        }
    }

    private static Map<String, Object> roundTrip(File module, GameModule gm) throws Exception {
        Document orig = originalBuildFile(module);
        Document out = Builder.createNewDocument();
        out.appendChild(gm.getBuildElement(out));
        Map<String, List<Object>> diff = new LinkedHashMap<>();
        for (String k : List.of("dropped_elements", "dropped_attributes", "changed_attributes", "changed_text",
                                "added_elements", "added_attributes")) {
            diff.put(k, new ArrayList<>());
        }
        compare(orig.getDocumentElement(), out.getDocumentElement(), label(orig.getDocumentElement(), 0), diff);
        Map<String, Object> r = new LinkedHashMap<>(diff);
        return r;
    }

    private static String label(Element e, int index) {
        String tag = e.getTagName();
        String simple = tag.substring(tag.lastIndexOf('.') + 1);
        String name = null;
        for (String key : List.of("name", "mapName", "entryName", "configureName")) {
            if (e.hasAttribute(key) && !e.getAttribute(key).isEmpty()) {
                name = e.getAttribute(key);
                break;
            }
        }
        return simple + "[" + index + "]" + (name == null ? "" : "(" + name + ")");
    }

    private static List<Element> childElements(Element e) {
        List<Element> list = new ArrayList<>();
        for (Node n = e.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element) {
                list.add((Element) n);
            }
        }
        return list;
    }

    private static void compare(Element a, Element b, String path, Map<String, List<Object>> diff) {
        NamedNodeMap aa = a.getAttributes();
        for (int i = 0; i < aa.getLength(); i++) {
            Node at = aa.item(i);
            String n = at.getNodeName();
            if (!b.hasAttribute(n)) {
                diff.get("dropped_attributes").add(List.of(path, n, at.getNodeValue()));
            }
            else if (!b.getAttribute(n).equals(at.getNodeValue())) {
                diff.get("changed_attributes").add(List.of(path, n, at.getNodeValue(), b.getAttribute(n)));
            }
        }
        NamedNodeMap ba = b.getAttributes();
        for (int i = 0; i < ba.getLength(); i++) {
            Node at = ba.item(i);
            if (!a.hasAttribute(at.getNodeName())) {
                diff.get("added_attributes").add(List.of(path, at.getNodeName(), at.getNodeValue()));
            }
        }
        List<Element> ac = childElements(a);
        List<Element> bc = childElements(b);
        if (ac.isEmpty() && bc.isEmpty()) {
            String ta = Builder.getText(a);
            String tb = Builder.getText(b);
            if (!ta.equals(tb)) {
                diff.get("changed_text").add(List.of(path, ta, tb));
            }
        }
        // match the k-th child with a given key to the k-th child with the same key, where the key is
        // the tag plus the element's name (so reordered named children such as GlobalOptions'
        // <option name=...> still pair up)
        Map<String, List<Element>> byKey = new HashMap<>();
        for (Element e : bc) {
            byKey.computeIfAbsent(key(e), k -> new ArrayList<>()).add(e);
        }
        Map<String, Integer> seen = new HashMap<>();
        Map<String, Integer> tagIndex = new HashMap<>();
        for (Element e : ac) {
            int k = seen.merge(key(e), 1, Integer::sum) - 1;
            int t = tagIndex.merge(e.getTagName(), 1, Integer::sum) - 1;
            List<Element> cands = byKey.getOrDefault(key(e), List.of());
            String childPath = path + "/" + label(e, t);
            if (k < cands.size()) {
                compare(e, cands.get(k), childPath, diff);
            }
            else {
                diff.get("dropped_elements").add(childPath);
            }
        }
        for (Map.Entry<String, List<Element>> en : byKey.entrySet()) {
            int have = seen.getOrDefault(en.getKey(), 0);
            for (int k = have; k < en.getValue().size(); k++) {
                diff.get("added_elements").add(path + "/" + label(en.getValue().get(k), k));
            }
        }
    }

    private static String key(Element e) {
        String name = e.hasAttribute("name") ? e.getAttribute("name") : "";
        return e.getTagName() + " | " + name;
    }

    // ------------------------------------------------------------------------------------------
    // games

    /** A new game (GameState.setup(true)); a map whose board was not chosen gets its first board. */
    private static void startNewGame() throws Exception {
        edt(() -> GameModule.getGameModule().getGameState().setup(true));
        edt(Oracle::chooseMissingBoards);
    }

    private static void chooseMissingBoards() {
        for (VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
            if (m.getBoardCount() == 0 && m.getBoardPicker() != null) {
                String[] names = m.getBoardPicker().getAllowableBoardNames();
                if (names.length > 0) {
                    Board b = m.getBoardPicker().getBoard(names[0]);
                    b.setLocation(0, 0);
                    m.getBoardPicker().setBoards(List.of(b));
                }
            }
        }
    }

    private static VASSAL.build.module.Map findMap(String name) {
        VASSAL.build.module.Map m = VASSAL.build.module.Map.getMapById(name);
        if (m != null) {
            return m;
        }
        for (VASSAL.build.module.Map x : VASSAL.build.module.Map.getMapList()) {
            if (name.equals(x.getMapName())) {
                return x;
            }
        }
        throw new IllegalArgumentException("no map named " + name);
    }

    private static List<Object> boardsInUse() {
        List<Object> maps = new ArrayList<>();
        for (VASSAL.build.module.Map m : VASSAL.build.module.Map.getMapList()) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("name", m.getMapName());
            o.put("id", m.getIdentifier());
            Dimension edge = m.getEdgeBuffer();
            o.put("edge", List.of(edge.width, edge.height));
            List<Object> boards = new ArrayList<>();
            for (Board b : m.getBoards()) {
                Rectangle r = b.bounds();
                Map<String, Object> bo = new LinkedHashMap<>();
                bo.put("name", b.getName());
                bo.put("bounds", List.of(r.x, r.y, r.width, r.height));
                bo.put("reversed", b.isReversed());
                boards.add(bo);
            }
            o.put("boards", boards);
            maps.add(o);
        }
        return maps;
    }

    private static void locate(File points, Map<String, Object> result) throws Exception {
        result.put("maps", boardsInUse());
        List<Object> out = new ArrayList<>();
        Map<String, VASSAL.build.module.Map> cache = new HashMap<>();
        int lineNo = 0;
        for (String line : Files.readAllLines(points.toPath(), StandardCharsets.UTF_8)) {
            lineNo++;
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split("\t");
            if (f.length != 3) {
                throw new IllegalArgumentException(points + " line " + lineNo + ": expected map<TAB>x<TAB>y");
            }
            VASSAL.build.module.Map m = cache.computeIfAbsent(f[0], Oracle::findMap);
            Point p = new Point(Integer.parseInt(f[1].strip()), Integer.parseInt(f[2].strip()));
            String name = m.locationName(new Point(p));
            Point s = m.snapTo(new Point(p));
            Board b = m.findBoard(new Point(p));
            List<Object> row = new ArrayList<>();
            row.add(name);
            row.add(s.x);
            row.add(s.y);
            row.add(b == null ? null : b.getName());
            out.add(row);
        }
        result.put("fields", List.of("location", "snap_x", "snap_y", "board"));
        result.put("points", out);
    }

    private static Map<String, Object> pieceJson(GamePiece p) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("id", p.getId());
        o.put("name", p.getName());
        VASSAL.build.module.Map m = p.getMap();
        o.put("map", m == null ? null : m.getIdentifier());
        Point pos = p.getPosition();
        o.put("x", pos.x);
        o.put("y", pos.y);
        Board b = m == null ? null : m.findBoard(new Point(pos));
        o.put("board", b == null ? null : b.getName());
        o.put("location", m == null ? null : m.locationName(new Point(pos)));
        Object ln = p.getProperty("LocationName");
        o.put("location_property", ln == null ? null : ln.toString());
        Stack parent = p.getParent();
        o.put("stack", parent == null ? null : parent.getId());
        o.put("type", p.getType());
        o.put("state", p.getState());
        return o;
    }

    private static void listPieces(Map<String, Object> result) {
        GameState gs = GameModule.getGameModule().getGameState();
        List<Object> pieces = new ArrayList<>();
        List<Object> stacks = new ArrayList<>();
        for (GamePiece p : gs.getAllPieces()) {
            if (p instanceof Stack) {
                Stack s = (Stack) p;
                Map<String, Object> o = new LinkedHashMap<>();
                o.put("id", s.getId());
                o.put("class", s.getClass().getName());
                o.put("map", s.getMap() == null ? null : s.getMap().getIdentifier());
                o.put("x", s.getPosition().x);
                o.put("y", s.getPosition().y);
                List<Object> kids = new ArrayList<>();
                for (int i = 0; i < s.getPieceCount(); i++) {
                    kids.add(s.getPieceAt(i).getId());
                }
                o.put("pieces", kids);
                stacks.add(o);
            }
            else {
                pieces.add(pieceJson(p));
            }
        }
        result.put("pieces", pieces);
        result.put("stacks", stacks);
        result.put("maps", boardsInUse());
    }

    private static void executeSave(File save) throws Exception {
        GameState gs = GameModule.getGameModule().getGameState();
        Command c = gs.decodeSavedGame(save);
        if (c == null) {
            throw new IllegalArgumentException("not a saved game: " + save);
        }
        c.execute();
    }

    @SuppressWarnings("unchecked")
    private static void placePieces(File placementsFile, Map<String, Object> result) throws Exception {
        Object parsed = Json.parse(new String(Files.readAllBytes(placementsFile.toPath()), StandardCharsets.UTF_8));
        if (!(parsed instanceof Map)) {
            throw new IllegalArgumentException(placementsFile + ": expected a JSON object {\"pieces\": [...]}");
        }
        Map<String, Object> spec = (Map<String, Object>) parsed;
        GameModule gm = GameModule.getGameModule();
        List<PieceSlot> slots = gm.getAllDescendantComponentsOf(PieceSlot.class);
        List<Object> placed = new ArrayList<>();
        Object list = spec.getOrDefault("pieces", List.of());
        int i = 0;
        for (Object item : (List<Object>) list) {
            Map<String, Object> pl = (Map<String, Object>) item;
            String slotKey = String.valueOf(pl.get("slot"));
            PieceSlot slot = null;
            for (PieceSlot s : slots) {
                if (slotKey.equals(s.getGpId())) {
                    slot = s;
                    break;
                }
            }
            if (slot == null) {
                for (PieceSlot s : slots) {
                    if (slotKey.equals(s.getConfigureName())) {
                        slot = s;
                        break;
                    }
                }
            }
            if (slot == null || slot.getPiece() == null) {
                throw new IllegalArgumentException("placement " + i + ": no valid piece slot with gpid or name " + slotKey);
            }
            VASSAL.build.module.Map m = findMap(String.valueOf(pl.get("map")));
            Point p = new Point(((Number) pl.get("x")).intValue(), ((Number) pl.get("y")).intValue());
            if (Boolean.TRUE.equals(pl.get("snap"))) {
                p = m.snapTo(p);
            }
            GamePiece piece = PieceCloner.getInstance().clonePiece(slot.getPiece());
            if (pl.get("id") != null) {
                piece.setId(String.valueOf(pl.get("id")));
            }
            m.placeOrMerge(piece, p);
            Map<String, Object> o = pieceJson(piece);
            o.put("slot", slotKey);
            placed.add(o);
            i++;
        }
        result.put("pieces", placed);
    }

    // ------------------------------------------------------------------------------------------
    // log-steps: a log written by the engine as a player makes it, one logged Step per step

    private static Object blField(String name) throws Exception {
        Field f = BasicLogger.class.getDeclaredField(name);
        f.setAccessible(true);
        return f.get(GameModule.getGameModule().getBasicLogger());
    }

    private static void setBlField(String name, Object value) throws Exception {
        Field f = BasicLogger.class.getDeclaredField(name);
        f.setAccessible(true);
        f.set(GameModule.getGameModule().getBasicLogger(), value);
    }

    private static int loggedCount() throws Exception {
        return ((List<?>) blField("logOutput")).size();
    }

    private static PredefinedSetup findSetup(String name) {
        List<PredefinedSetup> all = GameModule.getGameModule().getAllDescendantComponentsOf(PredefinedSetup.class);
        List<PredefinedSetup> files = new ArrayList<>();
        for (PredefinedSetup ps : all) {
            if (name.equals(ps.getConfigureName())) {
                return ps;
            }
            if (!ps.isMenu() && ps.isUseFile()) {
                files.add(ps);
            }
        }
        if (name.matches("#\\d+") && Integer.parseInt(name.substring(1)) < files.size()) {
            return files.get(Integer.parseInt(name.substring(1)));
        }
        throw new IllegalArgumentException("no predefined set-up named " + name);
    }

    /** The player window shown and predefined set-up NAME launched as a player does (its background load awaited). */
    private static void launchSetup(String name, Map<String, Object> result) throws Exception {
        edt(() -> {
            Prefs prefs = GameModule.getGameModule().getPrefs();
            for (String key : new String[] {BasicLogger.PROMPT_NEW_LOG_START, BasicLogger.PROMPT_NEW_LOG_END,
                                            SaveMetaData.PROMPT_LOG_COMMENT}) {
                if (prefs.getOption(key) != null) {
                    prefs.setValue(key, Boolean.FALSE);
                }
            }
            javax.swing.JFrame f = GameModule.getGameModule().getPlayerWindow();
            f.setBounds(0, 0, 1600, 1000);
            f.setVisible(true);
        });
        final PredefinedSetup[] ps = new PredefinedSetup[1];
        edt(() -> ps[0] = findSetup(name));
        result.put("setup", ps[0].getConfigureName());
        result.put("setup_file", ps[0].getFileName());
        edt(() -> ps[0].launch());
        final boolean[] busy = {true};
        for (int i = 0; i < 600 && busy[0]; i++) {
            Thread.sleep(100);
            edt(() -> busy[0] = GameModule.getGameModule().getGameState().isLoadingInBackground());
        }
        if (busy[0]) {
            throw new IllegalStateException("set-up " + name + " still loading after 60 s");
        }
        edt(() -> {
            if (!GameModule.getGameModule().getGameState().isGameStarted()) {
                throw new IllegalStateException("set-up " + name + " did not start a game");
            }
        });
    }

    /** BasicLogger.beginOutput() without its file chooser: the log starts from the game as it is. */
    private static void beginLog(File out) throws Exception {
        GameModule gm = GameModule.getGameModule();
        Command begin = gm.getGameState().getRestoreCommand();
        if (begin == null) {
            throw new IllegalStateException("no restore command: the game has not started");
        }
        setBlField("outputFile", out);
        ((List<?>) blField("logOutput")).clear();
        setBlField("beginningState", begin);
        setBlField("dontUndoPast", 0);
        ((javax.swing.Action) blField("endLogAction")).setEnabled(true);
        ((javax.swing.Action) blField("newLogAction")).setEnabled(false);
        gm.setGameFile(out.getName(), GameModule.GameFileMode.LOGGING_GAME);
        setBlField("metadata", new SaveMetaData());
    }

    private static GamePiece findPiece(String key, Collection<GamePiece> among) {
        for (GamePiece p : among) {
            if (!(p instanceof Stack) && key.equals(p.getId())) {
                return p;
            }
        }
        for (GamePiece p : among) {
            if (!(p instanceof Stack) && key.equals(p.getName())) {
                return p;
            }
        }
        return null;
    }

    /** Where a step takes a piece: "to" a location name, "x","y" on the map, or "dx","dy" from where it is. */
    private static Point destination(Map<String, Object> st, GamePiece piece, VASSAL.build.module.Map m) {
        Point to = null;
        if (st.get("to") != null) {
            String loc = String.valueOf(st.get("to"));
            for (Board b : m.getBoards()) {
                if (b.getGrid() == null) {
                    continue;
                }
                try {
                    Point p = b.getGrid().getLocation(loc);
                    Rectangle r = b.bounds();
                    to = new Point(p.x + r.x, p.y + r.y);
                    break;
                }
                catch (MapGrid.BadCoords e) {
                    // another board
                }
            }
            if (to == null) {
                throw new IllegalArgumentException("no location named " + loc + " on " + m.getMapName());
            }
        }
        else if (st.get("dx") != null || st.get("dy") != null) {
            Point at = piece.getPosition();
            to = new Point(at.x + ((Number) st.getOrDefault("dx", 0L)).intValue(),
                           at.y + ((Number) st.getOrDefault("dy", 0L)).intValue());
        }
        else if (st.get("x") != null && st.get("y") != null) {
            to = new Point(((Number) st.get("x")).intValue(), ((Number) st.get("y")).intValue());
        }
        else {
            throw new IllegalArgumentException("a step that moves a piece needs \"to\", \"x\" and \"y\", or \"dx\"/\"dy\"");
        }
        return Boolean.TRUE.equals(st.get("snap")) ? m.snapTo(to) : to;
    }

    private static void where(Map<String, Object> o, String prefix, GamePiece p) {
        Map<String, Object> pj = pieceJson(p);
        o.put(prefix, pj.get("location"));
        o.put(prefix + "_map", pj.get("map"));
        o.put(prefix + "_xy", List.of(pj.get("x"), pj.get("y")));
    }

    /** A piece moved as the shared harness's log-moves moves it: Map.placeOrMerge, then sendAndLog. */
    private static void moveStep(Map<String, Object> st, Map<String, Object> o) {
        String key = String.valueOf(st.get("piece"));
        GamePiece piece = findPiece(key, GameModule.getGameModule().getGameState().getAllPieces());
        if (piece == null) {
            throw new IllegalArgumentException("no piece with id or name " + key);
        }
        VASSAL.build.module.Map m = st.get("map") == null ? piece.getMap() : findMap(String.valueOf(st.get("map")));
        Point to = destination(st, piece, m);
        o.put("piece", piece.getId());
        o.put("name", piece.getName());
        where(o, "from", piece);
        Command c = m.placeOrMerge(piece, to);
        GameModule.getGameModule().sendAndLog(c);
        where(o, "to", piece);
        o.put("command", c == null ? null : c.getClass().getName());
    }

    private static TurnTracker findTracker(Object name) {
        List<TurnTracker> all = GameModule.getGameModule().getAllDescendantComponentsOf(TurnTracker.class);
        for (TurnTracker t : all) {
            if (name == null || String.valueOf(name).equals(t.getConfigureName()) || String.valueOf(name).equals(t.getId())) {
                return t;
            }
        }
        throw new IllegalArgumentException(name == null ? "the module has no Turn Tracker" : "no Turn Tracker named " + name);
    }

    private static String turnString(TurnTracker t) throws Exception {
        java.lang.reflect.Method m = TurnTracker.class.getDeclaredMethod("getTurnString");
        m.setAccessible(true);
        return (String) m.invoke(t);
    }

    /** The Turn Tracker's "+" (or "-") button pressed: TurnWidget.doNext logs the new turn with its report. */
    private static void turnStep(Map<String, Object> st, Map<String, Object> o) throws Exception {
        String way = String.valueOf(st.get("turn"));
        if (!way.equals("next") && !way.equals("prev")) {
            throw new IllegalArgumentException("a turn step is {\"turn\": \"next\"} or {\"turn\": \"prev\"}, not " + way);
        }
        TurnTracker t = findTracker(st.get("tracker"));
        o.put("tracker", t.getId());
        o.put("from_state", t.getState());
        o.put("from_turn", turnString(t));
        Field wf = TurnTracker.class.getDeclaredField("turnWidget");
        wf.setAccessible(true);
        Object widget = wf.get(t);
        Field bf = widget.getClass().getDeclaredField(way.equals("next") ? "nextButton" : "prevButton");
        bf.setAccessible(true);
        AbstractButton button = (AbstractButton) bf.get(widget);
        if (button == null) {
            throw new IllegalStateException("the Turn Tracker's buttons are not made (has the game started?)");
        }
        button.doClick();
        o.put("to_state", t.getState());
        o.put("to_turn", turnString(t));
    }

    /**
     * A chit drawn from a deck as a player drags it out: the deck's drawCards (the chit named by
     * "piece", or with "top" the deck's top piece, set as its next draw, as "Draw specific card"
     * does; neither: the deck draws as it would for a player), the drawn piece put in the
     * DragBuffer and dropped through the destination map's PieceMover.movePieces, then sendAndLog.
     */
    @SuppressWarnings("unchecked")
    private static void drawStep(Map<String, Object> st, Map<String, Object> o) throws Exception {
        String deckName = String.valueOf(st.get("draw"));
        DrawPile pile = DrawPile.findDrawPile(deckName);
        if (pile == null || pile.getDeck() == null) {
            throw new IllegalArgumentException("no deck named " + deckName);
        }
        Deck deck = pile.getDeck();
        o.put("deck", deckName);
        o.put("deck_count_before", deck.getPieceCount());
        Field nd = Deck.class.getDeclaredField("nextDraw");
        nd.setAccessible(true);
        o.put("deck_top_before", deck.getPieceCount() == 0 ? null : deck.getPieceAt(deck.getPieceCount() - 1).getId());
        if (st.get("piece") != null || Boolean.TRUE.equals(st.get("top"))) {
            GamePiece chit = st.get("piece") != null ? findPiece(String.valueOf(st.get("piece")), deck.asList())
                : deck.getPieceCount() == 0 ? null : deck.getPieceAt(deck.getPieceCount() - 1);
            if (chit == null) {
                throw new IllegalArgumentException((st.get("piece") != null ? "no piece " + st.get("piece") + " in" : "no piece on top of")
                    + " deck " + deckName);
            }
            List<GamePiece> next = new ArrayList<>();
            next.add(chit);
            nd.set(deck, next);
        }
        PieceIterator it = deck.drawCards();
        nd.set(deck, null);
        if (!it.hasMoreElements()) {
            throw new IllegalStateException("deck " + deckName + " is empty");
        }
        GamePiece piece = it.nextPiece();
        VASSAL.build.module.Map m = st.get("map") == null ? deck.getMap() : findMap(String.valueOf(st.get("map")));
        Point to = destination(st, piece, m);
        o.put("piece", piece.getId());
        o.put("name", piece.getName());
        where(o, "from", piece);
        List<PieceMover> movers = m.getComponentsOf(PieceMover.class);
        if (movers.isEmpty()) {
            throw new IllegalStateException("map " + m.getMapName() + " has no PieceMover");
        }
        DragBuffer.getBuffer().clear();
        DragBuffer.getBuffer().add(piece);
        Command c = movers.get(0).movePieces(m, to);
        DragBuffer.getBuffer().clear();
        GameModule.getGameModule().sendAndLog(c);
        where(o, "to", piece);
        o.put("deck_count_after", deck.getPieceCount());
        o.put("command", c == null ? null : c.getClass().getName());
    }

    @SuppressWarnings("unchecked")
    private static void logSteps(String[] args, Map<String, Object> result) throws Exception {
        final File out = new File(args[3]);
        final File stepsFile = new File(args[4]);
        Object parsed = Json.parse(new String(Files.readAllBytes(stepsFile.toPath()), StandardCharsets.UTF_8));
        if (!(parsed instanceof Map) || !(((Map<String, Object>) parsed).get("steps") instanceof List)) {
            throw new IllegalArgumentException(stepsFile + ": expected a JSON object {\"steps\": [...]}");
        }
        List<Object> steps = (List<Object>) ((Map<String, Object>) parsed).get("steps");
        launchSetup(args[2], result);
        edt(() -> beginLog(out));
        List<Object> done = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            final Map<String, Object> st = (Map<String, Object>) steps.get(i);
            final Map<String, Object> o = new LinkedHashMap<>();
            final int k = i + 1;
            o.put("step", k);
            final int[] before = new int[1];
            edt(() -> {
                before[0] = loggedCount();
                if (st.get("turn") != null) {
                    o.put("kind", "turn");
                    turnStep(st, o);
                }
                else if (st.get("draw") != null) {
                    o.put("kind", "draw");
                    drawStep(st, o);
                }
                else if (st.get("piece") != null) {
                    o.put("kind", "move");
                    moveStep(st, o);
                }
                else {
                    throw new IllegalArgumentException("step " + k + ": expected \"piece\", \"turn\" or \"draw\"");
                }
            });
            edt(() -> o.put("logged", loggedCount() - before[0]));
            done.add(o);
        }
        result.put("steps", done);
        edt(() -> {
            result.put("logged_commands", loggedCount());
            GameModule.getGameModule().getBasicLogger().write();
            setBlField("outputFile", null);
            setBlField("beginningState", null);
            result.put("written", out.getPath());
        });
    }

    // ------------------------------------------------------------------------------------------
    // a small JSON writer/reader (the oracle has no dependencies besides VASSAL's own)

    static final class Json {
        private final String s;
        private int i;

        private Json(String s) {
            this.s = s;
        }

        static String write(Object o) {
            StringBuilder sb = new StringBuilder();
            write(o, sb);
            return sb.toString();
        }

        @SuppressWarnings("unchecked")
        private static void write(Object o, StringBuilder sb) {
            if (o == null) {
                sb.append("null");
            }
            else if (o instanceof String) {
                quote((String) o, sb);
            }
            else if (o instanceof Boolean || o instanceof Integer || o instanceof Long) {
                sb.append(o);
            }
            else if (o instanceof Number) {
                double d = ((Number) o).doubleValue();
                sb.append(Double.isFinite(d) ? Double.toString(d) : "null");
            }
            else if (o instanceof Map) {
                sb.append('{');
                boolean first = true;
                for (Map.Entry<Object, Object> e : ((Map<Object, Object>) o).entrySet()) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    quote(String.valueOf(e.getKey()), sb);
                    sb.append(':');
                    write(e.getValue(), sb);
                }
                sb.append('}');
            }
            else if (o instanceof Collection) {
                sb.append('[');
                boolean first = true;
                for (Object x : (Collection<Object>) o) {
                    if (!first) {
                        sb.append(',');
                    }
                    first = false;
                    write(x, sb);
                }
                sb.append(']');
            }
            else {
                quote(o.toString(), sb);
            }
        }

        private static void quote(String str, StringBuilder sb) {
            sb.append('"');
            for (int k = 0; k < str.length(); k++) {
                char c = str.charAt(k);
                switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                default:
                    if (c < 0x20 || c >= 0x7f) {
                        sb.append(String.format("\\u%04x", (int) c));
                    }
                    else {
                        sb.append(c);
                    }
                }
            }
            sb.append('"');
        }

        static Object parse(String text) {
            Json p = new Json(text);
            Object v = p.value();
            p.ws();
            if (p.i != p.s.length()) {
                throw p.error("trailing text");
            }
            return v;
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException("bad JSON at offset " + i + ": " + what);
        }

        private void ws() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private Object value() {
            ws();
            if (i >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(i);
            if (c == '{') {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                ws();
                if (s.charAt(i) == '}') {
                    i++;
                    return m;
                }
                while (true) {
                    ws();
                    String k = string();
                    ws();
                    expect(':');
                    m.put(k, value());
                    ws();
                    if (s.charAt(i) == ',') {
                        i++;
                        continue;
                    }
                    expect('}');
                    return m;
                }
            }
            if (c == '[') {
                i++;
                List<Object> l = new ArrayList<>();
                ws();
                if (s.charAt(i) == ']') {
                    i++;
                    return l;
                }
                while (true) {
                    l.add(value());
                    ws();
                    if (s.charAt(i) == ',') {
                        i++;
                        continue;
                    }
                    expect(']');
                    return l;
                }
            }
            if (c == '"') {
                return string();
            }
            if (s.startsWith("true", i)) {
                i += 4;
                return Boolean.TRUE;
            }
            if (s.startsWith("false", i)) {
                i += 5;
                return Boolean.FALSE;
            }
            if (s.startsWith("null", i)) {
                i += 4;
                return null;
            }
            int start = i;
            while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
                i++;
            }
            if (start == i) {
                throw error("unexpected character " + c);
            }
            String num = s.substring(start, i);
            if (num.contains(".") || num.contains("e") || num.contains("E")) {
                return Double.parseDouble(num);
            }
            return Long.parseLong(num);
        }

        private void expect(char c) {
            if (i >= s.length() || s.charAt(i) != c) {
                throw error("expected " + c);
            }
            i++;
        }

        private String string() {
            expect('"');
            StringBuilder sb = new StringBuilder();
            while (i < s.length()) {
                char c = s.charAt(i++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c == '\\') {
                    char e = s.charAt(i++);
                    switch (e) {
                    case 'n':
                        sb.append('\n');
                        break;
                    case 't':
                        sb.append('\t');
                        break;
                    case 'r':
                        sb.append('\r');
                        break;
                    case 'b':
                        sb.append('\b');
                        break;
                    case 'f':
                        sb.append('\f');
                        break;
                    case 'u':
                        sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                        break;
                    default:
                        sb.append(e);
                    }
                }
                else {
                    sb.append(c);
                }
            }
            throw error("unterminated string");
        }
    }
}
