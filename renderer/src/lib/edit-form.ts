/**
 * What the app's edit forms (a document's details, an event) share: a checked change is sent only when something
 * changed, the service's refusal is shown in the form, and Escape closes the form rather than the screen behind it.
 */

export type CheckedEdit<P, E> = { ok: true; patch: P; changed: boolean } | { ok: false; errors: E };

export interface EditFormState<R, E> {
  /** The fields' errors, or null when the change passed its checks. */
  showErrors(errors: E | null): void;
  /** The service's answer, or null when nothing changed and nothing was sent. */
  saved(result: R | null): void;
  refused(error: unknown): void;
  busy(saving: boolean): void;
}

export async function saveEdit<P, R, E>(
  checked: CheckedEdit<P, E>,
  send: (patch: P) => Promise<R>,
  form: EditFormState<R, E>,
): Promise<void> {
  form.showErrors(checked.ok ? null : checked.errors);
  if (!checked.ok) return;
  if (!checked.changed) {
    form.saved(null);
    return;
  }
  form.busy(true);
  try {
    form.saved(await send(checked.patch));
  } catch (error) {
    form.refused(error);
  } finally {
    form.busy(false);
  }
}

/**
 * Escape on the form closes it, not the screen behind it. Listened to on the element rather than with onkeydown on
 * <form>, which the a11y lint rejects on a non-interactive element. Returns the function that stops listening.
 */
export function closeOnEscape(element: HTMLElement | null | undefined, close: () => void): () => void {
  const onKey = (event: KeyboardEvent): void => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    close();
  };
  element?.addEventListener('keydown', onKey);
  return () => element?.removeEventListener('keydown', onKey);
}
