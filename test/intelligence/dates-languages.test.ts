import { describe, expect, it } from 'vitest';
import { findDates, readsMonthFirst } from '../../server/intelligence/dates.ts';
import { makeDoc } from '../../server/intelligence/text.ts';

const TODAY = '2027-01-20';
const datesIn = (text: string, monthFirst = false): string[] =>
  findDates(makeDoc(text), { monthFirst, today: TODAY }).map((d) => d.iso);

describe('dates in six languages', () => {
  it('reads month names and abbreviations of each language', () => {
    const cases: Array<[string, string]> = [
      // en
      ['3 Nov 2026', '2026-11-03'],
      ['November 3rd, 2026', '2026-11-03'],
      ['the 3rd of November 2026', '2026-11-03'],
      // de
      ['3. Nov. 2026', '2026-11-03'],
      ['3. Dezember 2026', '2026-12-03'],
      // fr
      ['14 février 2026', '2026-02-14'],
      ['14 fevrier 2026', '2026-02-14'],
      ['1er mars 2026', '2026-03-01'],
      ['3 déc. 2026', '2026-12-03'],
      ['9 août 2026', '2026-08-09'],
      ['9 juil. 2026', '2026-07-09'],
      // nl
      ['7 maart 2026', '2026-03-07'],
      ['7 mrt. 2026', '2026-03-07'],
      ['12 mei 2026', '2026-05-12'],
      ['1 okt 2026', '2026-10-01'],
      // es
      ['7 de marzo de 2026', '2026-03-07'],
      ['7 de marzo del 2026', '2026-03-07'],
      ['1º de enero de 2027', '2027-01-01'],
      ['20 dic 2026', '2026-12-20'],
      // it
      ['12 dicembre 2026', '2026-12-12'],
      ['5 giugno 2026', '2026-06-05'],
      ['1° settembre 2026', '2026-09-01'],
      ['3 gen 2027', '2027-01-03'],
    ];
    for (const [text, iso] of cases) expect(datesIn(`Date ${text}`), text).toEqual([iso]);
  });

  it('takes a weekday before the date as part of it', () => {
    const found = findDates(makeDoc('Emis le mardi 2 mars 2027 à Lyon'), { monthFirst: false, today: TODAY });
    expect(found.map((d) => [d.iso, d.text])).toEqual([['2027-03-02', 'mardi 2 mars 2027']]);
    expect(datesIn('Friday, March 5th, 2027')).toEqual(['2027-03-05']);
    expect(datesIn('vrijdag 7 mei 2027')).toEqual(['2027-05-07']);
    expect(datesIn('miércoles 3 de febrero de 2027')).toEqual(['2027-02-03']);
  });

  it('reads hyphenated numeric dates and year-first dates with any separator', () => {
    expect(datesIn('Datum 14-02-2026')).toEqual(['2026-02-14']);
    expect(datesIn('Date 14-02-26')).toEqual(['2026-02-14']);
    expect(datesIn('Date 02-14-2026', true)).toEqual(['2026-02-14']);
    expect(datesIn('2026/02/14 and 2026.02.15')).toEqual(['2026-02-14', '2026-02-15']);
  });

  it('reads a month name between separators, and a two-digit year after it only where nothing else can be meant', () => {
    expect(datesIn('Printed 03-NOV-26 10:12')).toEqual(['2026-11-03']);
    expect(datesIn('03/Nov/26')).toEqual(['2026-11-03']);
    expect(datesIn('Date 03-Nov-2026')).toEqual(['2026-11-03']);
    expect(datesIn('Date 03/Nov/2026')).toEqual(['2026-11-03']);
    expect(datesIn('Date: 03 Nov 26')).toEqual(['2026-11-03']);
    expect(datesIn('03 Nov 26 14:05')).toEqual(['2026-11-03']);
    expect(datesIn('Room 3 Nov 26 guests')).toEqual([]);
  });

  it('reads a month name whose o OCR took for a zero', () => {
    expect(datesIn('Date 26 0ct 2026')).toEqual(['2026-10-26']);
    expect(datesIn('3. N0v. 2026')).toEqual(['2026-11-03']);
  });

  it('leaves phone numbers, codes and impossible dates alone', () => {
    expect(datesIn('Tel. 030-12-2026')).toEqual([]);
    expect(datesIn('31 février 2026 and 30-02-2026')).toEqual([]);
    expect(datesIn('Artikel 5 set 12 stuks')).toEqual([]);
  });
});

describe('which way an ambiguous numeric date is read', () => {
  it('reads month first only in English documents of the United States or of no day-first sign', () => {
    expect(readsMonthFirst('Thank you for shopping\nTotal $12.40\nDate 03/04/2026', 'en')).toBe(true);
    expect(readsMonthFirst('Austin, TX, USA\nTotal $12.40', 'en')).toBe(true);
    expect(readsMonthFirst('Thank you for shopping\nTOTAL RM 12.40\nDate 03/04/2026', 'en')).toBe(false);
    expect(readsMonthFirst('Total £12.40', 'en')).toBe(false);
    expect(readsMonthFirst('Corner Shop Sdn Bhd\nTotal 12.40', 'en')).toBe(false);
    expect(readsMonthFirst('Singapore 018956\nTotal $12.40', 'en')).toBe(false);
    expect(readsMonthFirst('Total 12,40 €', 'fr')).toBe(false);
  });
});
