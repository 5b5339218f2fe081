/**
 * Runs `task` once the next frame has been painted (a task queued from that frame's requestAnimationFrame runs after
 * its paint), or at once in a hidden page, which paints no frame until it is shown (a tab opened in the background, a
 * window not shown yet). No timer stands in for the frame: on a slow or busy machine a page's first frame takes longer
 * than any guess, and a timer that fired first would run the task in the middle of it.
 */
export function afterNextPaint(task: () => void): void {
  whenPainted(task, (once) => requestAnimationFrame(() => setTimeout(once, 0)));
}

/** How long after its first frame a page waits for that frame to be reported on screen before it starts anyway. */
const PRESENTED_WITHIN_MS = 1000;

/**
 * Runs `task` once the page's first content is on screen: when the browser reports its first contentful paint, which
 * it does once the frame has been rasterised and presented, not when the main thread has handed it over. Work started
 * in between (the app's scripts, the socket) competes with that rasterising for the CPU: with software rendering on
 * two cores the frame showed 60 ms later. Where the browser does not report paints, after the next frame; and at most
 * PRESENTED_WITHIN_MS after that frame, for a window that paints but is never presented (an Electron window created
 * hidden still paints and may read as visible), so that the app never waits for a report that does not come.
 */
export function afterFirstContentfulPaint(task: () => void): void {
  const reportsPaints =
    typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes.includes('paint');
  if (!reportsPaints) return afterNextPaint(task);
  whenPainted(task, (once) => {
    const painted = (): boolean => performance.getEntriesByName('first-contentful-paint').length > 0;
    if (painted()) return void setTimeout(once, 0);
    const observer = new PerformanceObserver(() => {
      if (!painted()) return;
      observer.disconnect();
      setTimeout(once, 0);
    });
    observer.observe({ type: 'paint' });
    requestAnimationFrame(() =>
      setTimeout(() => {
        observer.disconnect();
        once();
      }, PRESENTED_WITHIN_MS),
    );
  });
}

/** `task` once `waitForPaint` calls it, or at once when the page is or becomes hidden. */
function whenPainted(task: () => void, waitForPaint: (once: () => void) => void): void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    document.removeEventListener('visibilitychange', onHidden);
    task();
  };
  const onHidden = (): void => {
    if (document.visibilityState === 'hidden') once();
  };
  if (document.visibilityState === 'hidden') return once();
  document.addEventListener('visibilitychange', onHidden);
  waitForPaint(once);
}
