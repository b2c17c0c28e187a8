"""Print how long one redraw of each explorer takes on the bundled data (target: < 200 ms).

    python benchmarks/widget_redraw.py [ROUNDS]

A redraw is what a user waits for after touching a control: the cipherlab.stats calls, the
cipherlab.plots drawing and the PNG encoding, until the new picture is sent to the page
(``Explorer.image_s``; the kernel->browser transfer of the PNG, ~50-100 kB, is not included;
the browser test measures it), and the whole handler with the tables under the figure
(``Explorer.redraw_s``). The CPU column is the median CPU time of the whole
handler of a change, including the garbage collection that runs once the new picture has been
sent. Each explorer is built once on ``datasets.load()`` (the first draw also imports seaborn
and warms matplotlib's font cache, so it is reported apart), then the controls a user
typically changes are cycled ROUNDS times (default 5). Wall and CPU time are printed with the
load average, since the 2-core machines this runs on are often shared.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
import warnings


def _measure(w, changes, rounds, before=None, warm=False):
    wall, image, cpu = [], [], []
    if warm:  # one unmeasured pass: every selection of the case has been seen before
        for control, value in changes:
            control.value = value
    for _ in range(rounds):
        for control, value in changes:
            if before is not None:
                before()
            c0 = time.process_time()
            control.value = value
            cpu.append(time.process_time() - c0)
            wall.append(w.redraw_s)
            image.append(w.image_s)
            if w.message:
                raise SystemExit(f"{type(w).__name__}: {control.description}={value!r} could not "
                                 f"be drawn: {w.message}")
    return image, wall, cpu


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    load_before = os.getloadavg()
    import cipherlab
    from cipherlab import widgets

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", cipherlab.CipherlabWarning)
        df = cipherlab.datasets.load()
    onoff = df[df.aesni.notna()]
    cases = []
    t0 = time.perf_counter()
    w = widgets.explorer(df)
    first = time.perf_counter() - t0
    cases.append(("explorer: algorithm, metric, block range", w, [
        (w.algorithm, "aes-128-cbc"), (w.algorithm, "aes-128-gcm"),
        (w.metric, "ratio to baseline"), (w.metric, "bytes/s"),
        (w.blocks, (64, 8192)), (w.blocks, (w.blocks.options[0][1], w.blocks.options[-1][1])),
    ]))
    s = widgets.speedup_explorer(onoff)
    cases.append(("speedup_explorer: claimed-ratio slider", s, [
        (s.expected, 2.5), (s.expected, 5.0), (s.expected, 2.0)]))
    # A change of sides recomputes the per-cell comparison and draws it (left figure) besides
    # the ratio test. Toggling Holm/BH the first time recomputes the p-values but finds the
    # same picture when the same cells are significant; a new choice of algorithms (both
    # caches emptied before each change: the worst case) draws both figures; a choice seen
    # before shows the comparison kept from the first visit.
    def forget_sides():
        s._sides.clear()

    def forget_all():
        s._sides.clear()
        s._pictures.clear()

    algos = s.algorithms.options
    gcm = tuple(a for a in algos if "gcm" in a or "poly" in a)
    cbc = tuple(a for a in algos if "cbc" in a)
    cases.append(("speedup_explorer: Holm / BH, first time", s,
                  [(s.adjust, "bh"), (s.adjust, "holm")], forget_sides))
    choose = [(s.algorithms, gcm), (s.algorithms, cbc), (s.algorithms, tuple(algos))]
    cases.append(("speedup_explorer: new choice of sides", s, choose, forget_all))
    cases.append(("speedup_explorer: choice of sides seen before", s,
                  choose + [(s.adjust, "bh"), (s.adjust, "holm")], "warm"))
    o = widgets.overhead_explorer(df)
    cases.append(("overhead_explorer: algorithm b", o, [
        (o.b, "aes-256-cbc"), (o.b, "aes-128-cbc")]))
    cases = [case if len(case) == 4 else (*case, None) for case in cases]

    print(f"bundled data: {len(df):,} rows; {rounds} rounds per case; first draw (imports, "
          f"font cache): {first * 1e3:.0f} ms")
    print(f"{'':52s} {'to the new image (ms)':^26s} {'whole (ms)':^17s}")
    print(f"{'case':48s} {'n':>3s} {'median':>8s} {'p90':>8s} {'max':>8s} {'median':>8s} "
          f"{'CPU':>8s}")
    for name, widget, changes, before in cases:
        if before == "warm":
            image, wall, cpu = _measure(widget, changes, rounds, warm=True)
        else:
            image, wall, cpu = _measure(widget, changes, rounds, before)
        image_ms = sorted(x * 1e3 for x in image)
        p90 = image_ms[min(len(image_ms) - 1, int(0.9 * len(image_ms)))]
        print(f"{name:48s} {len(image):3d} {statistics.median(image_ms):8.0f} {p90:8.0f} "
              f"{image_ms[-1]:8.0f} {statistics.median(wall) * 1e3:8.0f} "
              f"{statistics.median(cpu) * 1e3:8.0f}")
    load_after = os.getloadavg()
    print(f"load average (1 min) before/after: {load_before[0]:.2f} / {load_after[0]:.2f} "
          f"on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
