package cipherlab;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What both cipherlab Java programs share: one JSON object per line on stdout (the protocol the
 * Python parent reads), the facts of this JVM, a watchdog that ends a stuck process, and
 * argument parsing. Kept dependency-free so that {@code javac} alone builds it.
 */
final class Report {
    private Report() {}

    /** The HotSpot flags whose final values say which crypto intrinsics ran. */
    static final String[] FLAGS = {"UseAES", "UseAESIntrinsics", "UseAESCTRIntrinsics",
        "UseGHASHIntrinsics", "UseAESGCMIntrinsics", "UseCLMUL", "UseAVX", "UseSSE",
        "UsePoly1305Intrinsics", "UseChaCha20Intrinsics", "UseSHA", "DisableIntrinsic"};

    static Map<String, Object> facts() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("java_version", System.getProperty("java.version"));
        m.put("java_vendor", System.getProperty("java.vendor"));
        m.put("vm", System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"));
        m.put("jvm_args", ManagementFactory.getRuntimeMXBean().getInputArguments());
        Map<String, Object> flags = new LinkedHashMap<>();
        try {
            com.sun.management.HotSpotDiagnosticMXBean hs = ManagementFactory.getPlatformMXBean(
                com.sun.management.HotSpotDiagnosticMXBean.class);
            for (String f : FLAGS) {
                try {
                    flags.put(f, hs.getVMOption(f).getValue());
                } catch (IllegalArgumentException absent) {
                    // not a flag of this JVM: left out, so the parent sees it does not exist
                }
            }
        } catch (RuntimeException | LinkageError notHotSpot) {
            // another VM: no flags to report
        }
        m.put("flags", flags);
        return m;
    }

    /** Ends the process if it is still running after {@code seconds}: the last-resort bound. */
    static void watchdog(double seconds, String role) {
        Thread t = new Thread(() -> {
            try {
                Thread.sleep((long) (seconds * 1000));
            } catch (InterruptedException e) {
                return;
            }
            emit(map("event", "error", "role", role, "type", "TimeoutError",
                     "message", "the JVM was still running after " + seconds + " s; stopped"));
            Runtime.getRuntime().halt(3);
        }, "cipherlab-watchdog");
        t.setDaemon(true);
        t.start();
    }

    static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }

    static synchronized void emit(Map<String, Object> obj) {
        StringBuilder sb = new StringBuilder();
        json(sb, obj);
        System.out.println(sb);
        System.out.flush();
    }

    static void error(String role, Throwable err) {
        String msg = err.getMessage() == null ? err.toString() : err.getMessage();
        Throwable cause = err.getCause();
        if (cause != null && cause.getMessage() != null && !msg.contains(cause.getMessage())) {
            msg += " (" + cause.getMessage() + ")";
        }
        emit(map("event", "error", "role", role, "type", err.getClass().getSimpleName(),
                 "message", msg));
    }

    /** {@code --name value} pairs after the role. */
    static Map<String, String> options(String[] args, int from) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = from; i < args.length; i += 2) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs; got " + args[i]);
            }
            m.put(args[i].substring(2), args[i + 1]);
        }
        return m;
    }

    static String need(Map<String, String> opts, String name) {
        String v = opts.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing --" + name);
        }
        return v;
    }

    static List<String> list(String[] values) {
        List<String> out = new ArrayList<>();
        for (String v : values) {
            out.add(v);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static void json(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Number || v instanceof Boolean) {
            double d = v instanceof Number ? ((Number) v).doubleValue() : 0;
            sb.append(Double.isFinite(d) ? v.toString() : "null");
        } else if (v instanceof Map) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : ((Map<String, Object>) v).entrySet()) {
                if (!first) sb.append(", ");
                first = false;
                json(sb, e.getKey());
                sb.append(": ");
                json(sb, e.getValue());
            }
            sb.append('}');
        } else if (v instanceof List) {
            sb.append('[');
            boolean first = true;
            for (Object o : (List<Object>) v) {
                if (!first) sb.append(", ");
                first = false;
                json(sb, o);
            }
            sb.append(']');
        } else {
            String s = v.toString();
            sb.append('"');
            for (int i = 0; i < s.length(); i++) {
                char c = s.charAt(i);
                if (c == '"' || c == '\\') {
                    sb.append('\\').append(c);
                } else if (c < 0x20) {
                    sb.append(String.format("\\u%04x", (int) c));
                } else {
                    sb.append(c);
                }
            }
            sb.append('"');
        }
    }
}
