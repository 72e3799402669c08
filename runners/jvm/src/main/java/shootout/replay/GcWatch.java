package shootout.replay;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * The collections during a run, from HotSpot's GC notifications
 * (com.sun.management.GarbageCollectionNotificationInfo), one per collection
 * with its duration. Notifications arrive late, on a JMX thread, so a run is
 * cut by each collector's collection count, polled before and after it
 * (GarbageCollectorMXBean.getCollectionCount): the collections of a run are
 * those whose GcInfo id (each collector numbers its collections 1, 2, …) lies
 * between the two counts, and after the run this waits (up to a second) for
 * their notifications. Durations are whole milliseconds (GcInfo.getDuration):
 * a pause under 1 ms reads 0, so pause_total_ns and pause_max_ns are multiples
 * of 1,000,000. With the stop-the-world collectors (G1, Parallel, Serial) a
 * notification's duration is a pause; with a concurrent one (ZGC, Shenandoah)
 * it is a whole, mostly concurrent, cycle, so it overstates the pauses.
 */
final class GcWatch implements AutoCloseable {
    /** A run's collections, as the results' gc object. */
    record Figures(long collections, long pauseTotalNs, long pauseMaxNs) {
        Map<String, Object> toJson() {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("collections", collections);
            m.put("pause_total_ns", pauseTotalNs);
            m.put("pause_max_ns", pauseMaxNs);
            return m;
        }
    }

    private final List<GarbageCollectorMXBean> beans = new ArrayList<>();
    /** Per collector (by bean, as listed), each collection's duration in ms by its id. */
    private final List<Map<Long, Long>> durations = new ArrayList<>();

    private final NotificationListener listener = this::onNotification;
    /** False when a collector cannot notify (another JVM than HotSpot): every run's gc is then null. */
    final boolean available;

    GcWatch() {
        boolean ok = true;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            beans.add(b);
            durations.add(new ConcurrentHashMap<>());
            ok &= b instanceof NotificationEmitter;
        }
        available = ok;
        if (ok) {
            for (GarbageCollectorMXBean b : beans) {
                ((NotificationEmitter) b).addNotificationListener(listener, null, null);
            }
        }
    }

    private void onNotification(Notification n, Object handback) {
        if (!n.getType().equals(GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION)) {
            return;
        }
        GarbageCollectionNotificationInfo info =
                GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        for (int i = 0; i < beans.size(); i++) {
            if (beans.get(i).getName().equals(info.getGcName())) {
                durations.get(i).put(info.getGcInfo().getId(), info.getGcInfo().getDuration());
            }
        }
    }

    /** Each collector's collection count now: a run's bounds. */
    long[] counts() {
        long[] c = new long[beans.size()];
        for (int i = 0; i < c.length; i++) {
            c[i] = Math.max(beans.get(i).getCollectionCount(), 0);
        }
        return c;
    }

    /**
     * The collections between two counts, or null when their notifications have not all come within a second (said on stderr by
     * the caller) or the JVM does not send them.
     */
    Figures between(long[] before, long[] after) throws InterruptedException {
        if (!available) {
            return null;
        }
        long deadline = System.nanoTime() + 1_000_000_000L;
        for (; ; ) {
            long collections = 0, totalMs = 0, maxMs = 0;
            boolean all = true;
            for (int i = 0; i < beans.size() && all; i++) {
                Map<Long, Long> d = durations.get(i);
                for (long id = before[i] + 1; id <= after[i]; id++) {
                    Long ms = d.get(id);
                    if (ms == null) {
                        all = false;
                        break;
                    }
                    collections++;
                    totalMs += ms;
                    maxMs = Math.max(maxMs, ms);
                }
            }
            if (all) {
                for (int i = 0; i < beans.size(); i++) {
                    long last = after[i];
                    durations.get(i).keySet().removeIf(id -> id <= last);
                }
                return new Figures(collections, totalMs * 1_000_000L, maxMs * 1_000_000L);
            }
            if (System.nanoTime() > deadline) {
                return null;
            }
            Thread.sleep(1);
        }
    }

    @Override
    public void close() {
        if (!available) {
            return;
        }
        for (GarbageCollectorMXBean b : beans) {
            try {
                ((NotificationEmitter) b).removeNotificationListener(listener);
            } catch (ListenerNotFoundException e) {
                // Not added: nothing to remove.
            }
        }
    }
}
