/**
 * Desktop UI benchmark (`npm run bench -- ui`): the built renderer in Chromium (the e2e tests', see
 * test/helpers/find-browser.ts; the notes name its version) on the browser shell, over a
 * library cache seeded with 10,000 documents. Four figures: the time from navigation start to the first library row
 * on screen (the browser's Element Timing render time; median of 9 fresh loads, split into phases in the notes; the
 * target scales with a SHA-256 CPU reference; beside it, interleaved, the same without the library's first paint, and
 * two peers: that first frame as static HTML, and one row of text),
 * the frame intervals while the virtual list is scrolled for 3 s, the gzipped size of the JavaScript index.html loads
 * before anything else (the entry and its static imports; lazy chunks and the pdf.js worker are not part of the first
 * paint), and the status latency: from the embedded service finishing a document to its row showing "Completed".
 */
import { gzipSync } from 'node:zlib';
import { cp, mkdtemp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { LibraryCache } from '../../main/core/library/library-cache.ts';
import { startWebShell } from '../../main/web/web-shell.ts';
import { ensureRenderer, launchChromium, RENDERER_DIR, startDesktop, until } from '../e2e/e2e-harness.ts';
import { makePdf } from '../helpers/archive-harness.ts';
import { syntheticDocuments, syntheticEvents } from '../helpers/synthetic-documents.ts';
import {
  machineCpuMs,
  median,
  ms,
  percentile,
  sha256Reference,
  spread,
  waitForQuietMachine,
  type BenchReport,
  type BenchRow,
} from './bench-utils.ts';

const DOCUMENTS = Number(process.env.BENCH_UI_DOCUMENTS ?? 10_000);
/** Fresh loads of each kind, interleaved; a fresh context's time varies by ±30 % here, so a median needs more than 5. */
const LOADS = Number(process.env.BENCH_UI_LOADS ?? 9);
const SCROLL = { durationMs: 3_000, pxPerFrame: 150 };
/** BENCH_UI_PROFILE=file.cpuprofile: the page's V8 CPU profile of the first measured cold load (open it in DevTools). */
const PROFILE_PATH = process.env.BENCH_UI_PROFILE || undefined;
const TARGETS = { firstRenderMs: 150, framesUnder: 0.95, frameMs: 16.7, initialJsKb: 500 };
/** SHA-256 MB/s of the machine in docs/benchmarks.md: the first-row target holds there, and scales on a slower CPU. */
const REFERENCE_SHA256_MBPS = 1_405;
const STATUS_UPLOADS = 5;
const STATUS_MAX_MS = 1_000;

/** The floor peer: what a fresh context takes to paint one row of text, with no style sheet and no script. */
const ONE_ROW_PAGE =
  '<!doctype html><html lang="en"><title>Archive</title><div data-testid="library-row" data-id="1" elementtiming="first-row">Invoice</div></html>';

/**
 * Runs in the page before its scripts: notes when the first row with a document is in the DOM, when the frame that
 * shows it has been produced on the main thread (a task queued from that frame's requestAnimationFrame runs after its
 * paint), and when the browser presented it on screen: the Element Timing entry of the first row's title
 * (`elementtiming="first-row"`), whose render time comes once the frame has been rasterised and drawn. With software
 * rendering on two cores that is 100-150 ms after the main thread's part, and work the page starts in between (its
 * scripts) delays it; the earlier suites reported the main thread's figure. `__firstRowShown` settles with the
 * figures; the suite awaits it over CDP (Runtime.evaluate), not with Playwright's waitForFunction, whose injected
 * script (~330 KB) would be compiled and run on the page's main thread in the middle of the start-up it measures
 * (16 ms in a trace).
 */
const FIRST_ROW_PROBE = `
  window.__firstRow = null;
  let shown;
  window.__firstRowShown = new Promise((resolve) => { shown = resolve; });
  let produced = null;
  let presented = null;
  const settle = () => {
    if (produced === null || presented === null) return;
    window.__firstRow = { ...produced, presented };
    shown(window.__firstRow);
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (entry.identifier === 'first-row' && presented === null) presented = entry.renderTime || entry.loadTime;
    settle();
  }).observe({ type: 'element', buffered: true });
  let seen = false;
  const observer = new MutationObserver(() => {
    if (seen) return;
    const row = document.querySelector('[data-testid=library-row][data-id]');
    if (!row) return;
    seen = true;
    observer.disconnect();
    const inDom = performance.now();
    requestAnimationFrame(() => setTimeout(() => {
      const box = row.getBoundingClientRect();
      produced = { inDom, painted: performance.now(), visible: box.height > 0 && box.top < innerHeight };
      settle();
    }, 0));
  });
  observer.observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-id'] });
`;

/**
 * Runs in the page before its scripts, next to FIRST_ROW_PROBE: when the bridge's socket was created and opened, when
 * each call went out and its answer came in (a listener added before the bridge's own sees the frame first), and when
 * the Library screen entered the DOM. Together with the navigation and resource timings this splits the first paint
 * into phases without touching the app.
 */
const PHASE_PROBE = `
  window.__phases = { socket: null, socketOpen: null, calls: [], shell: null };
  const phases = window.__phases;
  const NativeSocket = window.WebSocket;
  window.WebSocket = class extends NativeSocket {
    constructor(url, protocols) {
      super(url, protocols);
      phases.socket ??= performance.now();
      const byId = new Map();
      this.addEventListener('open', () => { phases.socketOpen ??= performance.now(); });
      // The id leads every answer the shell sends ({"id":…}); reading it needs no parse of the whole frame (the
      // first library page is 130 KB of JSON, whose parse here would be a cost of the probe in the app's figure).
      this.addEventListener('message', (event) => {
        const id = /^[{]"id":(-?[0-9]+)/.exec(typeof event.data === 'string' ? event.data : '');
        const call = id ? byId.get(Number(id[1])) : undefined;
        if (call) call.answered = performance.now();
      });
      const send = this.send.bind(this);
      this.send = (data) => {
        try {
          const frame = JSON.parse(data);
          const call = { call: frame.call, sent: performance.now(), answered: null };
          byId.set(frame.id, call);
          phases.calls.push(call);
        } catch {}
        return send(data);
      };
    }
  };
  const shellObserver = new MutationObserver(() => {
    if (!document.querySelector('[data-testid=library]')) return;
    phases.shell = performance.now();
    shellObserver.disconnect();
  });
  shellObserver.observe(document, { subtree: true, childList: true });
`;

/** The phases of one cold load, in ms from navigation start. */
interface Phases {
  html: number;
  scripts: number;
  domContentLoaded: number;
  socket: number | null;
  socketOpen: number | null;
  calls: Array<{ call: string; sent: number; answered: number | null }>;
  shell: number | null;
  /** The renderer's own start-up marks (main.ts): entry evaluated, mount started and returned. */
  marks: Record<string, number>;
  /** Main-thread time by kind (Chrome's Performance.getMetrics), ms. */
  script: number;
  styleAndLayout: number;
  task: number;
}

const PHASES_OF_PAGE = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const scripts = performance.getEntriesByType('resource').filter((r) => r.initiatorType === 'script' || r.name.endsWith('.js'));
  return { html: nav.responseEnd, domContentLoaded: nav.domContentLoadedEventEnd,
    scripts: scripts.length ? Math.max(...scripts.map((r) => r.responseEnd)) : nav.responseEnd,
    socket: window.__phases.socket, socketOpen: window.__phases.socketOpen, calls: window.__phases.calls, shell: window.__phases.shell,
    marks: Object.fromEntries(performance.getEntriesByType('mark').filter((m) => m.name.startsWith('app:')).map((m) => [m.name, m.startTime])) };
})()`;

/** Scrolls the list by a fixed step every animation frame and records the frames' timestamps. */
const SCROLL_RUN = `(async ({ durationMs, pxPerFrame, item }) => {
  const scroller = document.querySelector('[data-testid=library-list]');
  const longFrames = [];
  let observer = null;
  try {
    observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) longFrames.push(e.duration); });
    observer.observe({ type: 'long-animation-frame', buffered: false });
  } catch { observer = null; }
  const stamps = [];
  let skeletonFrames = 0;
  await new Promise((done) => {
    let start = null;
    const frame = (t) => {
      stamps.push(t);
      if (start === null) start = t;
      if (document.querySelector('[data-testid=' + item + ']:not([data-id])')) skeletonFrames++;
      if (t - start >= durationMs) return done();
      scroller.scrollTop += pxPerFrame;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  });
  observer?.disconnect();
  return { stamps, longFrames, loafSupported: observer !== null, skeletonFrames, scrollTop: scroller.scrollTop,
    firstIndex: Number(document.querySelector('[data-testid=' + item + ']')?.dataset.index ?? -1) };
})`;

/**
 * Runs in the page of the status-latency stage: notes the wall-clock time (ms since the epoch, comparable with the
 * app's process on the same machine) at which each library row first shows the status "completed".
 */
const COMPLETED_PROBE = `
  window.__completedAt = {};
  new MutationObserver(() => {
    for (const row of document.querySelectorAll('[data-testid=library-row][data-status=completed][data-id]')) {
      window.__completedAt[row.dataset.id] ??= performance.timeOrigin + performance.now();
    }
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-status', 'data-id'] });
`;

interface FirstRow {
  inDom: number;
  /** The frame with the row produced on the main thread. */
  painted: number;
  /** The row on screen: its Element Timing render time. */
  presented: number;
  visible: boolean;
}
interface ScrollResult {
  stamps: number[];
  longFrames: number[];
  loafSupported: boolean;
  skeletonFrames: number;
  scrollTop: number;
  firstIndex: number;
}

export async function run(): Promise<BenchReport> {
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  await ensureRenderer();
  rows.push(...(await bundleRows(notes)));

  const dir = await mkdtemp(join(tmpdir(), 'ui-bench-'));
  try {
    await mkdir(join(dir, 'data'), { recursive: true });
    const seeded = performance.now();
    const cache = new LibraryCache(join(dir, 'data', 'library.sqlite'));
    const documents = syntheticDocuments(DOCUMENTS);
    cache.upsertDocuments(documents, Date.now());
    // Invoices for every second document, so half the grid's cards show an amount as in a real archive.
    const events = syntheticEvents(documents);
    cache.upsertEvents(events);
    cache.close();
    notes.push(
      `${DOCUMENTS.toLocaleString('en')} synthetic documents and ${events.length.toLocaleString('en')} invoices with amounts written to the library cache in ${((performance.now() - seeded) / 1000).toFixed(1)} s.`,
    );

    // Not started: no sync would keep the cache as seeded (a full reconcile against the empty archive empties it).
    // Onboarded in the settings, as for anyone past the first start; each load below is a fresh browser context with
    // no first-paint cache (a new origin of the browser shell), so it also waits for settings.get: the cold path.
    const desktop = await startDesktop({ dir, start: false, settings: { ui: { onboarded: true } } });
    const browser = await launchChromium();
    try {
      const quiet = await waitForQuietMachine({ maxWaitMs: 30_000, busyBelow: 0.3 });
      // Measured once the machine is quiet: a busy neighbour would make this CPU look slow and loosen the target.
      const cpuMBps = sha256Reference();
      // The first-row target is for the machine of docs/benchmarks.md and scales with a slower CPU (twice as slow, twice the time).
      const firstRenderMaxMs = TARGETS.firstRenderMs * Math.max(1, REFERENCE_SHA256_MBPS / cpuMBps);
      notes.unshift(
        `CPU reference: SHA-256 in memory ${cpuMBps.toFixed(0)} MB/s (node:crypto over 64 MB, median of 3); the machine of docs/benchmarks.md ` +
          `does ${REFERENCE_SHA256_MBPS.toLocaleString('en')} MB/s, so the first-row target here is ${firstRenderMaxMs.toFixed(0)} ms.`,
      );
      const cpu0 = machineCpuMs();
      const load0 = loadavg()[0]!;

      let profileNextLoad = false;
      // The address the app prints carries its token in the query, so the shell serves the library's first paint;
      // the same token in the hash (how earlier versions printed it) gets the plain page: the first start's path.
      const withFirstPaint = desktop.shell.url;
      const withoutFirstPaint = `${new URL(withFirstPaint).origin}/#token=${desktop.shell.token}`;
      const loadOnce = async (
        url = withFirstPaint,
      ): Promise<{
        first: FirstRow;
        /** The page's timings so far (read once the app is ready, so that its calls have been answered). */
        phases: () => Promise<Phases>;
        page: Page;
        cdp: CDPSession;
        close: () => Promise<void>;
      }> => {
        const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, locale: 'en-US' });
        await context.addInitScript(FIRST_ROW_PROBE);
        await context.addInitScript(PHASE_PROBE);
        const page = await context.newPage();
        const cdp = await context.newCDPSession(page);
        await cdp.send('Performance.enable');
        const before = metricsOf(await cdp.send('Performance.getMetrics'));
        const profilePath = profileNextLoad ? PROFILE_PATH : undefined;
        profileNextLoad = false;
        if (profilePath) {
          await cdp.send('Profiler.enable');
          await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
          await cdp.send('Profiler.start');
        }
        await page.goto(url);
        const first = await firstRowShown(cdp);
        if (profilePath) {
          const { profile } = await cdp.send('Profiler.stop');
          await writeFile(profilePath, JSON.stringify(profile));
          notes.push(`The page's CPU profile of the first measured cold load is in ${profilePath} (BENCH_UI_PROFILE).`);
        }
        const after = metricsOf(await cdp.send('Performance.getMetrics'));
        if (!first.visible) throw new Error('the first library row was in the DOM but not on screen');
        const phases = async (): Promise<Phases> => ({
          ...((await page.evaluate(PHASES_OF_PAGE)) as Omit<Phases, 'script' | 'styleAndLayout' | 'task'>),
          script: after.ScriptDuration - before.ScriptDuration,
          styleAndLayout:
            after.RecalcStyleDuration + after.LayoutDuration - before.RecalcStyleDuration - before.LayoutDuration,
          task: after.TaskDuration - before.TaskDuration,
        });
        return { first, phases, page, cdp, close: () => context.close() };
      };

      // One unmeasured load warms the cache database's pages and the shell's file reads, as a running app has them,
      // and stays until the library has been kept for the next start's first paint (lib/first-paint.ts, SETTLE_MS).
      const warmUp = await loadOnce();
      await until(async () => desktop.app.firstPaint().snapshot, 'the library kept for the first paint', 15_000);
      await warmUp.close();
      profileNextLoad = PROFILE_PATH !== undefined;
      const firstRender: number[] = [];
      const produced: number[] = [];
      const floorProduced: number[] = [];
      const inDom: number[] = [];
      const phases: Phases[] = [];
      const busyBefore: number[] = [];
      // The peer: the very page of the first paint with every script taken out, served by a second shell on the same
      // app. What a fresh context takes to paint this screen from HTML alone is the floor of this machine's browser.
      const staticDir = join(dir, 'static-renderer');
      await cp(RENDERER_DIR, staticDir, { recursive: true });
      const servedPage = await (await fetch(withFirstPaint)).text();
      if (!servedPage.includes('data-first-paint')) throw new Error('the shell served no first paint');
      await writeFile(join(staticDir, 'index.html'), servedPage.replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, ''));
      const staticShell = await startWebShell({ app: desktop.app, rendererDir: staticDir });
      const plain: number[] = [];
      const floor: number[] = [];
      // The browser's own floor: a page with one row and nothing else, from the same shell.
      await writeFile(join(staticDir, 'one-row.html'), ONE_ROW_PAGE);
      const blank: number[] = [];
      const ready: number[] = [];
      const readyPlain: number[] = [];
      try {
        // Interleaved, so a slower minute of the machine weighs on all three alike.
        for (let i = 0; i < LOADS; i++) {
          // Each load waits for a quiet second: the machine is shared, and one busy neighbour doubles a figure.
          busyBefore.push((await waitForQuietMachine({ maxWaitMs: 20_000, busyBelow: 0.15 })).busyShare);
          const loaded = await loadOnce();
          firstRender.push(loaded.first.presented);
          produced.push(loaded.first.painted);
          inDom.push(loaded.first.inDom);
          ready.push(await appMounted(loaded.cdp));
          phases.push(await loaded.phases());
          const total = await loaded.page.getByTestId('library-total').textContent();
          if (!total?.includes(DOCUMENTS.toLocaleString('en-US')))
            throw new Error(`the library shows "${total}", not ${DOCUMENTS} documents`);
          await loaded.close();
          // The path of a start with no first paint kept yet (the first start, or another archive's).
          busyBefore.push((await waitForQuietMachine({ maxWaitMs: 20_000, busyBelow: 0.15 })).busyShare);
          const first = await loadOnce(withoutFirstPaint);
          plain.push(first.first.presented);
          readyPlain.push(await appMounted(first.cdp));
          await first.close();
          busyBefore.push((await waitForQuietMachine({ maxWaitMs: 20_000, busyBelow: 0.15 })).busyShare);
          const still = await loadOnce(staticShell.url);
          floor.push(still.first.presented);
          floorProduced.push(still.first.painted);
          await still.close();
          busyBefore.push((await waitForQuietMachine({ maxWaitMs: 20_000, busyBelow: 0.15 })).busyShare);
          const oneRow = await loadOnce(`${new URL(staticShell.url).origin}/one-row.html`);
          blank.push(oneRow.first.presented);
          await oneRow.close();
        }
      } finally {
        await staticShell.close();
      }
      rows.push({
        name: `first library row on screen, ${DOCUMENTS.toLocaleString('en')} cached documents (first paint kept)`,
        measured: `${spread(firstRender)}; row in DOM at ${ms(median(inDom))}`,
        target: {
          label: `median < ${firstRenderMaxMs.toFixed(0)} ms`,
          value: median(firstRender),
          max: firstRenderMaxMs,
          unit: 'ms',
        },
      });

      rows.push({
        name: 'first library row: its frame produced on the main thread (the figure reported until 2026-11-27)',
        measured: `${spread(produced)}; the static peer's ${ms(median(floorProduced))}`,
      });
      rows.push({
        name: 'first library row on screen, no first paint kept yet (first start)',
        measured: spread(plain),
      });
      rows.push({
        name: 'peer: the same first frame as static HTML, no script (fresh context)',
        measured: `${spread(floor)}; the app's first paint ${median(firstRender.map((t, i) => t / floor[i]!)).toFixed(2)}× this (median of each round's ratio)`,
      });
      rows.push({
        name: "peer: a page of one row, the browser's floor (fresh context)",
        measured: `${spread(blank)}; the app's first paint ${ms(median(firstRender.map((t, i) => t - blank[i]!)))} above it (median of each round's difference)`,
      });
      rows.push({
        name: 'app ready (mounted, answers input)',
        measured: `median ${ms(median(ready))} with the first paint kept (min ${ms(Math.min(...ready))}, max ${ms(Math.max(...ready))}); ${ms(median(readyPlain))} at a first start`,
      });

      // Reloads in one context: HTTP and V8 code caches are warm, as when a packaged app opens its window again.
      const warm = await loadOnce();
      const reloads: number[] = [];
      for (let i = 0; i < LOADS; i++) {
        busyBefore.push((await waitForQuietMachine({ maxWaitMs: 20_000, busyBelow: 0.15 })).busyShare);
        await warm.page.reload();
        reloads.push((await firstRowShown(warm.cdp)).presented);
      }
      await warm.close();
      notes.push(phaseNote(phases, inDom, produced, firstRender));
      rows.push({
        name: 'first library row on screen, reload (warm caches)',
        measured: spread(reloads),
      });

      // The address opened again in a new tab of the same browser profile (a second tab of one start; the Electron app
      // keeps its compiled code across starts the same way): the browser has the app's scripts and their compiled code,
      // while the page itself (with the first paint) is never cached.
      const profile = await browser.newContext({ viewport: { width: 1360, height: 860 }, locale: 'en-US' });
      const restarts: Array<{ first: number; ready: number }> = [];
      try {
        await profile.addInitScript(FIRST_ROW_PROBE);
        for (let i = 0; i < LOADS + 2; i++) {
          busyBefore.push((await waitForQuietMachine({ maxWaitMs: 20_000, busyBelow: 0.15 })).busyShare);
          const page = await profile.newPage();
          const cdp = await profile.newCDPSession(page);
          await page.goto(withFirstPaint);
          const first = (await firstRowShown(cdp)).presented;
          const mounted = await appMounted(cdp);
          // The first two starts fill the caches (V8 keeps a script's code from its second load on).
          if (i >= 2) restarts.push({ first, ready: mounted });
          await page.close();
        }
      } finally {
        await profile.close();
      }
      rows.push({
        name: 'the address opened again in the same browser (its caches kept, first paint kept)',
        measured: `first row ${spread(restarts.map((r) => r.first))}; ready ${ms(median(restarts.map((r) => r.ready)))}`,
      });

      const loaded = await loadOnce();
      for (const view of ['list', 'grid'] as const) {
        const item = view === 'list' ? 'library-row' : 'library-cell';
        if (view === 'grid') {
          await loaded.page.getByTestId('view-grid').click();
          await loaded.page.locator('[data-testid=library-cell][data-id]').first().waitFor();
          await loaded.page.getByTestId('library-list').evaluate((el) => {
            el.scrollTop = 0;
          });
        }
        await loaded.page.waitForTimeout(500);
        busyBefore.push((await waitForQuietMachine({ maxWaitMs: 20_000, busyBelow: 0.15 })).busyShare);
        const scroll = (await loaded.page.evaluate(
          `${SCROLL_RUN}(${JSON.stringify({ ...SCROLL, item })})`,
        )) as ScrollResult;
        const intervals = scroll.stamps.slice(1).map((t, i) => t - scroll.stamps[i]!);
        // rAF timestamps are vsync-aligned (60 Hz: 16.67 ms) but coarsened and jittered by the browser (100 µs steps), so a
        // frame on time reads 16.6-16.8 ms; 0.2 ms of slack keeps that noise from counting as a miss. A missed frame reads 33 ms.
        const onTime = intervals.filter((d) => d <= TARGETS.frameMs + 0.2).length / intervals.length;
        const dropped = intervals.filter((d) => d > TARGETS.frameMs * 1.5).length;
        const p95 = percentile(intervals, 95);
        rows.push({
          name: `scrolling the ${view} (${SCROLL.pxPerFrame} px per frame for ${SCROLL.durationMs / 1000} s)`,
          measured: `${(onTime * 100).toFixed(1)} % of ${intervals.length} frames ≤ ${TARGETS.frameMs} ms (${dropped} late) · p50 ${ms(median(intervals))} · p95 ${ms(p95)} · max ${ms(Math.max(...intervals))}`,
          target: {
            label: `≥ ${TARGETS.framesUnder * 100} % of frames ≤ ${TARGETS.frameMs} ms`,
            value: 1 - onTime,
            max: 1 - TARGETS.framesUnder + 1e-9,
            unit: 'share missed',
          },
        });
        notes.push(
          `Scroll (${view}): ${scroll.scrollTop.toLocaleString('en')} px in ${intervals.length + 1} frames (down to item ${scroll.firstIndex.toLocaleString('en')}); ` +
            `${scroll.skeletonFrames} frame(s) showed an item still loading; ` +
            (scroll.loafSupported
              ? `${scroll.longFrames.length} long animation frame(s) > 50 ms${scroll.longFrames.length ? ` (longest ${ms(Math.max(...scroll.longFrames))})` : ''}.`
              : 'long-animation-frame entries not supported.') +
            (view === 'grid'
              ? ' Cells ask for their thumbnails only once the grid has rested (lib/thumbs.ts), so none is asked for while it ' +
                'scrolls; the synthetic documents have no files anyway, so pdf.js thumbnails are not part of this figure.'
              : ''),
        );
      }
      await loaded.close();

      rows.push(await statusLatencyRow(browser, notes));

      const cpu1 = machineCpuMs();
      notes.push(
        `Machine ${(quiet.busyShare * 100).toFixed(0)} % busy before the measurements (the second before each load and the scroll: ` +
          `${busyBefore.map((b) => `${(b * 100).toFixed(0)} %`).join(', ')}), ${((100 * (cpu1.busy - cpu0.busy)) / Math.max(1, cpu1.total - cpu0.total)).toFixed(0)} % during them ` +
          `(2 cores, Chromium and the app included); load average ${load0.toFixed(2)} → ${loadavg()[0]!.toFixed(2)}.`,
      );
      notes.push(
        `Chromium ${browser.version()} headless, software rendering (--disable-gpu), viewport 1360×860; each load in a fresh browser context ` +
          '(no HTTP cache, no V8 code cache), timed from navigation start (performance.now()).',
      );
    } finally {
      await browser.close();
      await desktop.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { suite: 'ui', title: 'Desktop UI (renderer in Chromium, browser shell)', rows, notes };
}

/**
 * Item 2 of issue 14: the time from the embedded service finishing a document (its processor's status listener called
 * at the job's end, in the app's process) to the library row in the page showing "Completed". A second app on an
 * empty archive, started (sync, follower and the service's pushes all live), with the Library open; each upload is a
 * small text PDF added through uploads.add, one at a time.
 */
async function statusLatencyRow(browser: Browser, notes: string[]): Promise<BenchRow> {
  const dir = await mkdtemp(join(tmpdir(), 'ui-bench-status-'));
  const desktop = await startDesktop({ dir, settings: { ui: { onboarded: true } } });
  const context = await browser.newContext({ viewport: { width: 1360, height: 860 }, locale: 'en-US' });
  try {
    const processor = desktop.app.core.local?.service.processor;
    if (!processor) throw new Error('the app under test runs no embedded service');
    const finishedAt = new Map<string, number>();
    processor.onStatusChange((id) => finishedAt.set(id, performance.timeOrigin + performance.now()));
    await context.addInitScript(COMPLETED_PROBE);
    const page = await context.newPage();
    await page.goto(desktop.shell.url);
    await page.getByTestId('library').waitFor();
    const latencies: number[] = [];
    for (let i = 0; i < STATUS_UPLOADS; i++) {
      const path = join(dir, `Rechnung-${4711 + i}.pdf`);
      await writeFile(
        path,
        await makePdf([
          'Stadtwerke Beispiel GmbH',
          `Rechnung Nr. ${4711 + i}`,
          'Rechnungsdatum: 01.11.2026',
          `Gesamtbetrag ${89 + i},50 EUR`,
        ]),
      );
      const [item] = await desktop.app.handlers['uploads.add']({ paths: [path] });
      if (!item) throw new Error(`uploads.add took nothing for ${path}`);
      const documentId = await until(
        async () =>
          (await desktop.app.handlers['uploads.list']({ limit: 500, offset: 0 })).items.find((u) => u.id === item.id)
            ?.document_id,
        `the upload of ${path}`,
        60_000,
      );
      await page
        .locator(`[data-testid=library-row][data-id="${documentId}"][data-status=completed]`)
        .waitFor({ timeout: 60_000 });
      const shownAt = (await page.evaluate(`window.__completedAt[${JSON.stringify(documentId)}]`)) as number;
      const finished = finishedAt.get(documentId);
      if (finished === undefined) throw new Error(`the service never reported ${documentId} finished`);
      latencies.push(shownAt - finished);
    }
    notes.push(
      `Status latency: ${STATUS_UPLOADS} one-page text PDFs uploaded one at a time into an empty local archive with the Library open; ` +
        `from the processor's end-of-job notice to the row's data-status "completed" in the page (wall clocks of one machine): ${latencies.map((l) => ms(l)).join(', ')}.`,
    );
    const worst = Math.max(...latencies);
    return {
      name: 'status latency: service finished → library row shows "Completed" (embedded service)',
      measured: `median ${ms(median(latencies))} · max ${ms(worst)} (n=${latencies.length})`,
      target: { label: `max < ${STATUS_MAX_MS} ms`, value: worst, max: STATUS_MAX_MS, unit: 'ms' },
    };
  } finally {
    await context.close();
    await desktop.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** When the app had mounted (main.ts's `app:mounted` mark, ms from navigation start): from then on it answers input. */
function appMounted(cdp: CDPSession): Promise<number> {
  const expression = `new Promise((resolve) => {
    const seen = () => performance.getEntriesByName('app:mounted')[0]?.startTime;
    if (seen() !== undefined) return resolve(seen());
    new PerformanceObserver((list, observer) => {
      if (seen() === undefined) return;
      observer.disconnect();
      resolve(seen());
    }).observe({ type: 'mark' });
  })`;
  return awaitedInPage<number>(cdp, expression, 'the app did not mount');
}

/** FIRST_ROW_PROBE's figures once the first row has been painted. */
function firstRowShown(cdp: CDPSession): Promise<FirstRow> {
  return awaitedInPage<FirstRow>(cdp, 'window.__firstRowShown', 'no library row was painted');
}

/**
 * The value of a promise the page settles, over CDP (Runtime.evaluate), within 30 s: CDP's own `timeout` bounds only
 * the expression's synchronous run, not the wait for its promise.
 */
async function awaitedInPage<T>(cdp: CDPSession, expression: string, failure: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${failure} within 30 s`)), 30_000);
  });
  try {
    const answer = await Promise.race([
      cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }),
      timeout,
    ]);
    if (answer.exceptionDetails) throw new Error(`${failure}: ${answer.exceptionDetails.text}`);
    return answer.result.value as T;
  } finally {
    clearTimeout(timer);
  }
}

function metricsOf(answer: {
  metrics: Array<{ name: string; value: number }>;
}): Record<'ScriptDuration' | 'LayoutDuration' | 'RecalcStyleDuration' | 'TaskDuration', number> {
  const value = (name: string): number => (answer.metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
  return {
    ScriptDuration: value('ScriptDuration'),
    LayoutDuration: value('LayoutDuration'),
    RecalcStyleDuration: value('RecalcStyleDuration'),
    TaskDuration: value('TaskDuration'),
  };
}

/** The cold loads' phases as medians: where the time to the first row goes. */
function phaseNote(
  phases: readonly Phases[],
  inDom: readonly number[],
  painted: readonly number[],
  presented: readonly number[],
): string {
  const at = (pick: (p: Phases) => number | null | undefined): string => {
    const values = phases.map(pick).filter((v): v is number => typeof v === 'number');
    return values.length ? median(values).toFixed(0) : '–';
  };
  const call = (name: string, end: 'sent' | 'answered'): string =>
    at((p) => p.calls.find((c) => c.call === name)?.[end]);
  const calls = [...new Set(phases.flatMap((p) => p.calls.map((c) => c.call)))];
  return (
    `First paint by phase (cold loads, median ms from navigation start): HTML ${at((p) => p.html)}; scripts fetched ${at((p) => p.scripts)}; ` +
    `DOMContentLoaded ${at((p) => p.domContentLoaded)}; socket created ${at((p) => p.socket)}, open ${at((p) => p.socketOpen)}; ` +
    `${calls.map((c) => `${c} sent ${call(c, 'sent')} answered ${call(c, 'answered')}`).join('; ')}; ` +
    `app entry run ${at((p) => p.marks['app:entry'])}, mount from ${at((p) => p.marks['app:mount'])} to ${at((p) => p.marks['app:mounted'])}; Library in the DOM ${at((p) => p.shell)}; ` +
    `first row in the DOM ${median(inDom).toFixed(0)}, its frame produced ${median(painted).toFixed(0)}, on screen ${median(presented).toFixed(0)}. ` +
    `Main thread by the time these were read (the app's start included): script ${at((p) => p.script)}, ` +
    `style and layout ${at((p) => p.styleAndLayout)}, all tasks ${at((p) => p.task)} (Chrome's Performance.getMetrics).`
  );
}

/** The JS index.html loads up front: its module scripts, modulepreloads and their static imports, recursively. */
async function bundleRows(notes: string[]): Promise<BenchRow[]> {
  const html = await readFile(join(RENDERER_DIR, 'index.html'), 'utf8');
  const pending = [
    ...html.matchAll(
      /<script[^>]+type="module"[^>]+src="\.\/([^"]+)"|<link[^>]+rel="modulepreload"[^>]+href="\.\/([^"]+)"/g,
    ),
  ].map((m) => (m[1] ?? m[2])!);
  const seen = new Set<string>();
  let raw = 0;
  let gzipped = 0;
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const bytes = await readFile(join(RENDERER_DIR, file));
    raw += bytes.length;
    gzipped += gzipSync(bytes).length;
    const dirOf = file.slice(0, file.lastIndexOf('/') + 1);
    // Static `import … from "./x.js"` and `import "./x.js"` (minified: `from"./x.js"`); import("…") stays lazy.
    for (const m of bytes.toString('utf8').matchAll(/(?:\bfrom|\bimport)\s*["'](\.\/[^"']+\.js)["']/g))
      pending.push(dirOf + m[1]!.slice(2));
  }
  const css = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="\.\/([^"]+)"/g)].map((m) => m[1]!);
  let cssGzipped = 0;
  for (const file of css) cssGzipped += gzipSync(await readFile(join(RENDERER_DIR, file))).length;
  notes.push(`Initial JS: ${[...seen].join(', ')} (gzip level 6, as a server would send it).`);
  return [
    {
      name: 'initial JS, gzipped (entry + static imports)',
      measured: `${(gzipped / 1024).toFixed(1)} KB (${(raw / 1024).toFixed(0)} KB raw, ${seen.size} file${seen.size > 1 ? 's' : ''})`,
      target: { label: `< ${TARGETS.initialJsKb} KB`, value: gzipped / 1024, max: TARGETS.initialJsKb, unit: 'KB' },
    },
    { name: 'initial CSS, gzipped', measured: `${(cssGzipped / 1024).toFixed(1)} KB` },
  ];
}
