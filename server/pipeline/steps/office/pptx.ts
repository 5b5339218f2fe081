import { tidy, type Extracted } from './extracted.ts';
import { runTextOf, type RunVocabulary } from './text-builder.ts';
import { attributes, localName, xmlEvents } from './xml-events.ts';
import { referencedRelationship, relationships, withZip } from './zip-parts.ts';

/** DrawingML text of a slide: shapes in document order, each followed by a blank line. */
const DRAWING: RunVocabulary = {
  text: 'a:t',
  paragraph: 'a:p',
  tableCell: 'a:tc',
  tableRow: 'a:tr',
  lineBreaks: ['a:br'],
  tabs: [],
  characters: {},
  blocks: ['p:sp', 'p:graphicFrame'],
  skipped: ['mc:Fallback'],
};

/** PPTX: the slides in presentation order, one blank line apart; the page count is the number of slides. */
export function pptxText(path: string): Promise<Extracted> {
  return withZip(path, async (parts) => {
    const presentation = await parts.required('ppt/presentation.xml');
    const rels = await relationships(parts, 'ppt/presentation.xml');
    const slides: string[] = [];
    for (const event of xmlEvents(presentation)) {
      if (event.kind !== 'open' || localName(event.name) !== 'sldId') continue;
      const rel = referencedRelationship(rels, attributes(event.raw));
      if (rel) slides.push(rel.target);
    }
    const texts: string[] = [];
    for (const slide of slides) {
      const xml = await parts.text(slide);
      if (xml !== null) texts.push(tidy(runTextOf(xml, DRAWING)));
    }
    return { text: texts.filter(Boolean).join('\n\n'), pageCount: slides.length };
  });
}
