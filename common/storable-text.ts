/**
 * Whether every string in a parsed JSON value (keys included) can be stored as text: well-formed Unicode (no lone
 * surrogate, which a JSON escape can spell but UTF-8 cannot hold) and no NUL (which PostgreSQL's text refuses).
 */
export function holdsOnlyStorableText(value: unknown): boolean {
  if (typeof value === 'string') return value.isWellFormed() && !value.includes('\0');
  if (Array.isArray(value)) return value.every(holdsOnlyStorableText);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).every(([key, entry]) => holdsOnlyStorableText(key) && holdsOnlyStorableText(entry));
  }
  return true;
}
