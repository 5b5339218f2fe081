import { describe, expect, it } from 'vitest';
import { rowAfterRemoval } from '../../renderer/src/lib/focus.ts';

describe('focus after a row leaves a list (Due: Mark paid)', () => {
  it('goes to the row that followed it, else the one before it, else the list (null)', () => {
    expect(rowAfterRemoval(['a', 'b', 'c'], 'b', ['a', 'c'])).toBe('c');
    expect(rowAfterRemoval(['a', 'b', 'c'], 'c', ['a', 'b'])).toBe('b');
    expect(rowAfterRemoval(['a'], 'a', [])).toBeNull();
  });

  it('skips neighbours that went with it, and comes back to a row that is listed again (an undo)', () => {
    // Two events folded into one row leave together; a reload may drop the next row too.
    expect(rowAfterRemoval(['a', 'b', 'c', 'd'], 'b', ['a', 'd'])).toBe('d');
    expect(rowAfterRemoval(['a', 'b', 'c'], 'c', ['a'])).toBe('a');
    expect(rowAfterRemoval(['a', 'c'], 'b', ['a', 'b', 'c'])).toBe('b');
  });

  it('falls back to the first row when none of the rows it knew is listed any more', () => {
    expect(rowAfterRemoval(['a', 'b'], 'b', ['x', 'y'])).toBe('x');
    expect(rowAfterRemoval([], 'b', ['x'])).toBe('x');
  });
});
