/**
 * The one catalogue of user-visible strings, in English (en.ts) and German (de.ts), for the renderer and the main
 * process alike (tray, native notifications): runtime-neutral, so both import it from common/. `de` is typed against
 * the English keys, so a missing German string is a type error (and a unit test checks the placeholders match).
 * Placeholders are written {name}. A message about a number of things has `one` and `other` forms (Intl.PluralRules'
 * categories for English and German).
 */
import { en } from './en.ts';

export { en };
export { de } from './de.ts';

export type MessageKey = keyof typeof en;
/** A message that depends on a number: the form is chosen by Intl.PluralRules from the `count` parameter. */
export type Plural = { readonly one: string; readonly other: string };
export type Message = string | Plural;
/** German mirrors English: a plain string where English has one, both forms where English has both. */
export type Dictionary = { [K in MessageKey]: (typeof en)[K] extends string ? string : Plural };
