import { describe, expect, it } from 'vitest';
import { cleanFileName, downloadFileName } from '../../common/download-name.ts';
import { MIME_TYPES } from '../../common/file-formats.ts';

describe('downloadFileName: the name a document leaves the archive with', () => {
  it("replaces the uploader's extension with the detected format's, keeping the name before it", () => {
    expect(downloadFileName('setup.exe', MIME_TYPES.pdf)).toBe('setup.pdf');
    expect(downloadFileName('report.hta', MIME_TYPES.docx)).toBe('report.docx');
    expect(downloadFileName('run.bat', MIME_TYPES.pdf)).toBe('run.pdf');
    expect(downloadFileName('invoice.pdf.exe', MIME_TYPES.pdf)).toBe('invoice.pdf.pdf');
    expect(downloadFileName('scan', MIME_TYPES.tiff)).toBe('scan.tif');
    expect(downloadFileName('Rechnung Nr. 2026', MIME_TYPES.pdf)).toBe('Rechnung Nr. 2026.pdf');
    expect(downloadFileName('Angebot v1.2', MIME_TYPES.pdf)).toBe('Angebot v1.2.pdf');
  });

  it('keeps an extension that already fits the format, in its own spelling', () => {
    expect(downloadFileName('scan_0042.pdf', MIME_TYPES.pdf)).toBe('scan_0042.pdf');
    expect(downloadFileName('Foto.JPEG', MIME_TYPES.jpeg)).toBe('Foto.JPEG');
    expect(downloadFileName('page.tiff', MIME_TYPES.tiff)).toBe('page.tiff');
    expect(
      downloadFileName('brief.docx', 'Application/VND.openxmlformats-officedocument.wordprocessingml.document; x=1'),
    ).toBe('brief.docx');
  });

  it('removes right-to-left overrides and other bidirectional, control and zero-width characters', () => {
    // Shown as "invoiceexe.pdf" by a bidi-aware file manager, it is an .exe.
    expect(downloadFileName('invoice\u202Efdp.exe', MIME_TYPES.pdf)).toBe('invoicefdp.pdf');
    expect(downloadFileName('a\u200Fb\u2066c\u2069d\u061C\u200Be\uFEFF.pdf', MIME_TYPES.pdf)).toBe('abcde.pdf');
    expect(downloadFileName('tab\there\nnew\u0085line\u007f.pdf', MIME_TYPES.pdf)).toBe('tabherenewline.pdf');
  });

  it('drops folders, leading dots and characters Windows refuses', () => {
    expect(downloadFileName('../../etc/passwd', MIME_TYPES.pdf)).toBe('passwd.pdf');
    expect(downloadFileName('C:\\Users\\x\\.bashrc', MIME_TYPES.pdf)).toBe('bashrc.pdf');
    expect(downloadFileName('a<b>c:d"e|f?g*h.pdf', MIME_TYPES.pdf)).toBe('a_b_c_d_e_f_g_h.pdf');
    expect(downloadFileName('name. . .exe', MIME_TYPES.png)).toBe('name.png');
  });

  it('never leaves an empty or device name', () => {
    expect(downloadFileName('', MIME_TYPES.pdf)).toBe('document.pdf');
    expect(downloadFileName('\u202E', MIME_TYPES.pdf)).toBe('document.pdf');
    expect(downloadFileName('.exe', MIME_TYPES.pdf)).toBe('exe.pdf');
    expect(downloadFileName('CON.txt', MIME_TYPES.pdf)).toBe('_CON.pdf');
    expect(downloadFileName('lpt1.x.doc', MIME_TYPES.doc)).toBe('_lpt1.x.doc');
  });

  it("gives a type of no supported format .bin, never the uploader's extension", () => {
    expect(downloadFileName('tool.exe', 'application/x-msdownload')).toBe('tool.bin');
  });

  it('keeps a long name within 255 UTF-8 bytes, cut between characters', () => {
    const name = downloadFileName(`${'ä'.repeat(300)}.exe`, MIME_TYPES.pdf);
    expect(new TextEncoder().encode(name).length).toBeLessThanOrEqual(255);
    expect(name).toBe(`${'ä'.repeat(100)}.pdf`);
    const emoji = downloadFileName('😀'.repeat(60), MIME_TYPES.pdf);
    expect(emoji).toBe(`${'😀'.repeat(50)}.pdf`);
  });
});

describe('cleanFileName', () => {
  it('keeps ordinary names as they are (NFC)', () => {
    expect(cleanFileName('Stromrechnung Mu\u0308ller.pdf')).toBe('Stromrechnung Müller.pdf');
    expect(cleanFileName('  ..hidden  ')).toBe('hidden');
    expect(cleanFileName('x/\u202E')).toBe('');
  });
});
