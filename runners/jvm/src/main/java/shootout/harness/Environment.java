package shootout.harness;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.RuntimeMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The machine and the JVM, read cheaply when the run starts; a value that
 * cannot be read is null, never an error. Keys follow the results schema; the
 * Rust-only ones (rustc, rustflags, …) become the JVM's: java_version,
 * java_vm, jvm_flags, gc, heap_initial_bytes, heap_max_bytes, heap_fixed.
 */
public final class Environment {
    private Environment() {}

    static String read(String path) {
        try {
            return Files.readString(Path.of(path), StandardCharsets.UTF_8).trim();
        } catch (Exception e) {
            return null;
        }
    }

    public static Map<String, Object> read(Instant started) {
        Map<String, Object> env = new LinkedHashMap<>();
        String cpuinfo = read("/proc/cpuinfo");
        env.put("cpu", System.getProperty("os.arch"));
        List<String> flags = null;
        if (cpuinfo != null) {
            for (String line : cpuinfo.split("\n")) {
                int c = line.indexOf(':');
                if (c < 0) {
                    continue;
                }
                String k = line.substring(0, c).trim(),
                        v = line.substring(c + 1).trim();
                if (k.equals("model name") && env.get("cpu").equals(System.getProperty("os.arch"))) {
                    env.put("cpu", v);
                } else if ((k.equals("flags") || k.equals("Features")) && flags == null) {
                    flags = Arrays.asList(v.split("\\s+"));
                }
            }
        }
        if (cpuinfo == null) {
            env.put("cpu_flags", null);
            env.put("constant_tsc", null);
            env.put("nonstop_tsc", null);
            env.put("hypervisor", null);
        } else {
            List<String> f = flags == null ? List.of() : flags;
            env.put("cpu_flags", f);
            env.put("constant_tsc", f.contains("constant_tsc"));
            env.put("nonstop_tsc", f.contains("nonstop_tsc"));
            String hv = read("/sys/hypervisor/type");
            env.put("hypervisor", hv != null ? hv : f.contains("hypervisor") ? "unknown" : null);
        }
        Map<String, Object> cache = new LinkedHashMap<>();
        for (String k : List.of("l1d_bytes", "l1i_bytes", "l2_bytes", "l3_bytes")) {
            cache.put(k, null);
        }
        for (int i = 0; i < 8; i++) {
            String dir = "/sys/devices/system/cpu/cpu0/cache/index" + i + "/";
            String level = read(dir + "level"), kind = read(dir + "type"), size = read(dir + "size");
            if (level == null || kind == null || size == null) {
                continue;
            }
            String key = "l" + level + (kind.equals("Data") ? "d" : kind.equals("Instruction") ? "i" : "") + "_bytes";
            Long b = parseSize(size);
            if (b != null) {
                cache.put(key, b);
            }
        }
        env.put("cache", cache);
        env.put("cpufreq_governor", read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor"));
        env.put("memory_bytes", null);
        String meminfo = read("/proc/meminfo");
        if (meminfo != null) {
            for (String line : meminfo.split("\n")) {
                String[] f = line.trim().split("\\s+");
                if (f.length >= 2 && f[0].equals("MemTotal:")) {
                    env.put("memory_bytes", Long.parseLong(f[1]) * 1024);
                }
            }
        }
        env.put("cores", Runtime.getRuntime().availableProcessors());
        env.put("os", osName());
        RuntimeMXBean rt = ManagementFactory.getRuntimeMXBean();
        env.put("java_version", Runtime.version().toString());
        // Every runner names its compiler or runtime here, for tables that show several languages.
        env.put("toolchain", System.getProperty("java.vm.name") + " " + Runtime.version());
        env.put("java_vendor", System.getProperty("java.vendor"));
        env.put("java_vm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        env.put("jvm_flags", rt.getInputArguments());
        List<String> gcs = new ArrayList<>();
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            gcs.add(b.getName());
        }
        env.put("gc", gcs);
        long init = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getInit();
        long max = Runtime.getRuntime().maxMemory();
        env.put("heap_initial_bytes", init);
        env.put("heap_max_bytes", max);
        env.put("heap_fixed", heapFixed());
        env.put("target", System.getProperty("os.name") + "/" + System.getProperty("os.arch"));
        env.put(
                "allocator",
                "JVM heap (allocation pass: com.sun.management.ThreadMXBean.getCurrentThreadAllocatedBytes; "
                        + "the JVM gives no allocation count, so allocations_per_op is null)");
        env.put("shootout_version", "jvm-runner");
        String[] git = git();
        env.put("git_commit", git[0]);
        env.put("git_dirty", git[1] == null ? null : Boolean.valueOf(git[1]));
        env.put("date", started.truncatedTo(ChronoUnit.SECONDS).toString());
        return env;
    }

    /** Whether -Xms and -Xmx were given and equal (a fixed heap). */
    public static boolean heapFixed() {
        String xms = null, xmx = null;
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("-Xms")) {
                xms = a.substring(4);
            } else if (a.startsWith("-Xmx")) {
                xmx = a.substring(4);
            } else if (a.startsWith("-XX:InitialHeapSize=")) {
                xms = a.substring(20);
            } else if (a.startsWith("-XX:MaxHeapSize=")) {
                xmx = a.substring(16);
            }
        }
        return xms != null
                && xmx != null
                && parseSize(xms.toUpperCase()) != null
                && parseSize(xms.toUpperCase()).equals(parseSize(xmx.toUpperCase()));
    }

    static Long parseSize(String s) {
        long mult = 1;
        if (s.endsWith("K")) {
            mult = 1024;
        } else if (s.endsWith("M")) {
            mult = 1024 * 1024;
        } else if (s.endsWith("G")) {
            mult = 1024L * 1024 * 1024;
        }
        if (mult != 1) {
            s = s.substring(0, s.length() - 1);
        }
        try {
            return Long.parseLong(s) * mult;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    static String osName() {
        String name = System.getProperty("os.name");
        String rel = read("/etc/os-release");
        if (rel != null) {
            for (String line : rel.split("\n")) {
                if (line.startsWith("PRETTY_NAME=")) {
                    name = line.substring(12).replace("\"", "");
                }
            }
        }
        String k = read("/proc/sys/kernel/osrelease");
        return k == null ? name : name + " " + k;
    }

    /** The commit of the working directory (git), "unknown" outside a checkout. */
    static String[] git() {
        try {
            Process p = new ProcessBuilder("git", "rev-parse", "HEAD")
                    .redirectErrorStream(true)
                    .start();
            String head = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.waitFor() != 0) {
                return new String[] {"unknown", null};
            }
            Process s = new ProcessBuilder("git", "status", "--porcelain")
                    .redirectErrorStream(true)
                    .start();
            String st = new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            return new String[] {head, s.waitFor() == 0 ? String.valueOf(!st.isEmpty()) : null};
        } catch (Exception e) {
            return new String[] {"unknown", null};
        }
    }

    /** /proc/loadavg's three figures, or null. */
    public static List<Double> loadAverage() {
        String s = read("/proc/loadavg");
        if (s == null) {
            return null;
        }
        String[] f = s.split("\\s+");
        if (f.length < 3) {
            return null;
        }
        List<Double> out = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            out.add(Double.parseDouble(f[i]));
        }
        return out;
    }
}
