/**
 * Runs `run` once, after the next frame has been painted (a task queued from that frame's requestAnimationFrame runs
 * after its paint), or after `fallbackMs` when no frame comes: a hidden window runs no animation frames.
 */
export function afterNextPaint(run: () => void, fallbackMs = 250): void {
  let done = false;
  const once = (): void => {
    if (done) return;
    done = true;
    clearTimeout(fallback);
    run();
  };
  const fallback = setTimeout(once, fallbackMs);
  requestAnimationFrame(() => setTimeout(once, 0));
}
