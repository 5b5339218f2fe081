/**
 * Contracts in French, Spanish and Italian: an electricity subscription, a sports-centre membership and a flat
 * lease, each with a start, a fixed term, a monthly amount and a notice period. Amount: the monthly fee; due
 * date: the end of the fixed term.
 */
import { addDays, addMonths } from '../format.ts';
import { date, money } from '../languages.ts';
import type { Block, BuiltDocument } from '../model.ts';
import type { EuLang } from '../parties-eu.ts';
import { refNumber, truth, type Ctx } from './common.ts';
import { euModel } from './eu-billing.ts';

interface ContractText {
  heading: string;
  number: string;
  signed: string;
  intro: string;
  /** Label, value pairs of the contract's terms; {fee}, {start}, {end} are filled in. */
  terms: Array<[string, string]>;
  notice: string;
  closing: string;
  termMonths: number;
}

const TEXT: Partial<Record<EuLang, ContractText>> = {
  fr: {
    heading: 'Conditions particulières de votre contrat d’électricité',
    number: 'Contrat n°',
    signed: 'Fait le',
    intro: 'Nous avons le plaisir de vous confirmer la souscription de votre offre d’électricité verte à prix fixe.',
    terms: [
      ['Offre', 'Verte Fixe 3 ans, option base'],
      ['Puissance souscrite', '6 kVA'],
      ['Mensualité', '{fee}'],
      ['Date de prise d’effet', '{start}'],
      ['Durée d’engagement', '36 mois'],
      ['Fin de l’engagement', '{end}'],
    ],
    notice:
      'Vous pouvez résilier votre contrat à tout moment moyennant un préavis d’un mois ; la résiliation prend effet au plus tard trente jours après la demande.',
    closing: 'Le service abonnés',
    termMonths: 36,
  },
  es: {
    heading: 'Contrato de abono anual',
    number: 'N.º de socio',
    signed: 'Sevilla, a',
    intro: 'Por el presente documento el titular se inscribe como socio del centro con las condiciones siguientes:',
    terms: [
      ['Modalidad', 'Abono familiar, acceso ilimitado'],
      ['Cuota mensual', '{fee}'],
      ['Matrícula', 'sin coste'],
      ['Inicio', '{start}'],
      ['Permanencia', '12 meses'],
      ['Fin de la permanencia', '{end}'],
    ],
    notice:
      'La baja deberá comunicarse por escrito con un preaviso de 15 días antes del fin de la permanencia; en otro caso el abono se renovará por periodos mensuales.',
    closing: 'Departamento de Atención al Socio',
    termMonths: 12,
  },
  it: {
    heading: 'Contratto di locazione ad uso abitativo',
    number: 'Rif. contratto',
    signed: 'Padova,',
    intro:
      'Tra la Immobiliare Serafini S.r.l., locatrice, e il conduttore indicato in indirizzo si conviene quanto segue.',
    terms: [
      ['Immobile', 'Appartamento al secondo piano, 3 vani più servizi'],
      ['Canone mensile', '{fee}'],
      ['Deposito cauzionale', 'tre mensilità'],
      ['Decorrenza', '{start}'],
      ['Durata', '4 anni, rinnovabile'],
      ['Prima scadenza', '{end}'],
    ],
    notice:
      'Il conduttore può recedere in qualsiasi momento con preavviso di sei mesi da comunicarsi con lettera raccomandata.',
    closing: 'Ufficio Locazioni',
    termMonths: 48,
  },
};

export function buildEuContract(ctx: Ctx): BuiltDocument {
  const { rng } = ctx;
  const lang = ctx.lang as EuLang;
  const t = TEXT[lang];
  if (!t) throw new Error(`${ctx.s.key}: no contract template in ${lang}`);
  const number = refNumber(rng, rng.pick(['CT-######', '####/@@', 'L-2026-####']));
  const start = addMonths(`${ctx.docDate.slice(0, 8)}01`, 1);
  const end = addDays(addMonths(start, t.termMonths), -1);
  const fee = lang === 'it' ? rng.int(58, 92) * 10 : rng.amount(lang === 'fr' ? 48 : 32, lang === 'fr' ? 110 : 65);
  const fill = (text: string): string =>
    text
      .replace('{fee}', money(lang, fee, ctx.currency))
      .replace('{start}', date(lang, start, true))
      .replace('{end}', date(lang, end, true));
  const blocks: Block[] = [
    {
      kind: 'window',
      returnAddress: null,
      recipient: ctx.r.lines,
      info: [
        [t.number, number],
        [t.signed, date(lang, ctx.docDate, false)],
      ],
      infoPlacement: 'below',
    },
    { kind: 'heading', text: t.heading },
    { kind: 'paragraph', text: t.intro },
    { kind: 'pairs', rows: t.terms.map(([label, value]) => [label, fill(value)]) },
    { kind: 'paragraph', text: t.notice },
    { kind: 'paragraph', text: `${t.closing}\n${ctx.s.name}` },
  ];
  return {
    model: euModel(ctx, blocks),
    truth: truth(ctx, 'contract', { reference: number, amount: fee, due: end }),
  };
}
