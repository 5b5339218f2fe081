import { foldText } from './text-folding.ts';

/**
 * The archive's core vocabulary in German and English, grouped by meaning. Every term of a group adds the group's
 * concept feature to an embedding, so "Versicherung" and "insurance" share a dimension although they share no letters.
 * Terms are written naturally and folded on load. Two-word terms ("credit note") match adjacent words.
 * Changing this list changes the embeddings: bump HASHED_EMBEDDER_VERSION with it.
 */
const CONCEPTS: ReadonlyArray<readonly [concept: string, terms: string]> = [
  ['invoice', 'rechnung, invoice, faktura, bill'],
  ['credit-note', 'gutschrift, credit note, gutschriftsanzeige'],
  ['insurance', 'versicherung, insurance, assurance, versicherer, insurer'],
  ['policy', 'police, versicherungsschein, policy'],
  ['contract', 'vertrag, contract, vereinbarung, agreement'],
  ['termination', 'kündigung, termination, cancellation, kündigungsbestätigung'],
  ['reminder', 'mahnung, reminder, zahlungserinnerung, dunning'],
  ['payslip', 'lohnabrechnung, gehaltsabrechnung, entgeltabrechnung, payslip, pay slip, paystub, salary statement'],
  ['statement', 'kontoauszug, statement, bank statement, account statement'],
  ['offer', 'angebot, offer, quote, quotation, kostenvoranschlag, estimate'],
  ['receipt', 'quittung, receipt, beleg, kassenbon, kassenzettel'],
  ['electricity', 'strom, electricity, electric, elektrizität'],
  ['rent', 'miete, rent, mietzahlung, rental'],
  ['lease', 'mietvertrag, lease, tenancy agreement, rental agreement'],
  ['tax', 'steuer, tax, taxes, steuern'],
  ['tax-return', 'steuererklärung, tax return'],
  ['tax-assessment', 'steuerbescheid, tax assessment'],
  ['payment', 'zahlung, payment, bezahlung, überweisung, transfer'],
  ['due-date', 'fälligkeit, due date, zahlungsziel, fällig, due'],
  ['amount', 'betrag, amount, summe, total'],
  ['order', 'bestellung, order, auftrag, purchase order'],
  ['delivery-note', 'lieferschein, delivery note, packing slip'],
  ['delivery', 'lieferung, delivery, shipment, versand, shipping'],
  ['doctor', 'arzt, ärztin, doctor, physician, praxis'],
  ['health-insurance', 'krankenkasse, krankenversicherung, health insurance'],
  ['vehicle', 'fahrzeug, auto, car, vehicle, kfz, pkw'],
  ['repair', 'reparatur, repair, instandsetzung'],
  ['warranty', 'garantie, gewährleistung, warranty, guarantee'],
  ['certificate', 'zeugnis, bescheinigung, zertifikat, certificate, nachweis'],
  ['salary', 'gehalt, lohn, salary, wage, wages, einkommen, income'],
  ['pension', 'rente, pension, altersvorsorge, retirement'],
  ['account', 'konto, account, bankkonto'],
  ['loan', 'kredit, darlehen, loan, credit'],
  ['mortgage', 'hypothek, baufinanzierung, mortgage'],
  ['water', 'wasser, water'],
  ['gas', 'erdgas, gas, natural gas'],
  ['heating', 'heizung, heating, heizkosten, heating costs'],
  ['utilities', 'nebenkosten, nebenkostenabrechnung, betriebskosten, utilities, service charges, utility bill'],
  ['phone', 'telefon, handy, mobilfunk, phone, mobile, telephone'],
  ['internet', 'internet, broadband, dsl, glasfaser, fibre'],
  ['subscription', 'abonnement, abo, subscription'],
  ['membership', 'mitgliedschaft, mitgliedsbeitrag, membership, membership fee'],
  ['fee', 'gebühr, gebühren, fee, fees, charge'],
  ['fine', 'bußgeld, strafzettel, verwarnungsgeld, fine, penalty, parking ticket'],
  ['court', 'gericht, court, urteil, judgment'],
  ['lawyer', 'anwalt, rechtsanwalt, lawyer, attorney'],
  ['notary', 'notar, notary'],
  ['application', 'antrag, application'],
  ['notice', 'bescheid, notice, decision, notification'],
  ['authority', 'behörde, amt, authority, finanzamt, tax office'],
  ['registration', 'anmeldung, registration, meldebescheinigung'],
  ['passport', 'reisepass, passport'],
  ['id-card', 'personalausweis, ausweis, id card, identity card'],
  ['birth-certificate', 'geburtsurkunde, birth certificate'],
  ['marriage', 'heirat, ehe, hochzeit, marriage, wedding, heiratsurkunde, marriage certificate'],
  ['school', 'schule, school, schulzeugnis'],
  ['university', 'universität, hochschule, university, studium, studies'],
  ['ticket', 'fahrkarte, ticket, fahrschein'],
  ['flight', 'flug, flight, boarding pass, bordkarte'],
  ['travel', 'reise, travel, trip, urlaub, vacation, holiday'],
  ['booking', 'buchung, reservierung, booking, reservation'],
  ['confirmation', 'bestätigung, confirmation, buchungsbestätigung'],
  ['medical-report', 'befund, arztbrief, medical report, diagnosis, diagnose'],
  ['prescription', 'rezept, prescription, verordnung'],
  ['hospital', 'krankenhaus, klinik, hospital, clinic'],
  ['dentist', 'zahnarzt, dentist, dental'],
  ['employer', 'arbeitgeber, employer'],
  ['employment', 'arbeitsvertrag, employment contract, anstellung, employment'],
  ['apartment', 'wohnung, apartment, flat'],
  ['house', 'haus, house, eigenheim, home'],
  ['landlord', 'vermieter, landlord'],
  ['tenant', 'mieter, tenant'],
  ['purchase', 'kauf, einkauf, purchase, kaufvertrag, purchase agreement'],
  ['refund', 'erstattung, rückerstattung, refund, reimbursement, rückzahlung'],
  ['donation', 'spende, donation, spendenbescheinigung, donation receipt'],
  ['deposit', 'kaution, deposit, security deposit'],
  ['premium', 'beitrag, prämie, premium, contribution'],
  ['fuel', 'kraftstoff, benzin, diesel, fuel, petrol, gasoline, tankstelle'],
  ['waste', 'müll, abfall, müllabfuhr, waste, garbage, refuse collection'],
  ['broadcast-fee', 'rundfunkbeitrag, gez, licence fee, tv licence'],
  ['childcare', 'kita, kindergarten, kinderbetreuung, daycare, childcare'],
  ['child-benefit', 'kindergeld, child benefit'],
  ['customer-number', 'kundennummer, customer number, kundennr, customer id'],
  ['invoice-number', 'rechnungsnummer, invoice number, rechnungsnr'],
  ['energy', 'energie, energy, energieversorger, energy supplier'],
  ['bank', 'bank, sparkasse, volksbank, kreditinstitut'],
  ['appointment', 'termin, appointment, einladung, invitation'],
  ['annual', 'jährlich, annual, yearly, jahresabrechnung, annual statement'],
];

/** Word parts a German compound is often built from, usable in a compound but too short or not a word alone. */
const COMPOUND_STEMS: ReadonlyArray<readonly [stem: string, concept: string]> = [
  ['strom', 'electricity'],
  ['miet', 'rent'],
  ['lohn', 'salary'],
  ['gehalts', 'salary'],
  ['steuer', 'tax'],
  ['kfz', 'vehicle'],
  ['auto', 'vehicle'],
  ['versicherungs', 'insurance'],
  ['rechnungs', 'invoice'],
  ['vertrags', 'contract'],
  ['wasser', 'water'],
  ['heiz', 'heating'],
  ['kranken', 'health-insurance'],
];

const COMPOUND_STEM_SET: ReadonlySet<string> = new Set(COMPOUND_STEMS.map(([stem]) => stem));

export interface ConceptMatch {
  concept: string;
  weight: number;
}

const termToConcepts = new Map<string, string[]>();
const phraseToConcepts = new Map<string, string[]>();
/** Single-word terms with one letter deleted → the terms; finds a term one typo away without comparing to every term. */
const deletions = new Map<string, string[]>();
const conceptTerms = new Map<string, string[]>();

const push = (map: Map<string, string[]>, key: string, value: string): void => {
  const list = map.get(key);
  if (!list) map.set(key, [value]);
  else if (!list.includes(value)) list.push(value);
};

for (const [concept, list] of CONCEPTS) {
  for (const raw of list.split(',')) {
    const term = foldText(raw.trim());
    push(conceptTerms, concept, term);
    if (term.includes(' ')) {
      push(phraseToConcepts, term, concept);
      continue;
    }
    push(termToConcepts, term, concept);
    if (term.length >= 6)
      for (let i = 0; i < term.length; i++) push(deletions, term.slice(0, i) + term.slice(i + 1), term);
  }
}
for (const [stem, concept] of COMPOUND_STEMS) push(termToConcepts, stem, concept);

/** Weights of a match relative to an exact term: a typo or a compound part is weaker evidence. */
const FUZZY_WEIGHT = 0.8,
  COMPOUND_WEIGHT = 0.85;

/**
 * Concepts of one folded word: an exact term; else a term one edit away (words of 6+ letters: "insurence");
 * else terms a compound starts or ends with ("Stromrechnung" → electricity + invoice).
 */
export function conceptsOfWord(word: string): ConceptMatch[] {
  const exact = termToConcepts.get(word);
  if (exact) return exact.map((concept) => ({ concept, weight: 1 }));
  if (word.length < 6) return [];
  const found = new Map<string, number>();
  const add = (concepts: readonly string[] | undefined, weight: number): void => {
    for (const concept of concepts ?? []) found.set(concept, Math.max(found.get(concept) ?? 0, weight));
  };
  const near = [...(deletions.get(word) ?? [])];
  for (let i = 0; i < word.length; i++) {
    const shorter = word.slice(0, i) + word.slice(i + 1);
    if (termToConcepts.has(shorter)) near.push(shorter);
    near.push(...(deletions.get(shorter) ?? []));
  }
  for (const term of near) add(termToConcepts.get(term), FUZZY_WEIGHT);
  if (found.size > 0 || word.length < 7) return [...found].map(([concept, weight]) => ({ concept, weight }));
  // Compound parts: at least 3 letters must be left over, so a word is not read as a compound of itself.
  for (let cut = 3; cut <= word.length - 3; cut++) {
    const head = word.slice(0, cut),
      tail = word.slice(cut);
    if (head.length >= 4 || COMPOUND_STEM_SET.has(head)) add(termToConcepts.get(head), COMPOUND_WEIGHT);
    if (tail.length >= 5) add(termToConcepts.get(tail), COMPOUND_WEIGHT);
  }
  return [...found].map(([concept, weight]) => ({ concept, weight }));
}

/** Concepts of two adjacent folded words read as one term ("credit note", "tax return"). */
export function conceptsOfPhrase(first: string, second: string): string[] {
  return phraseToConcepts.get(`${first} ${second}`) ?? [];
}

/** All folded terms of a concept (for marking synonyms in a snippet). */
export function termsOfConcept(concept: string): readonly string[] {
  return conceptTerms.get(concept) ?? [];
}

export const CONCEPT_COUNT = CONCEPTS.length;
