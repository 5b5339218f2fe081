/**
 * Learning from corrections: when a person corrects a document's sender, category or tags, the space remembers it for
 * that sender (its identity keys, sender-identity.ts), and later documents from the same sender get the same values
 * with source "learned". Upload metadata and hand edits still win: applyAnalysis ranks them above extracted fields.
 */

import { randomUUID } from 'node:crypto';
import { jsonArrayAgg } from '../db/sql-dialect.ts';
import type { Sql } from '../db/sql.ts';
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
export async function rememberDocumentKeys(db: Sql, documentId: string, keys: readonly SenderKey[]): Promise<void> {
  await db.run('DELETE FROM document_sender_keys WHERE document_id = ?', documentId);
  const insert = 'INSERT INTO document_sender_keys (document_id, kind, value) VALUES (?, ?, ?) ON CONFLICT DO NOTHING';
  for (const key of keys) await db.run(insert, documentId, key.kind, key.value);
}

async function documentKeys(db: Sql, documentId: string): Promise<SenderKey[]> {
  return db.all<SenderKey>('SELECT kind, value FROM document_sender_keys WHERE document_id = ?', documentId);
}

/**
 * The rule of the sender these keys identify: by a strong key first, by the name only when no strong key decides.
 * A key shared by several rules (a customer number or account printed on several senders' letters) decides nothing.
 */
async function findRule(
  db: Sql,
  spaceId: string,
  keys: readonly SenderKey[],
): Promise<{ rule: RuleRow; key: SenderKey } | null> {
  const rulesOf = 'SELECT rule_id FROM learned_sender_keys WHERE space_id = ? AND kind = ? AND value = ?';
  const ordered = [...keys.filter((k) => STRONG_KINDS.has(k.kind)), ...keys.filter((k) => !STRONG_KINDS.has(k.kind))];
  for (const key of ordered) {
    const rules = await db.all<{ rule_id: string }>(rulesOf, spaceId, key.kind, key.value);
    if (rules.length !== 1) continue;
    const rule = await db.get<RuleRow>(
      'SELECT id, sender_name, category_id, tags FROM learned_senders WHERE id = ?',
      rules[0]!.rule_id,
    );
    if (rule) return { rule, key };
  }
  return null;
}

/**
 * Remembers a person's correction of a document: the document's current values of the given fields become its
 * sender's rule. A rule found by a shared key that names another sender is not overwritten: the correction starts a
 * rule of its own, and the shared key, now on two rules, stops deciding.
 */
export async function learnFromCorrection(
  db: Sql,
  documentId: string,
  fields: readonly LearnableField[],
  now: string,
): Promise<void> {
  if (fields.length === 0) return;
  const doc = await db.get<{ space_id: string; category_id: string | null; sender_name: string | null; tags: string }>(
    `SELECT d.space_id, d.category_id, s.name AS sender_name,
      (SELECT ${jsonArrayAgg(db.dialect, 't.name')} FROM document_tags dt JOIN tags t ON t.id = dt.tag_id
        WHERE dt.document_id = d.id) AS tags
    FROM documents d LEFT JOIN senders s ON s.id = d.sender_id WHERE d.id = ?`,
    documentId,
  );
  if (!doc) return;
  const keys = await documentKeys(db, documentId);
  if (doc.sender_name) keys.push(...senderKeys('', doc.sender_name));
  if (keys.length === 0) return;

  const found = await findRule(db, doc.space_id, keys);
  const sameSender =
    found !== null &&
    (found.rule.sender_name === null ||
      doc.sender_name === null ||
      normalizeSenderName(found.rule.sender_name) === normalizeSenderName(doc.sender_name));
  const rule: RuleRow =
    found && sameSender ? found.rule : { id: randomUUID(), sender_name: null, category_id: null, tags: null };
  if (!found || !sameSender) {
    await db.run(
      'INSERT INTO learned_senders (id, space_id, created_at, updated_at) VALUES (?, ?, ?, ?)',
      rule.id,
      doc.space_id,
      now,
      now,
    );
  }
  if (fields.includes('sender_name')) rule.sender_name = doc.sender_name;
  if (fields.includes('category_id')) rule.category_id = doc.category_id;
  if (fields.includes('tags')) rule.tags = doc.tags;
  await db.run(
    'UPDATE learned_senders SET sender_name = ?, category_id = ?, tags = ?, updated_at = ? WHERE id = ?',
    rule.sender_name,
    rule.category_id,
    rule.tags,
    now,
    rule.id,
  );
  const addKey =
    'INSERT INTO learned_sender_keys (rule_id, space_id, kind, value) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING';
  for (const key of keys) await db.run(addKey, rule.id, doc.space_id, key.kind, key.value);
}

/**
 * Recognises the sender of a freshly analysed document and returns what the space learned for it, if anything.
 * Also stores the document's keys, so a later correction of this document teaches them.
 */
export async function recallSender(
  db: Sql,
  documentId: string,
  spaceId: string,
  text: string,
  extractedSender: string | null,
): Promise<LearnedSender | null> {
  const keys = senderKeys(text, extractedSender);
  await rememberDocumentKeys(db, documentId, keys);
  const found = await findRule(db, spaceId, keys);
  if (!found) return null;
  const { rule, key } = found;
  const category = rule.category_id
    ? await db.get<{ name: string }>('SELECT name FROM categories WHERE id = ?', rule.category_id)
    : undefined;
  const tags = rule.tags ? (JSON.parse(rule.tags) as string[]) : null;
  if (!rule.sender_name && !category && !tags) return null;
  return { senderName: rule.sender_name, categoryName: category?.name ?? null, tags, matchedBy: key.kind };
}
