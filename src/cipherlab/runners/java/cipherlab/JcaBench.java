package cipherlab;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.security.Provider;
import java.security.SecureRandom;
import java.security.spec.AlgorithmParameterSpec;
import java.util.Map;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The child process of {@code cipherlab.capture_jca}: what a Java program gets from its JCA
 * provider per message, the Java twin of {@code _pyworker.py}.
 *
 * <pre>
 *   java cipherlab.JcaBench --algorithm aes-128-gcm --operation encrypt --sizes 16,1024,16384 \
 *        --seconds 1 --warmup 0.5 --timing cpu
 * </pre>
 *
 * One message = {@code Cipher.init} with a fresh IV (GCM refuses a repeated key/IV pair, and a
 * program must not reuse one) + {@code doFinal} over the whole message into a preallocated buffer.
 * Decryption opens a ring of messages sealed beforehand, each under its own IV. CBC is
 * {@code AES/CBC/NoPadding} (whole blocks, as {@code openssl speed} times it). Each size is warmed
 * up first (the JIT compiles the loop and, where the flags allow, its intrinsics), then run for
 * {@code seconds} of wall clock and divided by this thread's CPU time ({@code cpu}) or by
 * wall time ({@code elapsed}). Output as the Python worker: a "start" line with the JVM's facts,
 * one "result" line per size, an "end" line; an error prints {"event": "error"} and exits 1.
 */
public final class JcaBench {
    private JcaBench() {}

    private static final int RING = 16;

    public static void main(String[] args) {
        try {
            Map<String, String> o = Report.options(args, 0);
            String alg = Report.need(o, "algorithm");
            String op = Report.need(o, "operation");
            double seconds = Double.parseDouble(Report.need(o, "seconds"));
            double warmup = Double.parseDouble(o.getOrDefault("warmup", "0.5"));
            boolean cpu = !"elapsed".equals(o.getOrDefault("timing", "cpu"));
            Map<String, Object> start = Report.facts();
            start.put("event", "start");
            Provider p = alg.startsWith("hmac(") ? javax.crypto.Mac.getInstance(transform(alg)).getProvider()
                : Cipher.getInstance(transform(alg)).getProvider();
            start.put("provider", p.getName());
            start.put("provider_version", p.getVersionStr());
            Report.emit(start);
            for (String s : Report.need(o, "sizes").split(",")) {
                int size = Integer.parseInt(s.trim());
                Call m = alg.startsWith("hmac(") ? hmac(alg, size) : new Message(alg, op, size);
                long[] r = measure(m, seconds, warmup, cpu);
                Report.emit(Report.map("event", "result", "algorithm", alg, "operation", op,
                    "block_bytes", size, "count", r[0], "seconds", r[1] / 1e9));
            }
            Report.emit(Report.map("event", "end"));
        } catch (Exception | Error err) {
            Report.error("jca", err);
            System.exit(1);
        }
        System.exit(0);
    }

    static String transform(String alg) {
        if (alg.equals("chacha20-poly1305")) return "ChaCha20-Poly1305";
        if (alg.matches("aes-(128|192|256)-gcm")) return "AES/GCM/NoPadding";
        if (alg.matches("aes-(128|192|256)-cbc")) return "AES/CBC/NoPadding";
        if (alg.matches("aes-(128|192|256)-ctr")) return "AES/CTR/NoPadding";
        if (alg.matches("hmac\\(sha(1|256|384|512)\\)")) return "HmacSHA" + alg.substring(8, alg.length() - 1);
        throw new IllegalArgumentException("algorithm must be aes-{128,192,256}-{gcm,cbc,ctr}, chacha20-poly1305 "
                                           + "or hmac(sha{1,256,384,512}); not " + alg);
    }

    interface Call {
        void call() throws Exception;
    }

    /** One HMAC over {@code size} bytes per call (the MAC of TLS's CBC suites). */
    static Call hmac(String alg, int size) throws Exception {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance(transform(alg));
        byte[] k = new byte[32], in = new byte[size];
        new SecureRandom().nextBytes(k);
        mac.init(new SecretKeySpec(k, transform(alg)));
        return () -> {
            mac.update(in, 0, size);
            mac.doFinal();
        };
    }

    /** One message of {@code size} bytes: the key, a fresh IV per call, the buffers. */
    static final class Message implements Call {
        final Cipher cipher;
        final SecretKeySpec key;
        final boolean encrypt, gcm;
        final byte[] in, out, iv;
        final byte[][] sealed, ivs;
        final int size;
        long counter;
        int next;

        Message(String alg, String op, int size) throws Exception {
            if (!op.equals("encrypt") && !op.equals("decrypt")) {
                throw new IllegalArgumentException("operation must be encrypt or decrypt; not " + op);
            }
            this.size = size;
            SecureRandom rnd = new SecureRandom();
            cipher = Cipher.getInstance(transform(alg));
            boolean chacha = alg.startsWith("chacha");
            gcm = alg.endsWith("-gcm");
            if (alg.endsWith("-cbc") && size % 16 != 0) {
                throw new IllegalArgumentException(alg + " needs whole 16-byte blocks; " + size + " bytes is not one");
            }
            byte[] k = new byte[chacha ? 32 : Integer.parseInt(alg.split("-")[1]) / 8];
            rnd.nextBytes(k);
            key = new SecretKeySpec(k, chacha ? "ChaCha20" : "AES");
            iv = new byte[gcm || chacha ? 12 : 16];
            rnd.nextBytes(iv);
            in = new byte[size];
            rnd.nextBytes(in);
            out = new byte[size + 16];
            encrypt = op.equals("encrypt");
            sealed = new byte[encrypt ? 0 : RING][];
            ivs = new byte[encrypt ? 0 : RING][];
            for (int i = 0; i < sealed.length; i++) {
                cipher.init(Cipher.ENCRYPT_MODE, key, freshIv());
                sealed[i] = cipher.doFinal(in);
                ivs[i] = iv.clone();
            }
        }

        private AlgorithmParameterSpec spec(byte[] v) {
            return gcm ? new GCMParameterSpec(128, v) : new IvParameterSpec(v);
        }

        private AlgorithmParameterSpec freshIv() {
            counter++;
            for (int i = 0; i < 8; i++) {
                iv[iv.length - 1 - i] = (byte) (counter >>> (8 * i));
            }
            return spec(iv);
        }

        public void call() throws Exception {
            if (encrypt) {
                cipher.init(Cipher.ENCRYPT_MODE, key, freshIv());
                cipher.doFinal(in, 0, size, out, 0);
            } else {
                int i = next++ % RING;
                cipher.init(Cipher.DECRYPT_MODE, key, spec(ivs[i]));
                cipher.doFinal(sealed[i], 0, sealed[i].length, out, 0);
            }
        }
    }

    /** Calls for {@code seconds} of wall clock after {@code warmup}: {count, divisor nanoseconds}. */
    static long[] measure(Call m, double seconds, double warmup, boolean cpu) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long end = System.nanoTime() + (long) (warmup * 1e9);
        while (System.nanoTime() < end) m.call();
        int batch = 1;  // batches of ~5 ms keep the clock reads out of the timed cost
        while (batch < (1 << 20)) {
            long t0 = System.nanoTime();
            for (int i = 0; i < batch; i++) m.call();
            if (System.nanoTime() - t0 >= 5_000_000L) break;
            batch *= 2;
        }
        long count = 0;
        // Thread CPU time (user + system; a cipher loop makes no system calls) comes from
        // CLOCK_THREAD_CPUTIME_ID in nanoseconds; the user time alone only in 10 ms clock ticks.
        long c0 = cpu ? threads.getCurrentThreadCpuTime() : System.nanoTime();
        end = System.nanoTime() + (long) (seconds * 1e9);
        while (System.nanoTime() < end) {
            for (int i = 0; i < batch; i++) m.call();
            count += batch;
        }
        long c1 = cpu ? threads.getCurrentThreadCpuTime() : System.nanoTime();
        return new long[] {count, c1 - c0};
    }
}
