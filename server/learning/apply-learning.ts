import type { Sql } from '../db/sql.ts';
import type { Analysis } from '../pipeline/analysis.ts';
import { recallSender } from './learned-senders.ts';
import type { SenderKeyKind } from './sender-identity.ts';

/** A sender recognised by a bank account, VAT id or register number is surer than one recognised by its name. */
const CONFIDENCE = { strong: 0.95, name: 0.8 };
const KEY_NAMES: Record<SenderKeyKind, string> = {
  iban: 'IBAN',
  vat: 'VAT id',
  register: 'register number',
  name: 'sender name',
};

/**
 * The analysis with what the space learned for its sender: the corrected sender name, category and tags, each with
 * source "learned". Runs after the rules (and the language model), before metadata and hand edits are laid over.
 */
export async function withLearnedFields(
  db: Sql,
  documentId: string,
  spaceId: string,
  analysis: Analysis,
): Promise<Analysis> {
  const extractedSender = analysis.fields.sender_name?.value;
  const learned = await recallSender(
    db,
    documentId,
    spaceId,
    analysis.content,
    typeof extractedSender === 'string' ? extractedSender : null,
  );
  if (!learned) return analysis;
  const confidence = learned.matchedBy === 'name' ? CONFIDENCE.name : CONFIDENCE.strong;
  const evidence = `learned from a correction (same ${KEY_NAMES[learned.matchedBy]})`;
  const fields = { ...analysis.fields };
  const set = (name: string, value: unknown) => {
    const field = { value, source: 'learned', confidence, evidence };
    fields[name] = field;
  };
  if (learned.senderName) set('sender_name', learned.senderName);
  if (learned.categoryName) set('category', learned.categoryName);
  if (learned.tags) set('tags', learned.tags);
  return { ...analysis, fields };
}
