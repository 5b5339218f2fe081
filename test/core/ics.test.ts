import { describe, expect, it } from 'vitest';
import type { ArchiveEvent } from '../../common/archive-types.ts';
import { escapeText, eventsToIcs, foldLine } from '../../main/core/library/ics.ts';

const NOW = Date.UTC(2030, 11, 1, 8, 30, 5);

function event(id: string, changes: Partial<ArchiveEvent> = {}): ArchiveEvent {
  return {
    id,
    document_id: '22222222-2222-4222-8222-222222222222',
    space_id: '11111111-1111-4111-8111-111111111111',
    event_type: 'invoice',
    state: 'open',
    title: 'Strom Dezember',
    amount: { value: 120.5, currency: 'EUR' },
    due_date: '2030-12-31',
    reference_number: 'R-2030-0042',
    sender_name: 'Stadtwerke Musterstadt',
    created_at: '2030-11-20T10:00:00.000Z',
    updated_at: '2030-11-21T23:31:06.635Z',
    ...changes,
  };
}

const octets = (line: string) => Buffer.byteLength(line, 'utf8');

describe('iCalendar export', () => {
  it('writes one all-day VEVENT per open due event, exactly as RFC 5545 wants it', () => {
    const ics = eventsToIcs(
      [
        event('aaaaaaaa-0000-4000-8000-000000000001'),
        event('aaaaaaaa-0000-4000-8000-000000000002', { state: 'paid' }),
        event('aaaaaaaa-0000-4000-8000-000000000003', { due_date: null }),
        event('aaaaaaaa-0000-4000-8000-000000000004', { state: 'active', event_type: 'contract' }),
      ],
      { now: NOW, productId: '-//Desktop Archive//Due dates//EN', domain: 'archive.example' },
    );
    expect(ics).toBe(
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//Desktop Archive//Due dates//EN',
        'CALSCALE:GREGORIAN',
        'METHOD:PUBLISH',
        'BEGIN:VEVENT',
        'UID:aaaaaaaa-0000-4000-8000-000000000001@archive.example',
        'DTSTAMP:20301201T083005Z',
        'LAST-MODIFIED:20301121T233106Z',
        'DTSTART;VALUE=DATE:20301231',
        'DTEND;VALUE=DATE:20310101',
        'SUMMARY:Strom Dezember – 120.50 EUR',
        'DESCRIPTION:From: Stadtwerke Musterstadt\\nReference: R-2030-0042\\nAmount: 1',
        ' 20.50 EUR\\nType: invoice',
        'CATEGORIES:invoice',
        'TRANSP:TRANSPARENT',
        'BEGIN:VALARM',
        'ACTION:DISPLAY',
        'DESCRIPTION:Strom Dezember – 120.50 EUR',
        'TRIGGER:-P2DT15H',
        'END:VALARM',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('keeps UIDs stable per event, sorts by due date, and honours the alarm settings', () => {
    const a = event('aaaaaaaa-0000-4000-8000-00000000000a', {
      due_date: '2031-01-05',
      state: 'needs_input',
      amount: null,
    });
    const b = event('aaaaaaaa-0000-4000-8000-00000000000b', {
      due_date: '2031-01-02',
      amount: { value: 5000, currency: 'JPY' },
    });
    const first = eventsToIcs([a, b], { now: NOW, daysBefore: 0, alarmTime: '08:30' });
    const second = eventsToIcs([b, a], { now: NOW + 86_400_000, daysBefore: 0, alarmTime: '08:30' });
    const uids = (ics: string) => ics.split('\r\n').filter((l) => l.startsWith('UID:'));
    expect(uids(first)).toEqual([`UID:${b.id}@desktop-archive.local`, `UID:${a.id}@desktop-archive.local`]);
    expect(uids(second)).toEqual(uids(first));
    expect(first).toContain('\r\nSUMMARY:Strom Dezember – 5000 JPY\r\n');
    expect(first).toContain('\r\nSUMMARY:Strom Dezember\r\n');
    expect(first.match(/TRIGGER:[^\r]*/g)).toEqual(['TRIGGER:PT8H30M', 'TRIGGER:PT8H30M']);
    expect(eventsToIcs([a], { now: NOW, daysBefore: 1, alarmTime: '00:00' })).toContain('\r\nTRIGGER:-P1D\r\n');
    expect(eventsToIcs([a], { now: NOW, daysBefore: 0, alarmTime: '00:00' })).toContain('\r\nTRIGGER:PT0S\r\n');
    expect(eventsToIcs([], { now: NOW })).toBe(
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Desktop Archive//Due dates//EN\r\n' +
        'CALSCALE:GREGORIAN\r\nMETHOD:PUBLISH\r\nEND:VCALENDAR\r\n',
    );
  });

  it('escapes backslash, semicolon, comma and line breaks in text values (and nothing else)', () => {
    expect(escapeText('a,b;c\\d\ne\r\nf\rg: "h"')).toBe('a\\,b\\;c\\\\d\\ne\\nf\\ng: "h"');
    const ics = eventsToIcs(
      [
        event('aaaaaaaa-0000-4000-8000-000000000005', {
          title: 'Miete; Januar, Februar',
          sender_name: 'Haus\\Verwaltung',
          reference_number: null,
          amount: null,
        }),
      ],
      { now: NOW },
    );
    expect(ics).toContain('\r\nSUMMARY:Miete\\; Januar\\, Februar\r\n');
    expect(ics).toContain('\r\nDESCRIPTION:From: Haus\\\\Verwaltung\\nType: invoice\r\n');
  });

  it('folds at 75 octets with a leading space, never inside a UTF-8 character', () => {
    expect(foldLine('x'.repeat(75))).toBe('x'.repeat(75));
    expect(foldLine('x'.repeat(76))).toBe(`${'x'.repeat(75)}\r\n x`);
    // Continuation lines hold 74 octets after their space.
    expect(foldLine('x'.repeat(75 + 74 + 1))).toBe(`${'x'.repeat(75)}\r\n ${'x'.repeat(74)}\r\n x`);
    // "ä" is two octets: at octet 74 it would end at 76, so the line breaks before it (74 octets).
    expect(foldLine(`SUMMARY:${'a'.repeat(66)}äb`)).toBe(`SUMMARY:${'a'.repeat(66)}\r\n äb`);
    // A four-octet emoji (a surrogate pair in UTF-16) is never cut either.
    expect(foldLine(`${'a'.repeat(73)}😀z`)).toBe(`${'a'.repeat(73)}\r\n 😀z`);

    const title = 'Überweisung für Gebühren – ' + 'Rechnungsnummer ÄÖÜ ß € '.repeat(8);
    const ics = eventsToIcs([event('aaaaaaaa-0000-4000-8000-000000000006', { title })], { now: NOW });
    const lines = ics.split('\r\n');
    for (const line of lines) expect(octets(line)).toBeLessThanOrEqual(75);
    expect(lines.some((line) => line.startsWith(' '))).toBe(true);
    const unfolded = ics.replace(/\r\n /g, '');
    expect(unfolded).toContain(`\r\nSUMMARY:${escapeText(`${title} – 120.50 EUR`)}\r\n`);
    // Every physical line is valid UTF-8 on its own (no replacement characters after a round trip).
    for (const line of lines) expect(Buffer.from(line, 'utf8').toString('utf8')).toBe(line);
  });
});
