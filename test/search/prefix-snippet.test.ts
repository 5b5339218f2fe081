/** PostgreSQL's full-text snippets, cut in the service's process from the hit's text. */
import { describe, expect, it } from 'vitest';
import { prefixSnippet } from '../../server/search/prefix-snippet.ts';

const format = { open: '[', close: ']', ellipsis: '…', tokens: 8 };

describe('prefixSnippet', () => {
  it('marks every word a query word starts, accents and case folded both ways', () => {
    expect(prefixSnippet('Die Rechnung über 20 Euro', ['rechn', 'uber'], format)).toBe('Die [Rechnung] [über] 20 Euro');
    expect(prefixSnippet('Viele Grüsse aus Köln', ['grüße'], { ...format, tokens: 24 })).toBe(
      'Viele [Grüsse] aus Köln',
    );
  });

  it('shows about `tokens` words around the first match, with an ellipsis where the text goes on', () => {
    const text = Array.from({ length: 40 }, (_, i) => (i === 20 ? 'Kachelofen' : `wort${i}`)).join(' ');
    const snippet = prefixSnippet(text, ['kachel'], format);
    expect(snippet).toBe('…wort18 wort19 [Kachelofen] wort21 wort22 wort23 wort24 wort25…');
  });

  it('keeps the text as written for the caller to escape, and folds runs of white space', () => {
    expect(prefixSnippet('<b>Wert</b>\n\n  &  Kaskade', ['kaskade'], { ...format, tokens: 24 })).toBe(
      '<b>Wert</b> & [Kaskade]',
    );
  });

  it('finds a match deep in a very long text and shows the words around it', () => {
    const text = `${'füllwort '.repeat(500_000)}Schornsteinfeger kam`;
    expect(prefixSnippet(text, ['schornstein'], format)).toBe(
      '…füllwort füllwort füllwort füllwort füllwort füllwort [Schornsteinfeger] kam',
    );
  });

  it('shows the start of the text when no word matches (the index may split words otherwise)', () => {
    expect(prefixSnippet('eins zwei drei vier fünf sechs sieben acht neun zehn', ['xyz'], format)).toBe(
      'eins zwei drei vier fünf sechs sieben acht…',
    );
  });
});
