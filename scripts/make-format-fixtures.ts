/**
 * Regenerates the Office/ODF/JPEG fixtures in test/fixtures/formats/ with LibreOffice, so the
 * format detection is tested against files a real producer wrote (PDF, PNG, TIFF and the negative
 * cases are built in code by the test itself).
 *
 *   apt-get install -y libreoffice-writer-nogui libreoffice-calc-nogui libreoffice-impress-nogui
 *   npm exec -- node scripts/make-format-fixtures.ts
 *
 * Sources are minimal flat-ODF documents; a throwaway LibreOffice profile turns off preview
 * thumbnails to keep files small. The legacy .ppt export still embeds a ~430 KB uncompressed
 * thumbnail in its SummaryInformation stream, so outputs over the size limit are stored gzipped
 * (`sample.ppt.gz`, ~8 KB) and the test gunzips them.
 */
import { resolve } from 'node:path';
import { convertFixtures } from './libreoffice-fixtures.ts';

const OUT_DIR = resolve(import.meta.dirname, '../test/fixtures/formats');
const MAX_FIXTURE_BYTES = 48 * 1024;

const NS = [
  'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"',
  'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"',
  'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0"',
  'xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0"',
  'xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"',
].join(' ');

const flatOdf = (mimetype: string, body: string): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<office:document ${NS} office:version="1.2" ` +
  `office:mimetype="${mimetype}"><office:body>${body}</office:body></office:document>\n`;

const SOURCES = {
  'sample.fodt': flatOdf(
    'application/vnd.oasis.opendocument.text',
    '<office:text><text:p>Format fixture</text:p></office:text>',
  ),
  'sample.fods': flatOdf(
    'application/vnd.oasis.opendocument.spreadsheet',
    '<office:spreadsheet><table:table table:name="Sheet1"><table:table-row><table:table-cell ' +
      'office:value-type="string"><text:p>Format fixture</text:p></table:table-cell></table:table-row>' +
      '</table:table></office:spreadsheet>',
  ),
  'sample.fodp': flatOdf(
    'application/vnd.oasis.opendocument.presentation',
    '<office:presentation><draw:page draw:name="page1"><draw:frame svg:x="2cm" svg:y="2cm" ' +
      'svg:width="10cm" svg:height="2cm"><draw:text-box><text:p>Format fixture</text:p></draw:text-box>' +
      '</draw:frame></draw:page></office:presentation>',
  ),
};

/** [source, --convert-to argument, output file name written by LibreOffice]. */
const CONVERSIONS: ReadonlyArray<readonly [keyof typeof SOURCES, string, string]> = [
  ['sample.fodt', 'doc:MS Word 97', 'sample.doc'],
  ['sample.fodt', 'docx:MS Word 2007 XML', 'sample.docx'],
  ['sample.fodt', 'odt:writer8', 'sample.odt'],
  ['sample.fods', 'xls:MS Excel 97', 'sample.xls'],
  ['sample.fods', 'xlsx:Calc MS Excel 2007 XML', 'sample.xlsx'],
  ['sample.fods', 'ods:calc8', 'sample.ods'],
  ['sample.fodp', 'ppt:MS PowerPoint 97', 'sample.ppt'],
  ['sample.fodp', 'pptx:Impress MS PowerPoint 2007 XML', 'sample.pptx'],
  ['sample.fodp', 'odp:impress8', 'sample.odp'],
  // A 64×48 rendering of the slide: a real JPEG of under 1 KB.
  [
    'sample.fodp',
    'jpg:impress_jpg_Export:{"PixelWidth":{"type":"long","value":"64"},"PixelHeight":{"type":"long","value":"48"}}',
    'sample.jpg',
  ],
];

convertFixtures({ sources: SOURCES, conversions: CONVERSIONS, outDir: OUT_DIR, maxBytes: MAX_FIXTURE_BYTES });
