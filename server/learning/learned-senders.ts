/**
 * Learning from corrections: when a person corrects a document's sender, category or tags, the space remembers it for
 * that sender (its identity keys, sender-identity.ts), and later documents from the same sender get the same values
 * with source "learned". Upload metadata and hand edits still win: applyAnalysis ranks them above extracted fields.
 */

import { randomUUID } from 'node:crypto';
import type { Database } from '../db/database.ts';
import { normalizeSenderName, senderKeys, STRONG_KINDS, type SenderKey } from './sender-identity.ts';

/** What a person may correct that later documents of the sender inherit. */
const LEARNABLE_FIELDS = ['sender_name', 'category_id', 'tags'] as const;
export type LearnableField = (typeof LEARNABLE_FIELDS)[number];
export const isLearnable = (field: string): field is LearnableField =>
  (LEARNABLE_FIELDS as readonly string[]).includes(field);

interface RuleRow {
  id: string;
  sender_name: string | null;
  category_id: string | null;
  tags: string | null;
}

export interface LearnedSender {
  senderName: string | null;
  categoryName: string | null;
  tags: string[] | null;
  /** The kind of key that recognised the sender: a bank account, VAT id or register number, else the name. */
  matchedBy: SenderKey['kind'];
}

/** Stores the identity keys of a processed document (its text and the sender name the rules read). */
export function rememberDocumentKeys(db: Database, documentId: string, keys: readonly SenderKey[]): void {
  db.prepare('DELETE FROM document_sender_keys WHERE document_id = ?').run(documentId);
  const insert = db.prepare('INSERT OR IGNORE INTO document_sender_keys (document_id, kind, value) VALUES (?, ?, ?)');
  for (const key of keys) insert.run(documentId, key.kind, key.value);
}

function documentKeys(db: Database, documentId: string): SenderKey[] {
  return db
    .prepare('SELECT kind, value FROM document_sender_keys WHERE document_id = ?')
    .all(documentId) as unknown as SenderKey[];
}

/**
 * The rule of the sender these keys identify: by a strong key first, by the name only when no strong key decides.
 * A key shared by several rules (a customer number or account printed on several senders' letters) decides nothing.
 */
function findRule(db: Database, spaceId: string, keys: readonly SenderKey[]): { rule: RuleRow; key: SenderKey } | null {
  const rulesOf = db.prepare('SELECT rule_id FROM learned_sender_keys WHERE space_id = ? AND kind = ? AND value = ?');
  const ordered = [...keys.filter((k) => STRONG_KINDS.has(k.kind)), ...keys.filter((k) => !STRONG_KINDS.has(k.kind))];
  for (const key of ordered) {
    const rules = rulesOf.all(spaceId, key.kind, key.value) as Array<{ rule_id: string }>;
    if (rules.length !== 1) continue;
    const rule = db
      .prepare('SELECT id, sender_name, category_id, tags FROM learned_senders WHERE id = ?')
      .get(rules[0]!.rule_id) as RuleRow | undefined;
    if (rule) return { rule, key };
  }
  return null;
}

/**
 * Remembers a person's correction of a document: the document's current values of the given fields become its
 * sender's rule. A rule found by a shared key that names another sender is not overwritten: the correction starts a
 * rule of its own, and the shared key, now on two rules, stops deciding.
 */
export function learnFromCorrection(
  db: Database,
  documentId: string,
  fields: readonly LearnableField[],
  now: string,
): void {
  if (fields.length === 0) return;
  const doc = db
    .prepare(
      `SELECT d.space_id, d.category_id, s.name AS sender_name,
      (SELECT json_group_array(t.name) FROM document_tags dt JOIN tags t ON t.id = dt.tag_id WHERE dt.document_id = d.id) AS tags
    FROM documents d LEFT JOIN senders s ON s.id = d.sender_id WHERE d.id = ?`,
    )
    .get(documentId) as
    { space_id: string; category_id: string | null; sender_name: string | null; tags: string } | undefined;
  if (!doc) return;
  const keys = documentKeys(db, documentId);
  if (doc.sender_name) keys.push(...senderKeys('', doc.sender_name));
  if (keys.length === 0) return;

  const found = findRule(db, doc.space_id, keys);
  const sameSender =
    found !== null &&
    (found.rule.sender_name === null ||
      doc.sender_name === null ||
      normalizeSenderName(found.rule.sender_name) === normalizeSenderName(doc.sender_name));
  const rule: RuleRow =
    found && sameSender ? found.rule : { id: randomUUID(), sender_name: null, category_id: null, tags: null };
  if (!found || !sameSender) {
    db.prepare('INSERT INTO learned_senders (id, space_id, created_at, updated_at) VALUES (?, ?, ?, ?)').run(
      rule.id,
      doc.space_id,
      now,
      now,
    );
  }
  if (fields.includes('sender_name')) rule.sender_name = doc.sender_name;
  if (fields.includes('category_id')) rule.category_id = doc.category_id;
  if (fields.includes('tags')) rule.tags = doc.tags;
  db.prepare('UPDATE learned_senders SET sender_name = ?, category_id = ?, tags = ?, updated_at = ? WHERE id = ?').run(
    rule.sender_name,
    rule.category_id,
    rule.tags,
    now,
    rule.id,
  );
  const addKey = db.prepare(
    'INSERT OR IGNORE INTO learned_sender_keys (rule_id, space_id, kind, value) VALUES (?, ?, ?, ?)',
  );
  for (const key of keys) addKey.run(rule.id, doc.space_id, key.kind, key.value);
}

/**
 * Recognises the sender of a freshly analysed document and returns what the space learned for it, if anything.
 * Also stores the document's keys, so a later correction of this document teaches them.
 */
export function recallSender(
  db: Database,
  documentId: string,
  spaceId: string,
  text: string,
  extractedSender: string | null,
): LearnedSender | null {
  const keys = senderKeys(text, extractedSender);
  rememberDocumentKeys(db, documentId, keys);
  const found = findRule(db, spaceId, keys);
  if (!found) return null;
  const { rule, key } = found;
  const category = rule.category_id
    ? (db.prepare('SELECT name FROM categories WHERE id = ?').get(rule.category_id) as { name: string } | undefined)
    : undefined;
  const tags = rule.tags ? (JSON.parse(rule.tags) as string[]) : null;
  if (!rule.sender_name && !category && !tags) return null;
  return { senderName: rule.sender_name, categoryName: category?.name ?? null, tags, matchedBy: key.kind };
}
