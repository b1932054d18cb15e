import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

/**
 * The JNI host of Tessera's C ABI: loads a profile, appends 1,000,000 rows (ids, kinds and a
 * text slot each) in one call, scrolls through windows, swipes a row open and deletes it,
 * applies a diff of a new snapshot, and checks every answer against values computed here
 * (prefix sums of the profile's estimated heights, a model of the list). Arrays cross in
 * bulk; windows land in a direct ByteBuffer of tess_visible_row structs (40 bytes each).
 *
 * Usage: java -Djava.library.path=DIR TesseraHost REPO [ROWS [--bench]]
 * (--bench: 5 rounds of 200,000 timed window queries each way instead of 1 round of 20,000)
 */
public final class TesseraHost {
    static { System.loadLibrary("tessera_jni"); }

    static native int abiVersion();
    static native long profileLoad(byte[] path);
    static native void profileDestroy(long profile);
    static native double[] profileEstimatedHeights(long profile, int platform);
    static native short[] profileCellKinds(long profile);
    static native long engineCreate(double[] estimatedHeights, double viewport);
    static native void engineDestroy(long engine);
    static native double engineInsert(long engine, long index, long[] ids, short[] kinds, byte[] utf8, long[] offsets, int slotsPerRow);
    static native double engineRemove(long engine, long start, long count);
    static native double engineInvalidate(long engine, long row);
    static native void engineUpdateFlags(long engine, long row, int set, int clear);
    static native double engineScrollTo(long engine, double offset);
    static native long[] engineState(long engine);
    static native void engineIds(long engine, long[] out);
    static native int engineWindow(long engine, double offset, double viewport, double overscan, ByteBuffer out);
    static native long differCreate();
    static native void differDestroy(long differ);
    static native long[] differOperations(long differ, long[] oldIds, long[] oldVersions, long[] newIds, long[] newVersions);
    // ABI version 2: the profile-driven engine, snapshots and swipes.
    static native long profileEngineCreate(long profile, int platform, double width, double viewport, double overscan);
    static native double engineAppendRows(long engine, long[] ids, short[] kinds, long[] versions, byte[] utf8, long[] offsets, int slotsPerRow);
    static native long[] engineMeasure(long engine, int budgetKind, long budget);
    static native double engineMeasureAll(long engine, int threads);
    static native int engineItems(long engine, ByteBuffer out, ByteBuffer sticky);
    static native long[] engineApply(long engine, long batch, long[] ids, short[] kinds, long[] versions, byte[] utf8, long[] offsets, int slotsPerRow);
    static native long batchCreate();
    static native void batchDestroy(long batch);
    static native long engineSwipe(long engine, long id, double width);
    static native double engineCommitSwipe(long engine, long id, long batch);
    static native long engineDirtyCount(long engine);

    static final int PLATFORM_ANDROID = 1;
    static final int ROW_SWIPE_OPEN = 0x8;
    static final int OP_REMOVE = 0, OP_INSERT = 1, OP_MOVE = 2, OP_CHANGE = 3;
    static final int ROW_BYTES = 40;

    static int checks = 0, failures = 0;

    static void check(boolean condition, String what) {
        checks++;
        if (!condition) {
            failures++;
            System.err.println("jni-host: check failed: " + what);
        }
    }

    /** The list as the host keeps it: ids and kinds, and the heights they imply. */
    static final class Model {
        long[] ids;
        short[] kinds;
        int count;
        final double[] estimates;

        Model(long[] ids, short[] kinds, double[] estimates) {
            this.ids = ids.clone();
            this.kinds = kinds.clone();
            this.count = ids.length;
            this.estimates = estimates;
        }

        double[] tops() {
            double[] tops = new double[count + 1];
            for (int i = 0; i < count; i++) tops[i + 1] = tops[i] + estimates[kinds[i]];
            return tops;
        }

        void remove(int at, int n) {
            System.arraycopy(ids, at + n, ids, at, count - at - n);
            System.arraycopy(kinds, at + n, kinds, at, count - at - n);
            count -= n;
        }

        void insert(int at, long[] newIds, short[] newKinds, int from, int n) {
            if (count + n > ids.length) {
                ids = Arrays.copyOf(ids, (count + n) * 2);
                kinds = Arrays.copyOf(kinds, (count + n) * 2);
            }
            System.arraycopy(ids, at, ids, at + n, count - at);
            System.arraycopy(kinds, at, kinds, at + n, count - at);
            System.arraycopy(newIds, from, ids, at, n);
            System.arraycopy(newKinds, from, kinds, at, n);
            count += n;
        }
    }

    /** The first row whose bottom is below y (binary search over the tops). */
    static int firstRowBelow(double[] tops, int count, double y) {
        int lo = 0, hi = count;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (tops[mid + 1] > y) hi = mid; else lo = mid + 1;
        }
        return lo;
    }

    /** Checks one window against the model. */
    static void checkWindow(long engine, Model m, double[] tops, ByteBuffer buffer, double offset, double viewport, double overscan) {
        int n = engineWindow(engine, offset, viewport, overscan, buffer);
        double start = Math.max(offset - overscan, 0), end = offset + viewport + overscan;
        int first = firstRowBelow(tops, m.count, start);
        int expected = 0;
        while (first + expected < m.count && tops[first + expected] < end) expected++;
        check(n == expected, "window at " + offset + ": " + n + " rows, expected " + expected);
        for (int i = 0; i < Math.min(n, expected); i++) {
            int r = first + i, at = i * ROW_BYTES;
            if (buffer.getLong(at) != r || buffer.getLong(at + 8) != m.ids[r] || buffer.getDouble(at + 16) != tops[r]
                    || buffer.getDouble(at + 24) != m.estimates[m.kinds[r]] || buffer.getShort(at + 32) != m.kinds[r]) {
                check(false, "window at " + offset + " row " + r);
                return;
            }
        }
    }

    public static void main(String[] args) {
        String repo = args[0];
        int rows = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        boolean bench = args.length > 2 && args[2].equals("--bench");
        check(abiVersion() == 2, "ABI version");

        long profile = profileLoad((repo + "/Profiles/george.json").getBytes(StandardCharsets.UTF_8));
        double[] estimates = profileEstimatedHeights(profile, PLATFORM_ANDROID);
        short[] cellKinds = profileCellKinds(profile);
        check(cellKinds.length > 2, "the profile has cell kinds");
        try {
            profileLoad((repo + "/Profiles/missing.json").getBytes(StandardCharsets.UTF_8));
            check(false, "a missing profile throws");
        } catch (RuntimeException e) {
            check(e.getMessage().startsWith("IO: tess_profile_load_path: path"), "message: " + e.getMessage());
        }

        // A million rows: ids, kinds and one text slot each, from one UTF-8 buffer.
        long[] ids = new long[rows];
        short[] kinds = new short[rows];
        long[] offsets = new long[rows + 1];
        StringBuilder text = new StringBuilder(rows * 16);
        for (int i = 0; i < rows; i++) {
            ids[i] = 3L * i + 1;
            kinds[i] = cellKinds[i % cellKinds.length];
            text.append("Payment ").append(i);
            offsets[i + 1] = text.length();  // ASCII: chars are bytes
        }
        byte[] utf8 = text.toString().getBytes(StandardCharsets.UTF_8);
        double viewport = 800, overscan = 250;
        long engine = engineCreate(estimates, viewport);
        long t0 = System.nanoTime();
        engineInsert(engine, -1, ids, kinds, utf8, offsets, 1);
        double appendMs = (System.nanoTime() - t0) / 1e6;
        Model m = new Model(ids, kinds, estimates);
        double[] tops = m.tops();
        long[] state = engineState(engine);
        check(state[0] == rows, "row count");
        check(Double.longBitsToDouble(state[1]) == tops[rows], "total height " + Double.longBitsToDouble(state[1]) + " vs " + tops[rows]);
        try {
            engineInsert(engine, -1, new long[] {1}, new short[] {cellKinds[0]}, null, null, 0);
            check(false, "a duplicate id throws");
        } catch (RuntimeException e) {
            check(e.getMessage().startsWith("DUPLICATE_ID: tess_engine_append"), "message: " + e.getMessage());
        }
        check(engineState(engine)[0] == rows, "unchanged after the failure");

        // Scroll through the whole list, then random windows.
        ByteBuffer buffer = ByteBuffer.allocateDirect(ROW_BYTES * 512).order(ByteOrder.nativeOrder());
        double total = tops[rows];
        for (double y = 0; y < total; y += total / 20000) checkWindow(engine, m, tops, buffer, y, viewport, overscan);
        Random random = new Random(132472442);
        for (int i = 0; i < 20000; i++) checkWindow(engine, m, tops, buffer, random.nextDouble() * total, viewport, overscan);
        check(engineWindow(engine, 0, viewport, overscan, ByteBuffer.allocateDirect(ROW_BYTES).order(ByteOrder.nativeOrder())) < -1,
              "a one-row buffer reports the rows needed");

        // Time per window query (the same query mix as the C host's benchmark).
        int queries = bench ? 200000 : 20000;
        long sum = 0;
        double bestScroll = Double.MAX_VALUE, bestRandom = Double.MAX_VALUE;
        for (int round = 0; round < (bench ? 5 : 1); round++) {
            long s = System.nanoTime();
            for (int q = 0; q < queries; q++) sum += engineWindow(engine, (q * 37.5) % (total - 844), 844, 250, buffer);
            bestScroll = Math.min(bestScroll, (System.nanoTime() - s) / (double) queries);
            s = System.nanoTime();
            for (int q = 0; q < queries; q++) sum += engineWindow(engine, random.nextDouble() * (total - 844), 844, 250, buffer);
            bestRandom = Math.min(bestRandom, (System.nanoTime() - s) / (double) queries);
        }

        // Swipe to delete: a row in view swiped open, then removed; the rows above stay put.
        double at = tops[rows / 2] + 10;
        engineScrollTo(engine, at);
        int swiped = rows / 2 + 3;
        engineUpdateFlags(engine, swiped, ROW_SWIPE_OPEN, 0);
        engineWindow(engine, at, viewport, 0, buffer);
        check((buffer.getShort(3 * ROW_BYTES + 34) & ROW_SWIPE_OPEN) != 0, "the swiped row shows swipe-open");
        double corrected = engineRemove(engine, swiped, 1);
        m.remove(swiped, 1);
        check(corrected == at, "deleting below the anchor keeps the offset");
        check(engineState(engine)[0] == rows - 1, "one row fewer");

        // A new snapshot: 1,000 deletions, 1,000 insertions, 40 moves, 500 content changes.
        long[] oldIds = Arrays.copyOf(m.ids, m.count), oldVersions = new long[m.count];
        int n = m.count;
        boolean[] deleted = new boolean[n];
        for (int i = 0; i < 1000; i++) deleted[random.nextInt(n)] = true;
        long[] next = new long[n + 1000];
        short[] nextKinds = new short[n + 1000];
        int k = 0;
        for (int i = 0; i < n; i++) if (!deleted[i]) { next[k] = oldIds[i]; nextKinds[k++] = m.kinds[i]; }
        for (int i = 0; i < 1000; i++) {
            int pos = random.nextInt(k + 1);
            System.arraycopy(next, pos, next, pos + 1, k - pos);
            System.arraycopy(nextKinds, pos, nextKinds, pos + 1, k - pos);
            next[pos] = 10_000_000_000L + i;
            nextKinds[pos] = cellKinds[i % cellKinds.length];
            k++;
        }
        for (int i = 0; i < 20; i++) {  // 20 swaps
            int a = random.nextInt(k), b = random.nextInt(k);
            long t = next[a]; next[a] = next[b]; next[b] = t;
            short tk = nextKinds[a]; nextKinds[a] = nextKinds[b]; nextKinds[b] = tk;
        }
        long[] newIds = Arrays.copyOf(next, k), newVersions = new long[k];
        short[] newKinds = Arrays.copyOf(nextKinds, k);
        for (int i = 0; i < 500; i++) newVersions[random.nextInt(k)] = 1;
        long differ = differCreate();
        t0 = System.nanoTime();
        long[] ops = differOperations(differ, oldIds, oldVersions, newIds, newVersions);
        double diffMs = (System.nanoTime() - t0) / 1e6;
        // Apply: each operation to the engine and to the model.
        int changes = 0;
        t0 = System.nanoTime();
        for (int i = 0; i < ops.length; i += 3) {
            int type = (int) ops[i], a = (int) ops[i + 1], b = (int) ops[i + 2];
            if (type == OP_REMOVE) {
                engineRemove(engine, a, b);
                m.remove(a, b);
            } else if (type == OP_INSERT) {
                engineInsert(engine, a, Arrays.copyOfRange(newIds, a, a + b), Arrays.copyOfRange(newKinds, a, a + b), null, null, 0);
                m.insert(a, newIds, newKinds, a, b);
            } else if (type == OP_MOVE) {
                long[] id = {m.ids[a]};
                short[] kind = {m.kinds[a]};
                engineRemove(engine, a, 1);
                m.remove(a, 1);
                engineInsert(engine, b, id, kind, null, null, 0);
                m.insert(b, id, kind, 0, 1);
            } else {
                for (int r = a; r < a + b; r++) engineInvalidate(engine, r);
                changes += b;
            }
        }
        double applyMs = (System.nanoTime() - t0) / 1e6;
        check(changes >= 400 && changes <= 500, "changes " + changes);
        long[] result = new long[k];
        engineIds(engine, result);
        check(Arrays.equals(result, newIds), "the engine holds the new snapshot");
        check(Arrays.equals(Arrays.copyOf(m.ids, m.count), newIds), "the model holds the new snapshot");
        state = engineState(engine);
        tops = m.tops();
        check(state[0] == k && Double.longBitsToDouble(state[1]) == tops[k], "count and height after the diff");
        // The anchor row stays where it was seen.
        if (state[4] == 1) {
            int anchorRow = -1;
            for (int i = 0; i < m.count; i++) if (m.ids[i] == state[3]) { anchorRow = i; break; }
            check(anchorRow >= 0, "the anchor row exists");
            double scroll = Double.longBitsToDouble(state[2]), inside = Double.longBitsToDouble(state[5]);
            check(anchorRow >= 0 && scroll == tops[anchorRow] + inside, "the anchor row is where it was seen");
        }
        checkWindow(engine, m, tops, buffer, Double.longBitsToDouble(state[2]), viewport, overscan);
        for (int i = 0; i < 2000; i++) checkWindow(engine, m, tops, buffer, random.nextDouble() * tops[k], viewport, overscan);

        differDestroy(differ);
        engineDestroy(engine);
        double[] profiled = profileSession(profile, rows, bench, random);
        profileDestroy(profile);
        System.out.printf("jni-host: profile-driven: %d rows appended in %.1f ms, measured (2 threads) in %.1f ms; "
                + "item window %.0f ns (scroll), %.0f ns (random); snapshot applied in %.1f ms%n",
                rows, profiled[0], profiled[1], profiled[2], profiled[3], profiled[4]);
        System.out.printf("jni-host: %d rows appended in %.1f ms; window query %.0f ns (scroll), %.0f ns (random); "
                + "diff %.1f ms (%d operations), applied in %.1f ms; checksum %d%n",
                rows, appendMs, bestScroll, bestRandom, diffMs, ops.length / 3, applyMs, sum);
        System.out.printf("jni-host: %d checks, %d failed%n", checks, failures);
        System.exit(failures == 0 ? 0 : 1);
    }

    // --- ABI version 2: a profile-driven list of George rows -----------------------------

    static final int ITEM_BYTES = 56, SLOTS = 5, GROUP = 50;
    static final short HEADER = 13, BASIC = 1;  // george.json: sectionHeader, basicCell
    static final int ROW_MEASURED = 0x1, ROW_DIRTY = 0x10, ROW_DIVIDER = 0x20, BUDGET_ROWS = 0;

    /** A row's values: a header's headline (value 3) or a cell's label (value 2). */
    static void appendValues(StringBuilder text, long[] offsets, int row, long id, short kind) {
        for (int s = 0; s < SLOTS; s++) {
            if (kind == HEADER && s == 3) text.append("Day ").append(id);
            if (kind == BASIC && s == 2) text.append("Payment ").append(id);
            offsets[row * SLOTS + s + 1] = text.length();  // ASCII: chars are bytes
        }
    }

    /** One window of items against the model (heights: 48 per basic cell, `header` per
     *  header), with the sticky header pinned at the top or pushed up by its group's end. */
    static void checkItems(long engine, Model m, double[] tops, ByteBuffer items, ByteBuffer sticky, double scroll,
                           double viewport, double overscan, double width) {
        int n = engineItems(engine, items, sticky);
        double start = Math.max(scroll - overscan, 0), end = scroll + viewport + overscan;
        int first = firstRowBelow(tops, m.count, start);
        int expected = 0;
        while (first + expected < m.count && tops[first + expected] < end) expected++;
        check(n == expected, "items at " + scroll + ": " + n + " rows, expected " + expected);
        for (int i = 0; i < Math.min(n, expected); i++) {
            int r = first + i, at = i * ITEM_BYTES;
            short flags = items.getShort(at + 50);
            if (items.getLong(at) != r || items.getLong(at + 8) != m.ids[r] || items.getDouble(at + 16) != 0
                    || items.getDouble(at + 24) != tops[r] || items.getDouble(at + 32) != width
                    || items.getDouble(at + 40) != m.estimates[m.kinds[r]] || items.getShort(at + 48) != m.kinds[r]
                    || (flags & ROW_MEASURED) == 0 || (flags & (ROW_DIRTY | ROW_DIVIDER)) != 0) {
                check(false, "items at " + scroll + " row " + r);
                return;
            }
        }
        int top = firstRowBelow(tops, m.count, scroll);
        int h = Math.min(top, m.count - 1);
        while (h > 0 && m.kinds[h] != HEADER) h--;
        int groupEnd = h + 1;
        while (groupEnd < m.count && m.kinds[groupEnd] != HEADER) groupEnd++;
        double headerHeight = m.estimates[HEADER];
        double pinned = Math.min(scroll, tops[groupEnd] - headerHeight);
        check(sticky.getLong(0) == h && sticky.getLong(8) == m.ids[h] && sticky.getDouble(24) == pinned
              && sticky.getDouble(40) == headerHeight, "sticky header at " + scroll + ": row " + sticky.getLong(0)
              + " y " + sticky.getDouble(24) + ", expected row " + h + " y " + pinned);
    }

    /** Appends `rows` George rows in one call, measures them, scrolls through item windows,
     *  applies a snapshot and a swipe-to-delete, checking every answer. Returns {append ms,
     *  measure ms, item window ns scrolling, ns random, apply ms}. */
    static double[] profileSession(long profile, int rows, boolean bench, Random random) {
        double width = 360, viewport = 800, overscan = 250;
        long engine = profileEngineCreate(profile, PLATFORM_ANDROID, width, viewport, overscan);
        long[] ids = new long[rows], versions = new long[rows], offsets = new long[rows * SLOTS + 1];
        short[] kinds = new short[rows];
        StringBuilder text = new StringBuilder(rows * 16);
        for (int i = 0; i < rows; i++) {
            ids[i] = 7L * i + 5;
            kinds[i] = i % GROUP == 0 ? HEADER : BASIC;
            versions[i] = 1;
            appendValues(text, offsets, i, ids[i], kinds[i]);
        }
        byte[] utf8 = text.toString().getBytes(StandardCharsets.UTF_8);
        long t0 = System.nanoTime();
        engineAppendRows(engine, ids, kinds, versions, utf8, offsets, SLOTS);
        double appendMs = (System.nanoTime() - t0) / 1e6;
        check(engineDirtyCount(engine) == rows, "every row dirty after the append");
        try {
            // row 0's values (a header's) under row 5's id
            engineAppendRows(engine, new long[] {ids[5]}, new short[] {HEADER}, new long[] {1}, utf8, Arrays.copyOf(offsets, SLOTS + 1), SLOTS);
            check(false, "a duplicate id throws");
        } catch (RuntimeException e) {
            check(e.getMessage().startsWith("DUPLICATE_ID: tess_engine_append_rows"), "message: " + e.getMessage());
        }
        // The window first, within a budget, then everything on two threads.
        long[] progress = engineMeasure(engine, BUDGET_ROWS, 200);
        check(progress[0] == 200 && progress[1] == rows - 200, "a budget of 200 rows measures 200");
        t0 = System.nanoTime();
        engineMeasureAll(engine, 2);
        double measureMs = (System.nanoTime() - t0) / 1e6;
        check(engineDirtyCount(engine) == 0, "nothing dirty after measure_all");
        ByteBuffer items = ByteBuffer.allocateDirect(ITEM_BYTES * 512).order(ByteOrder.nativeOrder());
        ByteBuffer sticky = ByteBuffer.allocateDirect(ITEM_BYTES).order(ByteOrder.nativeOrder());
        engineItems(engine, items, sticky);
        double headerHeight = items.getDouble(40);
        check(items.getLong(0) == 0 && headerHeight > 0 && items.getDouble(ITEM_BYTES + 40) == 48,
              "a one-line basic cell is 48 pt on Android (Profiles/README.md example 6)");
        double[] heights = new double[HEADER + 1];
        heights[HEADER] = headerHeight;
        heights[BASIC] = 48;
        Model m = new Model(ids, kinds, heights);
        double[] tops = m.tops();
        long[] state = engineState(engine);
        check(Double.longBitsToDouble(state[1]) == tops[rows], "total height of the measured rows");

        // Scroll through the list, then random offsets.
        double total = tops[rows];
        for (double y = 0; y < total; y += total / 10000) {
            double at = engineScrollTo(engine, y);
            checkItems(engine, m, tops, items, sticky, at, viewport, overscan, width);
        }
        for (int i = 0; i < 10000; i++) {
            double at = engineScrollTo(engine, random.nextDouble() * total);
            checkItems(engine, m, tops, items, sticky, at, viewport, overscan, width);
        }
        // Time per item window (scroll, then query), as the C host's benchmark runs it.
        int queries = bench ? 100000 : 10000;
        long sum = 0;
        double bestScroll = Double.MAX_VALUE, bestRandom = Double.MAX_VALUE;
        for (int round = 0; round < (bench ? 5 : 1); round++) {
            long s = System.nanoTime();
            for (int q = 0; q < queries; q++) {
                engineScrollTo(engine, (q * 37.5) % (total - viewport));
                sum += engineItems(engine, items, sticky);
            }
            bestScroll = Math.min(bestScroll, (System.nanoTime() - s) / (double) queries);
            s = System.nanoTime();
            for (int q = 0; q < queries; q++) {
                engineScrollTo(engine, random.nextDouble() * (total - viewport));
                sum += engineItems(engine, items, sticky);
            }
            bestRandom = Math.min(bestRandom, (System.nanoTime() - s) / (double) queries);
        }
        check(sum > 0, "windows hold rows");

        // Swipe to delete: a cell in view swiped open, then committed; the rows above stay.
        double at = engineScrollTo(engine, tops[rows / 2] + 10);
        int victim = rows / 2 + 3;
        while (m.kinds[victim] != BASIC) victim++;
        check(engineSwipe(engine, m.ids[victim], 96) == 1, "one row changed by the swipe");
        engineItems(engine, items, sticky);
        int slot = victim - (int) items.getLong(0);
        check((items.getShort(slot * ITEM_BYTES + 50) & ROW_SWIPE_OPEN) != 0, "the swiped row shows swipe-open");
        long batch = batchCreate();
        double corrected = engineCommitSwipe(engine, m.ids[victim], batch);
        check(corrected == at, "a full swipe below the anchor keeps the offset");
        m.remove(victim, 1);
        tops = m.tops();
        check(engineState(engine)[0] == rows - 1, "one row fewer after the full swipe");
        checkItems(engine, m, tops, items, sticky, at, viewport, overscan, width);

        // A new snapshot: 1,000 cells deleted, 1,000 inserted, 20 swaps, 500 content changes.
        int n = m.count;
        long[] oldIds = Arrays.copyOf(m.ids, n);
        boolean[] deleted = new boolean[n];
        for (int i = 0, d = 0; d < 1000; i++) {
            int r = 1 + random.nextInt(n - 1);
            if (m.kinds[r] == BASIC && !deleted[r]) { deleted[r] = true; d++; }
        }
        long[] next = new long[n + 1000];
        short[] nextKinds = new short[n + 1000];
        int k = 0;
        for (int i = 0; i < n; i++) if (!deleted[i]) { next[k] = oldIds[i]; nextKinds[k++] = m.kinds[i]; }
        for (int i = 0; i < 1000; i++) {
            int pos = 1 + random.nextInt(k);
            System.arraycopy(next, pos, next, pos + 1, k - pos);
            System.arraycopy(nextKinds, pos, nextKinds, pos + 1, k - pos);
            next[pos] = 20_000_000_000L + i;
            nextKinds[pos] = BASIC;
            k++;
        }
        for (int i = 0; i < 20; i++) {  // swaps of two cells: moves
            int a = 1 + random.nextInt(k - 1), b = 1 + random.nextInt(k - 1);
            if (nextKinds[a] != BASIC || nextKinds[b] != BASIC) continue;
            long t = next[a]; next[a] = next[b]; next[b] = t;
        }
        long[] newIds = Arrays.copyOf(next, k), newVersions = new long[k], newOffsets = new long[k * SLOTS + 1];
        short[] newKinds = Arrays.copyOf(nextKinds, k);
        Arrays.fill(newVersions, 1);
        int updated = 0;
        for (int i = 0; i < 500; i++) {
            int r = random.nextInt(k);
            if (newVersions[r] == 1 && newIds[r] < 20_000_000_000L) { newVersions[r] = 2; updated++; }
        }
        StringBuilder newText = new StringBuilder(k * 16);
        for (int i = 0; i < k; i++) appendValues(newText, newOffsets, i, newIds[i], newKinds[i]);
        byte[] newUtf8 = newText.toString().getBytes(StandardCharsets.UTF_8);
        state = engineState(engine);
        long anchorId = state[3];
        double inside = Double.longBitsToDouble(state[5]);
        t0 = System.nanoTime();
        long[] counts = engineApply(engine, batch, newIds, newKinds, newVersions, newUtf8, newOffsets, SLOTS);
        double applyMs = (System.nanoTime() - t0) / 1e6;
        check(counts[0] == 1000 && counts[1] == 1000 && counts[3] == updated && counts[4] > 0,
              "batch counts " + Arrays.toString(counts) + ", updates expected " + updated);
        check(engineDirtyCount(engine) == 1000 + updated, "inserted and updated rows are dirty");
        m = new Model(newIds, newKinds, heights);  // new cells start at the estimate: 48
        tops = m.tops();
        long[] result = new long[k];
        engineIds(engine, result);
        check(Arrays.equals(result, newIds), "the engine holds the new snapshot");
        state = engineState(engine);
        check(state[0] == k && Double.longBitsToDouble(state[1]) == tops[k], "count and height after the snapshot");
        double scroll = Double.longBitsToDouble(counts[5]);
        check(scroll == Double.longBitsToDouble(state[2]), "the returned offset is the engine's");
        int anchorRow = -1;
        for (int i = 0; i < k; i++) if (newIds[i] == anchorId) { anchorRow = i; break; }
        if (anchorRow >= 0) check(scroll == tops[anchorRow] + inside, "the anchor row is where it was seen");
        engineMeasureAll(engine, 2);
        check(engineDirtyCount(engine) == 0, "measured again");
        checkItems(engine, m, tops, items, sticky, scroll, viewport, overscan, width);
        for (int i = 0; i < 2000; i++) {
            double y = engineScrollTo(engine, random.nextDouble() * tops[k]);
            checkItems(engine, m, tops, items, sticky, y, viewport, overscan, width);
        }
        batchDestroy(batch);
        engineDestroy(engine);
        return new double[] {appendMs, measureMs, bestScroll, bestRandom, applyMs};
    }
}
