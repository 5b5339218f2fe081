/**
 * Runs `task` once the next frame has been painted (a task queued from that frame's requestAnimationFrame runs after
 * its paint), or at once in a hidden page, which paints no frame until it is shown (a tab opened in the background, a
 * window not shown yet). No timer stands in for the frame: on a slow or busy machine a page's first frame takes longer
 * than any guess, and a timer that fired first would run the task in the middle of it.
 */
export function afterNextPaint(task: () => void): void {
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
  requestAnimationFrame(() => setTimeout(once, 0));
}
