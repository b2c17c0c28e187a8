package cipherlab;

import java.io.FileInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.Arrays;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

/**
 * The two JSSE processes of {@code cipherlab.capture_tls(..., backend="jsse")}, after the OpenJDK
 * seed's Server.java and Client.java: one TLS socket on loopback, one cipher suite, the client
 * writing N bytes in buffers of the chosen size (the seed: 1 MiB), the server timing first byte
 * to last byte.
 *
 * <pre>
 *   java cipherlab.TlsPeer server --keystore KS.p12 --storepass P --suite S --tls 1.2 \
 *        --bytes N --timeout SECONDS [--read-size R]
 *   java cipherlab.TlsPeer client --cert CERT.pem --port P --suite S --tls 1.2 \
 *        --bytes N --timeout SECONDS [--write-size W]
 *   java cipherlab.TlsPeer suites            (supported and enabled suites of this JDK)
 * </pre>
 *
 * Protocol (as the Python workers): JSON lines on stdout; the server prints
 * {"event": "listening", "port": P} once bound to 127.0.0.1 (port 0: the OS picks), then
 * {"event": "result", ...}; the client prints its result after the server acknowledged the last
 * byte; a failure prints {"event": "error", ...} and exits 1. Bounds: socket timeouts, a deadline
 * checked between reads/writes, and a watchdog thread that halts the JVM a little later.
 */
public final class TlsPeer {
    private TlsPeer() {}

    public static void main(String[] args) {
        String role = args.length > 0 ? args[0] : "";
        try {
            Map<String, String> o = Report.options(args, 1);
            if (o.containsKey("timeout")) {
                Report.watchdog(Double.parseDouble(o.get("timeout")) * 1.2 + 2, role);
            }
            switch (role) {
                case "server": serve(o); break;
                case "client": send(o); break;
                case "suites": suites(); break;
                default: throw new IllegalArgumentException("role must be server, client or suites; not '" + role + "'");
            }
        } catch (Exception | Error err) {
            Report.error(role, err);
            System.exit(1);
        }
        System.exit(0);
    }

    private static void suites() throws Exception {
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, null, null);
        Map<String, Object> m = Report.facts();
        m.put("event", "suites");
        m.put("supported", Report.list(ctx.getSupportedSSLParameters().getCipherSuites()));
        m.put("enabled", Report.list(ctx.getDefaultSSLParameters().getCipherSuites()));
        m.put("protocols", Report.list(ctx.getSupportedSSLParameters().getProtocols()));
        m.put("disabled_algorithms", java.security.Security.getProperty("jdk.tls.disabledAlgorithms"));
        Report.emit(m);
    }

    private static double cpuSeconds(ThreadMXBean threads) {
        return threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() / 1e9 : Double.NaN;
    }

    private static void restrict(SSLSocket s, Map<String, String> o) {
        s.setEnabledProtocols(new String[] {"TLSv" + Report.need(o, "tls")});
        s.setEnabledCipherSuites(new String[] {Report.need(o, "suite")});
    }

    private static Map<String, Object> session(SSLSocket s) {
        Map<String, Object> m = Report.facts();
        m.put("protocol", s.getSession().getProtocol());
        m.put("cipher", s.getSession().getCipherSuite());
        m.put("provider", cipherProvider(s.getSession().getCipherSuite()));
        return m;
    }

    private static void serve(Map<String, String> o) throws Exception {
        long bytes = Long.parseLong(Report.need(o, "bytes"));
        double timeout = Double.parseDouble(Report.need(o, "timeout"));
        long deadline = System.nanoTime() + (long) (timeout * 1e9);
        char[] pass = Report.need(o, "storepass").toCharArray();
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(Report.need(o, "keystore"))) {
            ks.load(in, pass);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, pass);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(kmf.getKeyManagers(), null, null);
        try (SSLServerSocket ls = (SSLServerSocket) ctx.getServerSocketFactory().createServerSocket()) {
            ls.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1);
            ls.setSoTimeout((int) Math.ceil(timeout * 1000));
            Report.emit(Report.map("event", "listening", "port", ls.getLocalPort(),
                                   "pid", ProcessHandle.current().pid()));
            try (SSLSocket s = (SSLSocket) ls.accept()) {
                s.setSoTimeout((int) Math.ceil(timeout * 1000));
                restrict(s, o);
                s.setUseClientMode(false);
                s.startHandshake();  // not timed, as in the seed: its clock starts at the first read
                ThreadMXBean threads = ManagementFactory.getThreadMXBean();
                byte[] buf = new byte[Integer.parseInt(o.getOrDefault("read-size", "1048576"))];
                InputStream in = s.getInputStream();
                long remaining = bytes, first = 0, reads = 0, tFirst = 0, tLast = 0;
                double cpu0 = 0;
                while (remaining > 0) {
                    int n = in.read(buf, 0, (int) Math.min(buf.length, remaining));
                    long now = System.nanoTime();
                    if (n < 0) {
                        throw new java.io.EOFException("the client closed the connection with " + remaining
                                                        + " of " + bytes + " bytes still to come");
                    }
                    if (reads == 0) {
                        // The clock starts when the first bytes are in hand; they arrived before it
                        // started, so they are not counted (the fence post).
                        tFirst = now;
                        first = n;
                        cpu0 = cpuSeconds(threads);
                    }
                    tLast = now;
                    remaining -= n;
                    reads++;
                    if (now > deadline) {
                        throw new java.util.concurrent.TimeoutException("receiving " + bytes
                            + " bytes took longer than the " + timeout + " s limit (" + (bytes - remaining) + " received)");
                    }
                }
                double cpu = cpuSeconds(threads) - cpu0;
                OutputStream out = s.getOutputStream();
                out.write('k');  // tells the client every byte arrived
                out.flush();
                Map<String, Object> r = session(s);
                r.putAll(Report.map("event", "result", "role", "server", "bytes", bytes,
                    "first_read_bytes", first, "timed_bytes", bytes - first,
                    "seconds", (tLast - tFirst) / 1e9, "reads", reads, "cpu_seconds", cpu));
                Report.emit(r);
            }
        }
    }

    private static void send(Map<String, String> o) throws Exception {
        long bytes = Long.parseLong(Report.need(o, "bytes"));
        double timeout = Double.parseDouble(Report.need(o, "timeout"));
        long deadline = System.nanoTime() + (long) (timeout * 1e9);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        try (InputStream in = new FileInputStream(Report.need(o, "cert"))) {
            trust.setCertificateEntry("server", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        int port = Integer.parseInt(Report.need(o, "port"));
        byte[] buf = new byte[Integer.parseInt(o.getOrDefault("write-size", "1048576"))];
        Arrays.fill(buf, (byte) 1);  // the seed's buffer
        try (SSLSocket s = (SSLSocket) ctx.getSocketFactory().createSocket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), (int) Math.ceil(timeout * 1000));
            s.setSoTimeout((int) Math.ceil(timeout * 1000));
            restrict(s, o);
            s.startHandshake();
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            OutputStream out = s.getOutputStream();
            long sent = 0, writes = 0;
            double cpu0 = cpuSeconds(threads);
            long t0 = System.nanoTime();
            while (sent < bytes) {
                int k = (int) Math.min(buf.length, bytes - sent);
                out.write(buf, 0, k);
                sent += k;
                writes++;
                if (System.nanoTime() > deadline) {
                    throw new java.util.concurrent.TimeoutException("sending " + bytes + " bytes took longer than the "
                                                                     + timeout + " s limit (" + sent + " sent)");
                }
            }
            out.flush();
            long t1 = System.nanoTime();
            double cpu = cpuSeconds(threads) - cpu0;
            int ack = s.getInputStream().read();
            if (ack != 'k') {
                throw new java.io.IOException("expected the server's acknowledgement 'k'; got " + ack);
            }
            Map<String, Object> r = session(s);
            r.putAll(Report.map("event", "result", "role", "client", "bytes", sent, "writes", writes,
                "write_size", buf.length, "seconds", (t1 - t0) / 1e9, "cpu_seconds", cpu));
            Report.emit(r);
        }
    }

    /** Name and version of the JCA provider that serves the suite's bulk cipher. */
    private static String cipherProvider(String suite) {
        String transform = suite.contains("CHACHA20") ? "ChaCha20-Poly1305"
            : suite.contains("_GCM_") ? "AES/GCM/NoPadding" : "AES/CBC/NoPadding";
        try {
            java.security.Provider p = javax.crypto.Cipher.getInstance(transform).getProvider();
            return p.getName() + " " + p.getVersionStr();
        } catch (Exception e) {
            return "";
        }
    }
}
