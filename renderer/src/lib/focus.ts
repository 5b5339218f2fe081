/**
 * Where keyboard focus goes when the screen changes: into the screen's main region after a `g` shortcut, back to the
 * library row a document was opened from, and to a neighbour when a row leaves a list.
 */

/** The element a screen marks as its main region (the library's list, a screen's body). */
export const MAIN_REGION = '[data-main-region]';

/**
 * Focuses the first element matching `selector`, once it is there. Screens other than the library load on demand, so
 * it waits for the element to appear, for at most `frames` animation frames.
 */
export async function focusWhenShown(selector: string, root: ParentNode = document, frames = 120): Promise<boolean> {
  for (let frame = 0; frame < frames; frame++) {
    const element = root.querySelector<HTMLElement>(selector);
    if (element) {
      element.focus({ preventScroll: true });
      element.scrollIntoView({ block: 'nearest' });
      return true;
    }
    await new Promise((done) => requestAnimationFrame(done));
  }
  return false;
}

/** Focuses the main region of the screen being shown. */
export function focusMainRegion(): Promise<boolean> {
  return focusWhenShown(MAIN_REGION);
}

/** The library row a document was opened from, so the way back lands on it. */
export const libraryReturn: { id: string | null; index: number } = { id: null, index: 0 };

export function rememberOpenedRow(id: string, index: number): void {
  libraryReturn.id = id;
  libraryReturn.index = index;
}

/**
 * The row to come back to: `index` when it still holds that document, else wherever the document is among the
 * loaded rows (the list may have changed meanwhile), else null.
 */
export function returnIndex(
  rowAt: (index: number) => { id: string } | undefined,
  indexOf: (id: string) => number,
  back: { id: string | null; index: number },
): number | null {
  if (!back.id) return null;
  if (rowAt(back.index)?.id === back.id) return back.index;
  const found = indexOf(back.id);
  return found >= 0 ? found : null;
}

/**
 * The row to put focus on when row `removed` has left a list (a bill marked paid): the first of the rows that
 * followed it that is still listed, else the nearest one before it, else the first; null when the list is empty.
 * `before` and `after` are the rows' ids in the order shown, before and after the change.
 */
export function rowAfterRemoval(before: readonly string[], removed: string, after: readonly string[]): string | null {
  const listed = new Set(after);
  // Back again (an undo): the row itself.
  if (listed.has(removed)) return removed;
  const at = before.indexOf(removed);
  const next = at < 0 ? undefined : before.slice(at + 1).find((id) => listed.has(id));
  return next ?? before.slice(0, Math.max(at, 0)).findLast((id) => listed.has(id)) ?? after[0] ?? null;
}
