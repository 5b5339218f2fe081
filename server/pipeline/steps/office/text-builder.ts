import { Skipper, xmlEvents } from './xml-events.ts';

/**
 * Collects text while walking XML. Tables are tracked so that inside a cell paragraphs and breaks become spaces
 * (the cell stays one tab-separated field), cells end with a tab and rows with a line break.
 */
export class TextBuilder {
  private out = '';
  private cellDepth = 0;

  text(value: string): void {
    this.out += value;
  }

  paragraphEnd(): void {
    this.out += this.cellDepth > 0 ? ' ' : '\n';
  }

  lineBreak(): void {
    this.out += this.cellDepth > 0 ? ' ' : '\n';
  }

  tab(): void {
    this.out += this.cellDepth > 0 ? ' ' : '\t';
  }

  cellStart(): void {
    this.cellDepth++;
  }

  cellEnd(): void {
    this.cellDepth = Math.max(0, this.cellDepth - 1);
    this.out = this.out.replace(/[ \t]+$/, '');
    this.out += this.cellDepth > 0 ? ' ' : '\t';
  }

  rowEnd(): void {
    if (this.cellDepth > 0) return;
    this.out = this.out.replace(/\t+$/, '');
    this.out += '\n';
  }

  blankLine(): void {
    this.out = this.out.replace(/\n*$/, '\n\n');
  }

  get length(): number {
    return this.out.length;
  }

  toString(): string {
    return this.out;
  }
}

/** The element names of an OOXML text vocabulary (WordprocessingML, DrawingML) that runTextOf needs. */
export interface RunVocabulary {
  /** The element whose content is text (w:t, a:t). */
  text: string;
  paragraph: string;
  tableCell: string;
  tableRow: string;
  lineBreaks: readonly string[];
  tabs: readonly string[];
  /** Elements that stand for one character (w:noBreakHyphen). */
  characters: Readonly<Record<string, string>>;
  /** Elements followed by a blank line (the shapes of a slide). */
  blocks: readonly string[];
  /** Subtrees that are not document text. */
  skipped: readonly string[];
}

/** The text of an OOXML part whose text sits in runs inside paragraphs, tables as tab-separated rows. */
export function runTextOf(xml: string, vocabulary: RunVocabulary): string {
  const out = new TextBuilder();
  const skipper = new Skipper(vocabulary.skipped);
  const { lineBreaks, tabs, characters, blocks } = vocabulary;
  let inText = false;
  for (const event of xmlEvents(xml)) {
    if (skipper.skip(event)) continue;
    if (event.kind === 'text') {
      if (inText) out.text(event.text);
      continue;
    }
    const name = event.name;
    if (event.kind === 'open') {
      if (name === vocabulary.text) inText = !event.selfClosing;
      else if (tabs.includes(name)) out.tab();
      else if (lineBreaks.includes(name)) out.lineBreak();
      else if (Object.hasOwn(characters, name)) out.text(characters[name]!);
      else if (name === vocabulary.tableCell) out.cellStart();
      else if (name === vocabulary.paragraph && event.selfClosing) out.paragraphEnd();
    } else {
      if (name === vocabulary.text) inText = false;
      else if (name === vocabulary.paragraph) out.paragraphEnd();
      else if (name === vocabulary.tableCell) out.cellEnd();
      else if (name === vocabulary.tableRow) out.rowEnd();
      else if (blocks.includes(name)) out.blankLine();
    }
  }
  return out.toString();
}
