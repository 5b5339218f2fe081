/** Resolves when `pending` settles (fulfilled or rejected) or after `ms`, whichever comes first; never rejects. */
export function waitAtMost(pending: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    pending.then(done, done);
  });
}
