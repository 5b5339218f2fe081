import { distinctTexts, type Extracted } from './extracted.ts';
import { runTextOf, type RunVocabulary } from './text-builder.ts';
import { relationships, withZip, type ZipParts } from './zip-parts.ts';

/** WordprocessingML. Deleted text, field codes and the VML duplicates of text boxes are left out. */
const WORDPROCESSING: RunVocabulary = {
  text: 'w:t',
  paragraph: 'w:p',
  tableCell: 'w:tc',
  tableRow: 'w:tr',
  lineBreaks: ['w:br', 'w:cr'],
  tabs: ['w:tab', 'w:ptab'],
  characters: { 'w:noBreakHyphen': '-' },
  blocks: [],
  skipped: ['w:instrText', 'w:delText', 'mc:Fallback', 'w:fldData', 'w:rPr', 'w:pPr', 'w:sectPr'],
};

/** DOCX: the page headers, the body, foot- and endnotes, then the page footers. */
export function docxText(path: string): Promise<Extracted> {
  return withZip(path, async (parts) => {
    const rels = await relationships(parts, 'word/document.xml');
    const body = runTextOf(await parts.required('word/document.xml'), WORDPROCESSING);
    const ofType = (type: string): string[] =>
      [...rels.values()]
        .filter((r) => r.type.endsWith(`/${type}`))
        .map((r) => r.target)
        .sort(naturalCompare);
    const headers = await partsText(parts, ofType('header'));
    const notes = await partsText(parts, [...ofType('footnotes'), ...ofType('endnotes')]);
    const footers = await partsText(parts, ofType('footer'));
    return { text: [...headers, body, ...notes, ...footers].join('\n\n'), pageCount: await appPages(parts) };
  });
}

async function partsText(parts: ZipParts, names: readonly string[]): Promise<string[]> {
  const texts: string[] = [];
  for (const name of names) {
    const xml = await parts.text(name);
    if (xml !== null) texts.push(runTextOf(xml, WORDPROCESSING));
  }
  return distinctTexts(texts);
}

/** Page count as the producing application last saw it (docProps/app.xml), if it wrote one. */
async function appPages(parts: ZipParts): Promise<number | null> {
  const xml = await parts.text('docProps/app.xml');
  const pages = xml ? /<(?:\w+:)?Pages>(\d+)</.exec(xml)?.[1] : undefined;
  const n = pages === undefined ? NaN : Number(pages);
  return Number.isInteger(n) && n > 0 ? n : null;
}

function naturalCompare(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
