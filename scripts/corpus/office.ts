/**
 * Office files made by LibreOffice from the same DocModel: HTML → DOCX/ODT (Writer) and flat ODS → XLSX (Calc),
 * so the files are what a real office suite writes. The drawn text comes back in reading order for the CER.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Block, DocModel } from './model.ts';

export type OfficeTarget = 'docx' | 'odt' | 'xlsx';

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const hex = (c: readonly number[]): string => `#${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const FAMILIES = {
  sans: "'Liberation Sans', Arial, sans-serif",
  serif: "'Liberation Serif', 'Times New Roman', serif",
  mono: "'Liberation Mono', 'Courier New', monospace",
};

export interface OfficeSource {
  source: string;
  extension: 'html' | 'fods';
  text: string;
}

/** HTML for Writer. Returns the text in the order it is written. */
export function toHtml(model: DocModel, title: string): OfficeSource {
  const lines: string[] = [];
  const st = model.style;
  const lh = model.letterhead;
  const out: string[] = [];
  const accent = hex(st.accent);
  if (st.letterhead === 'center') {
    out.push(`<p align="center" style="font-size:20pt;color:${accent}"><b>${esc(lh.name)}</b></p>`);
    if (lh.tagline) out.push(`<p align="center" style="font-size:8pt;color:#555">${esc(lh.tagline)}</p>`);
    out.push(`<p align="center" style="font-size:8pt;color:#555">${esc(lh.lines.join('  ·  '))}</p><hr>`);
    lines.push(lh.name, ...(lh.tagline ? [lh.tagline] : []), lh.lines.join('  ·  '));
  } else {
    const right = st.letterhead === 'right';
    const nameCell =
      `<p style="font-size:18pt;color:${accent}"><b>${esc(lh.name)}</b></p>` +
      (lh.tagline ? `<p style="font-size:8pt;color:#555">${esc(lh.tagline)}</p>` : '');
    const linesCell = `<p align="right" style="font-size:8pt;color:#555">${lh.lines.map(esc).join('<br>')}</p>`;
    out.push(
      right
        ? `<div align="right">${nameCell.replace(/<p /g, '<p align="right" ')}${linesCell}</div>`
        : `<table width="100%" cellpadding="0"><tr><td width="60%" valign="top">${nameCell}</td><td valign="top">${linesCell}</td></tr></table>`,
    );
    lines.push(lh.name, ...(lh.tagline ? [lh.tagline] : []), ...lh.lines);
  }
  for (const block of model.blocks) out.push(blockHtml(block, lines, model));
  if (model.footer.length) {
    const cells = model.footer.map(
      (col) => `<td valign="top"><p style="font-size:6.5pt;color:#666">${col.map(esc).join('<br>')}</p></td>`,
    );
    out.push(`<hr><table width="100%"><tr>${cells.join('')}</tr></table>`);
    for (const col of model.footer) lines.push(...col);
  }
  const source = `<!DOCTYPE html>
<html lang="${model.lang}"><head><meta charset="utf-8">
<title>${esc(title)}</title>
<style>body { font-family: ${FAMILIES[st.family]}; font-size: ${st.size + 0.5}pt; } td, th { vertical-align: top; font-size: ${st.size}pt; }
th { text-align: left; border-bottom: 1px solid #000; } p { margin: 0 0 4pt 0; } h2 { font-family: ${FAMILIES[st.family]}; }</style></head>
<body>
${out.join('\n')}
</body></html>
`;
  return { source, extension: 'html', text: lines.filter((l) => l.trim()).join('\n') };
}

function blockHtml(block: Block, lines: string[], model: DocModel): string {
  switch (block.kind) {
    case 'window': {
      const left =
        (block.returnAddress ? `<p style="font-size:6.5pt;color:#666"><u>${esc(block.returnAddress)}</u></p>` : '') +
        `<p>${block.recipient.map(esc).join('<br>')}</p>`;
      if (block.returnAddress) lines.push(block.returnAddress);
      lines.push(...block.recipient);
      const info = block.info
        .map(([l, v]) => `<tr><td><font color="#555">${esc(l)}</font></td><td>${esc(v)}</td></tr>`)
        .join('');
      if (block.infoPlacement === 'beside') {
        for (const [l, v] of block.info) lines.push(`${l} ${v}`);
        // Without a paragraph before it, Writer's HTML import nests the inner table into the left cell.
        return (
          `<table width="100%"><tr><td width="58%" valign="top">${left}</td><td valign="top"><p style="font-size:1pt"></p>` +
          `<table>${info}</table></td></tr></table><p></p>`
        );
      }
      if (block.infoPlacement === 'below') return `${left}<p></p>${inlineInfo(block.info, lines)}`;
      return left;
    }
    case 'info':
      if (block.placement === 'inline') return inlineInfo(block.rows, lines);
      for (const [l, v] of block.rows) lines.push(`${l} ${v}`);
      return `<table${block.placement === 'right' ? ' align="right"' : ''}>${block.rows
        .map(([l, v]) => `<tr><td>${esc(l)}</td><td>${esc(v)}</td></tr>`)
        .join('')}</table><br clear="all">`;
    case 'heading':
      lines.push(block.text);
      return `<h2 style="font-size:${block.size ?? model.style.size + 4}pt">${esc(block.text)}</h2>`;
    case 'paragraph': {
      lines.push(...block.text.split('\n'));
      const inner = block.text.split('\n').map(esc).join('<br>');
      return `<p${block.align && block.align !== 'left' ? ` align="${block.align}"` : ''}>${block.bold ? `<b>${inner}</b>` : inner}</p>`;
    }
    case 'table': {
      const head = block.columns.some((c) => c.header)
        ? `<tr>${block.columns.map((c) => `<th${c.align === 'right' ? ' align="right"' : ''}>${esc(c.header)}</th>`).join('')}</tr>`
        : '';
      if (head)
        lines.push(
          block.columns
            .map((c) => c.header)
            .filter(Boolean)
            .join(' '),
        );
      const total = block.columns.reduce((s, c) => s + c.width, 0);
      const rows = block.rows.map((row, r) => {
        lines.push(row.filter(Boolean).join(' '));
        const b = block.boldRows?.includes(r);
        return `<tr>${row
          .map((cell, i) => {
            const c = block.columns[i]!;
            const w = Math.round((c.width / total) * 100);
            return `<td width="${w}%"${c.align === 'right' ? ' align="right"' : ''}>${b ? `<b>${esc(cell)}</b>` : esc(cell)}</td>`;
          })
          .join('')}</tr>`;
      });
      return `<table width="100%" cellspacing="0" cellpadding="2">${head}${rows.join('')}</table><p></p>`;
    }
    case 'totals': {
      for (const r of block.rows) lines.push(`${r.label} ${r.value}`);
      return `<table width="100%">${block.rows
        .map((r) => {
          const wrap = (s: string): string => (r.bold ? `<b>${esc(s)}</b>` : esc(s));
          return `<tr><td width="45%"></td><td>${wrap(r.label)}</td><td align="right">${wrap(r.value)}</td></tr>`;
        })
        .join('')}</table><p></p>`;
    }
    case 'pairs': {
      for (const [l, v] of block.rows) lines.push([l, v].filter(Boolean).join(' '));
      return `<table width="${block.valueAlign === 'right' ? '100%' : '90%'}">${block.rows
        .map(([l, v], i) => {
          const b = block.boldRows?.includes(i);
          const wrap = (s: string): string => (b ? `<b>${esc(s)}</b>` : esc(s));
          return `<tr><td width="40%">${wrap(l)}</td><td${block.valueAlign === 'right' ? ' align="right"' : ''}>${wrap(v)}</td></tr>`;
        })
        .join('')}</table>`;
    }
    case 'rule':
      return '<hr>';
    case 'gap':
      return '<p></p>';
    case 'pagebreak':
      return '<p style="page-break-before: always"></p>';
  }
}

function inlineInfo(rows: Array<[string, string]>, lines: string[]): string {
  lines.push(rows.map(([l]) => l).join(' '), rows.map(([, v]) => v).join(' '));
  return (
    `<table width="100%"><tr>${rows.map(([l]) => `<td><font size="1" color="#555">${esc(l)}</font></td>`).join('')}</tr>` +
    `<tr>${rows.map(([, v]) => `<td>${esc(v)}</td>`).join('')}</tr></table><p></p>`
  );
}

/** A spreadsheet version of the document (flat ODS for Calc). Amount cells become numbers with a number format. */
export function toFods(model: DocModel, title: string): OfficeSource {
  const rows: Array<Array<string | null>> = [];
  const tables = model.blocks.filter((b): b is Extract<Block, { kind: 'table' }> => b.kind === 'table');
  const width = Math.max(4, ...tables.map((t) => t.columns.length));
  const last = width - 1;
  // Column widths follow the widest table, spread over a printable width of 15.5 cm.
  const fractions = tables.length
    ? (() => {
        const widest = tables.reduce((a, b) => (b.columns.length > a.columns.length ? b : a));
        const total = widest.columns.reduce((sum, c) => sum + c.width, 0);
        return Array.from({ length: width }, (_, i) => (widest.columns[i]?.width ?? 1) / total);
      })()
    : Array.from({ length: width }, (_, i) => (i === 0 ? 0.4 : 0.6 / (width - 1)));
  const put = (cells: Array<string | null>): void => {
    rows.push(cells);
  };
  const lh = model.letterhead;
  put([lh.name]);
  if (lh.tagline) put([lh.tagline]);
  for (const l of lh.lines) put([l]);
  put([]);
  for (const block of model.blocks) {
    switch (block.kind) {
      case 'window': {
        const left = [...(block.returnAddress ? [block.returnAddress] : []), ...block.recipient];
        const info = block.infoPlacement === 'none' ? [] : block.info;
        const n = Math.max(left.length, info.length);
        for (let i = 0; i < n; i++) {
          const row: Array<string | null> = Array.from({ length: width }, () => null);
          row[0] = left[i] ?? null;
          row[last - 1] = info[i]?.[0] ?? null;
          row[last] = info[i]?.[1] ?? null;
          put(row);
        }
        put([]);
        break;
      }
      case 'info':
        for (const [l, v] of block.rows) put([l, v]);
        break;
      case 'heading':
        put([block.text]);
        break;
      case 'paragraph':
        for (const p of block.text.split('\n')) put([p]);
        break;
      case 'table': {
        if (block.columns.some((c) => c.header)) put(block.columns.map((c) => c.header));
        for (const r of block.rows) put(r);
        break;
      }
      case 'totals':
        for (const r of block.rows) put(atEnd(width, r.label, r.value));
        break;
      case 'pairs':
        for (const [l, v] of block.rows) put([l, ...atEnd(width, null, v).slice(1)]);
        break;
      case 'rule':
      case 'gap':
        put([]);
        break;
      case 'pagebreak':
        break;
    }
  }
  put([]);
  for (const col of model.footer) put([col.join(' · ')]);

  const de = model.lang === 'de';
  const numberPattern = de ? /^(-?\d{1,3}(?:\.\d{3})*,\d{2})( €| EUR)?$/ : /^([£$€]?)(-?\d{1,3}(?:,\d{3})*\.\d{2})$/;
  const cell = (value: string | null): string => {
    if (value === null || value === '') return '<table:table-cell/>';
    const m = numberPattern.exec(value);
    if (m) {
      const numeric = de ? m[1]!.replace(/\./g, '').replace(',', '.') : m[2]!.replace(/,/g, '');
      const styleName = de
        ? m[2] === ' €'
          ? 'ceEur'
          : m[2] === ' EUR'
            ? 'ceEurCode'
            : 'ceNum'
        : m[1]
          ? 'ceCur'
          : 'ceNum';
      return `<table:table-cell table:style-name="${styleName}" office:value-type="float" office:value="${numeric}" calcext:value-type="float"><text:p>${esc(value)}</text:p></table:table-cell>`;
    }
    return `<table:table-cell office:value-type="string" calcext:value-type="string"><text:p>${esc(value)}</text:p></table:table-cell>`;
  };
  const symbol = model.lang === 'de' ? '€' : '$';
  const body = rows
    .map(
      (r) =>
        `<table:table-row>${Array.from({ length: width }, (_, i) => cell(r[i] ?? null)).join('')}</table:table-row>`,
    )
    .join('\n');
  const lang = de ? 'number:language="de" number:country="DE"' : 'number:language="en" number:country="US"';
  const source = `<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"
 xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"
 xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:number="urn:oasis:names:tc:opendocument:xmlns:datastyle:1.0"
 xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/"
 xmlns:calcext="urn:org:documentfoundation:names:experimental:calc:xmlns:calcext:1.0"
 office:version="1.3" office:mimetype="application/vnd.oasis.opendocument.spreadsheet">
<office:meta><dc:title>${esc(title)}</dc:title></office:meta>
<office:automatic-styles>
 <number:number-style style:name="N2" ${lang}><number:number number:decimal-places="2" number:min-decimal-places="2" number:min-integer-digits="1" number:grouping="true"/></number:number-style>
 <number:currency-style style:name="NCur" ${lang}>${
   de
     ? `<number:number number:decimal-places="2" number:min-decimal-places="2" number:min-integer-digits="1" number:grouping="true"/><number:text> </number:text><number:currency-symbol ${lang}>€</number:currency-symbol>`
     : `<number:currency-symbol ${lang}>${symbol}</number:currency-symbol><number:number number:decimal-places="2" number:min-decimal-places="2" number:min-integer-digits="1" number:grouping="true"/>`
 }</number:currency-style>
${fractions.map((f, i) => ` <style:style style:name="co${i + 1}" style:family="table-column"><style:table-column-properties style:column-width="${(f * 15.5).toFixed(2)}cm"/></style:style>`).join('\n')}
 <style:style style:name="ceNum" style:family="table-cell" style:data-style-name="N2"/>
 <number:number-style style:name="NEurCode" ${lang}><number:number number:decimal-places="2" number:min-decimal-places="2" number:min-integer-digits="1" number:grouping="true"/><number:text> EUR</number:text></number:number-style>
 <style:style style:name="ceEur" style:family="table-cell" style:data-style-name="NCur"/>
 <style:style style:name="ceEurCode" style:family="table-cell" style:data-style-name="NEurCode"/>
 <style:style style:name="ceCur" style:family="table-cell" style:data-style-name="NCur"/>
</office:automatic-styles>
<office:body><office:spreadsheet>
<table:table table:name="${de ? 'Tabelle1' : 'Sheet1'}">
${fractions.map((_, i) => `<table:table-column table:style-name="co${i + 1}"/>`).join('')}
${body}
</table:table>
</office:spreadsheet></office:body></office:document>
`;
  const text = rows
    .map((r) => r.filter((c): c is string => !!c).join(' '))
    .filter((l) => l.trim())
    .join('\n');
  return { source, extension: 'fods', text };
}

/** A row with `label` and `value` in the last two columns. */
function atEnd(width: number, label: string | null, value: string | null): Array<string | null> {
  const row: Array<string | null> = Array.from({ length: width }, () => null);
  row[width - 2] = label;
  row[width - 1] = value;
  return row;
}

const PROFILE_SETTINGS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema">
<item oor:path="/org.openoffice.Office.Common/Save/Document"><prop oor:name="GenerateThumbnail" oor:op="fuse"><value>false</value></prop></item>
</oor:items>
`;

const FILTERS: Record<OfficeTarget, { convertTo: string; infilter: string | null }> = {
  docx: { convertTo: 'docx:MS Word 2007 XML', infilter: 'HTML (StarWriter)' },
  odt: { convertTo: 'odt:writer8', infilter: 'HTML (StarWriter)' },
  xlsx: { convertTo: 'xlsx:Calc MS Excel 2007 XML', infilter: null },
};

/** Converts in one LibreOffice run per target; returns the bytes by job name. */
export function convertWithLibreOffice(
  jobs: Array<{ name: string; source: OfficeSource; target: OfficeTarget }>,
): Map<string, Uint8Array> {
  const work = mkdtempSync(join(tmpdir(), 'corpus-office-'));
  const result = new Map<string, Uint8Array>();
  try {
    const profile = join(work, 'profile');
    mkdirSync(join(profile, 'user'), { recursive: true });
    writeFileSync(join(profile, 'user', 'registrymodifications.xcu'), PROFILE_SETTINGS);
    for (const target of ['docx', 'odt', 'xlsx'] as const) {
      const mine = jobs.filter((j) => j.target === target);
      if (!mine.length) continue;
      const dir = join(work, target);
      mkdirSync(dir);
      const inputs = mine.map((j) => {
        const path = join(dir, `${j.name}.${j.source.extension}`);
        writeFileSync(path, j.source.source);
        return path;
      });
      const filter = FILTERS[target];
      execFileSync(
        'soffice',
        [
          `-env:UserInstallation=${pathToFileURL(profile).href}`,
          '--headless',
          '--norestore',
          ...(filter.infilter ? [`--infilter=${filter.infilter}`] : []),
          '--convert-to',
          filter.convertTo,
          '--outdir',
          join(dir, 'out'),
          ...inputs,
        ],
        { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, SAL_RAND_REPEATABLE: '1' } },
      );
      for (const j of mine) result.set(j.name, fixZipTimes(readFileSync(join(dir, 'out', `${j.name}.${target}`))));
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return result;
}

/** Sets every zip entry's DOS time to one fixed moment, so regenerating gives identical bytes. */
export function fixZipTimes(input: Uint8Array): Uint8Array {
  const bytes = Buffer.from(input);
  const TIME = 0x4800; // 09:00:00
  const DATE = ((2026 - 1980) << 9) | (11 << 5) | 1; // 2026-11-01
  let eocd = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 65_557); i--) {
    if (bytes.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip file');
  const count = bytes.readUInt16LE(eocd + 10);
  let at = bytes.readUInt32LE(eocd + 16);
  for (let n = 0; n < count; n++) {
    if (bytes.readUInt32LE(at) !== 0x02014b50) throw new Error('bad central directory');
    bytes.writeUInt16LE(TIME, at + 12);
    bytes.writeUInt16LE(DATE, at + 14);
    const local = bytes.readUInt32LE(at + 42);
    if (bytes.readUInt32LE(local) === 0x04034b50) {
      bytes.writeUInt16LE(TIME, local + 10);
      bytes.writeUInt16LE(DATE, local + 12);
    }
    at += 46 + bytes.readUInt16LE(at + 28) + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return bytes;
}
