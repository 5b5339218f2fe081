/** Letters: no payment; reference only when the letter carries a file number ("Unser Zeichen", "Our ref"). */
import { addDays } from '../format.ts';
import type { Block, BuiltDocument } from '../model.ts';
import { closing, docModel, greeting, placeDate, refNumber, truth, window, type Ctx } from './common.ts';

export function buildLetter(ctx: Ctx): BuiltDocument {
  switch (ctx.s.key) {
    case 'hoffmann':
      return lawyerDe(ctx);
    case 'volksbank':
      return bankDe(ctx);
    case 'bkk':
      return insurerDe(ctx);
    case 'summit':
      return lawyerEn(ctx);
    case 'meridian':
      return bankEn(ctx);
    default:
      return employerEn(ctx);
  }
}

function lawyerDe(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const ref = `${rng.int(100, 399)}/${ctx.docDate.slice(2, 4)} HO`;
  const deposit = rng.pick([1500, 1800, 2100]);
  const blocks: Block[] = [
    window(ctx, [
      ['Unser Zeichen', ref],
      ['Ihr Zeichen', '–'],
      ['Datum', ctx.d(ctx.docDate)],
      ['Sachbearbeiterin', 'RAin Dr. Hoffmann'],
    ]),
    { kind: 'paragraph', text: 'Mietsache Gartenstraße 44, Lindenau – Rückzahlung der Mietkaution', bold: true },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: `in der oben genannten Angelegenheit haben wir die Gegenseite mit Schreiben vom ${ctx.d(addDays(ctx.docDate, -21))} aufgefordert, die Mietkaution in Höhe von ${ctx.money(deposit)} nebst Zinsen abzurechnen und auszuzahlen.`,
    },
    {
      kind: 'paragraph',
      text: 'Die Vermieterin hat inzwischen mitgeteilt, dass sie einen Teilbetrag für die noch ausstehende Betriebskostenabrechnung zurückbehalten möchte. Nach der Rechtsprechung ist dies für einen angemessenen Zeitraum grundsätzlich zulässig; die Höhe des Einbehalts erscheint uns jedoch überzogen.',
    },
    {
      kind: 'paragraph',
      text: 'Wir schlagen vor, der Gegenseite eine letzte Frist zu setzen und anschließend gerichtliche Schritte zu prüfen. Bitte teilen Sie uns mit, ob Sie mit diesem Vorgehen einverstanden sind.',
    },
    { kind: 'paragraph', text: 'Für Rückfragen stehen wir Ihnen gerne zur Verfügung.' },
    ...closing(ctx, 'Dr. Katrin Hoffmann, Rechtsanwältin'),
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'letter', { reference: ref, amount: null, due: null }) };
}

function bankDe(ctx: Ctx): BuiltDocument {
  const blocks: Block[] = [
    window(ctx, [
      ['Datum', ctx.d(ctx.docDate)],
      ['Ihre Beraterin', 'Sabine Roth'],
      ['Telefon', '07133 9600-214'],
    ]),
    { kind: 'paragraph', text: placeDate(ctx), align: 'right' },
    { kind: 'paragraph', text: 'Neues Online-Banking: Ihre Zugangsdaten ändern sich', bold: true },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: 'wir modernisieren unser Online-Banking. Ab dem kommenden Monat melden Sie sich mit Ihrem bisherigen VR-NetKey und einem neuen, selbst gewählten Passwort an. Ihre Kontonummer und Ihre IBAN bleiben unverändert.',
    },
    {
      kind: 'paragraph',
      text: 'Bitte geben Sie Ihre Zugangsdaten niemals auf Aufforderung per E-Mail oder Telefon weiter. Wir werden Sie niemals nach Ihrer PIN oder TAN fragen.',
    },
    { kind: 'paragraph', text: 'Bei Fragen hilft Ihnen unser Kundenservice gerne weiter.' },
    ...closing(ctx, 'Sabine Roth, Privatkundenberatung'),
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'letter', { reference: null, amount: null, due: null }) };
}

function insurerDe(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const begin = `${ctx.docDate.slice(0, 8)}01`;
  const blocks: Block[] = [
    window(ctx, [
      ['Versichertennummer', `${refNumber(rng, '@')}${rng.digits(9)}`],
      ['Datum', ctx.d(ctx.docDate)],
      ['Ihr Kontakt', 'Kundenservice'],
    ]),
    { kind: 'heading', text: 'Mitgliedsbescheinigung' },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: `hiermit bestätigen wir, dass Sie seit dem ${ctx.d(begin)} Mitglied der BKK Nordwest Gesundheit sind. Bitte legen Sie diese Bescheinigung Ihrem Arbeitgeber vor.`,
    },
    {
      kind: 'paragraph',
      text: 'Ihre elektronische Gesundheitskarte erhalten Sie in den nächsten Tagen mit gesonderter Post. Bis dahin gilt dieses Schreiben als Nachweis Ihres Versicherungsschutzes.',
    },
    { kind: 'paragraph', text: 'Willkommen bei Ihrer BKK!' },
    ...closing(ctx, 'Ihr Team der BKK Nordwest Gesundheit'),
  ];
  return {
    model: docModel(ctx, blocks),
    truth: truth(ctx, 'letter', { reference: null, amount: null, due: null, category: 'Health' }),
  };
}

function lawyerEn(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const ref = `SL/RT/${rng.digits(4)}`;
  const blocks: Block[] = [
    window(ctx, [
      ['Our ref', ref],
      ['Your ref', '—'],
      ['Date', ctx.d(ctx.docDate)],
    ]),
    { kind: 'paragraph', text: 'Private and confidential', bold: true },
    { kind: 'paragraph', text: greeting(ctx) },
    { kind: 'paragraph', text: 'Re: Your tenancy at Flat 3, 27 Elm Grove – tenancy deposit', bold: true },
    {
      kind: 'paragraph',
      text: `Thank you for your instructions. We have now reviewed your tenancy agreement and the correspondence with your landlord. Your deposit of ${ctx.money(rng.pick([1200, 1350, 1500]))} was protected in a government-approved scheme, as required.`,
    },
    {
      kind: 'paragraph',
      text: "In our view the deductions proposed by your landlord for redecoration are not justified, as the check-in inventory already records the marks in question. We recommend that you raise a dispute through the scheme's free adjudication service.",
    },
    {
      kind: 'paragraph',
      text: 'We enclose a draft statement for you to review. Please let us have any comments within the next two weeks.',
    },
    ...closing(ctx, 'Rachel Turner, Associate Solicitor'),
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'letter', { reference: ref, amount: null, due: null }) };
}

function bankEn(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const blocks: Block[] = [
    window(ctx, [
      ['Sort code', `30-${rng.digits(2)}-${rng.digits(2)}`],
      ['Account number', rng.digits(8)],
      ['Date', ctx.d(ctx.docDate)],
    ]),
    { kind: 'heading', text: 'Welcome to Meridian' },
    { kind: 'paragraph', text: greeting(ctx) },
    {
      kind: 'paragraph',
      text: 'Your new Meridian Everyday current account is now open. Your debit card and PIN will arrive separately within the next 7 working days.',
    },
    {
      kind: 'paragraph',
      text: 'You can start using mobile banking straight away. If you are switching from another bank, the Current Account Switch Service will move your payments and close your old account on the switch date you chose.',
    },
    {
      kind: 'paragraph',
      text: 'We will never ask you to move money to a "safe account" or to share your one-time passcodes.',
    },
    ...closing(ctx, 'Customer Experience Team'),
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'letter', { reference: null, amount: null, due: null }) };
}

function employerEn(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const start = addDays(ctx.docDate, -rng.int(400, 1400));
  const blocks: Block[] = [
    window(ctx, [['Date', ctx.d(ctx.docDate)]]),
    { kind: 'heading', text: 'Confirmation of employment' },
    { kind: 'paragraph', text: 'To whom it may concern,' },
    {
      kind: 'paragraph',
      text: `We confirm that ${ctx.r.name} has been employed by ${ctx.s.name} as a Senior Data Analyst since ${ctx.d(start)}. The position is permanent and full-time (37.5 hours per week).`,
    },
    {
      kind: 'paragraph',
      text: `${ctx.r.name} is not currently under notice, and there are no disciplinary matters on file. This letter is provided at the employee's request for a tenancy application.`,
    },
    {
      kind: 'paragraph',
      text: 'Please contact the People Team at payroll@pinecrest-analytics.co.uk if you need further information.',
    },
    { kind: 'paragraph', text: 'Yours faithfully,' },
    { kind: 'gap', size: 12 },
    { kind: 'paragraph', text: 'Hannah Ellis\nHead of People, Pinecrest Analytics Ltd' },
  ];
  return { model: docModel(ctx, blocks), truth: truth(ctx, 'letter', { reference: null, amount: null, due: null }) };
}
