import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Text → token ids as the model was trained on, special tokens included, cut to maxTokens. */
export interface Tokenizer {
  readonly padId: number;
  encode(text: string, maxTokens: number): number[];
}

/**
 * Loads the tokenizer of a model directory: tokenizer.json (Hugging Face tokenizers; WordPiece as in BERT/MiniLM/bge,
 * Unigram as in XLM-R/multilingual-e5) or else vocab.txt (BERT WordPiece; tokenizer_config.json's do_lower_case is read).
 */
export async function loadTokenizer(modelDir: string): Promise<Tokenizer> {
  const json = await readOptional(join(modelDir, 'tokenizer.json'));
  if (json !== null) return tokenizerFromJson(JSON.parse(json) as TokenizerJson);
  const vocab = await readOptional(join(modelDir, 'vocab.txt'));
  if (vocab === null) throw new Error(`No tokenizer in ${modelDir}: expected tokenizer.json or vocab.txt`);
  const config = await readOptional(join(modelDir, 'tokenizer_config.json'));
  const lowercase =
    config === null ? true : ((JSON.parse(config) as { do_lower_case?: boolean }).do_lower_case ?? true);
  return WordPieceTokenizer.fromVocabList(
    vocab.split(/\r?\n/).filter((line, i, all) => line !== '' || i < all.length - 1),
    { lowercase },
  );
}

async function readOptional(path: string): Promise<string | null> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** The parts of tokenizer.json that are read. */
export interface TokenizerJson {
  normalizer?: NormalizerJson | null;
  post_processor?: PostProcessorJson | null;
  padding?: { pad_id?: number } | null;
  model: {
    type?: string;
    vocab?: Record<string, number> | Array<[string, number]>;
    unk_token?: string;
    unk_id?: number | null;
    continuing_subword_prefix?: string;
    max_input_chars_per_word?: number;
  };
}
type NormalizerJson = {
  type: string;
  lowercase?: boolean;
  strip_accents?: boolean | null;
  normalizers?: NormalizerJson[];
};
type PostProcessorJson = {
  type: string;
  cls?: [string, number];
  sep?: [string, number];
  single?: Array<{ SpecialToken?: { id: string }; Sequence?: { id: string } }>;
  special_tokens?: Record<string, { ids: number[] }>;
  processors?: PostProcessorJson[];
};

export function tokenizerFromJson(json: TokenizerJson): Tokenizer {
  const type = json.model.type ?? (Array.isArray(json.model.vocab) ? 'Unigram' : 'WordPiece');
  const special = specialTokensOf(json.post_processor ?? null);
  if (type === 'WordPiece') {
    const vocab = new Map(Object.entries((json.model.vocab ?? {}) as Record<string, number>));
    const { lowercase, stripAccents } = normalizerFlags(json.normalizer ?? null);
    return new WordPieceTokenizer(vocab, {
      lowercase,
      stripAccents,
      unkToken: json.model.unk_token ?? '[UNK]',
      prefix: json.model.continuing_subword_prefix ?? '##',
      maxCharsPerWord: json.model.max_input_chars_per_word ?? 100,
      ...(special ? { special } : {}),
      ...(json.padding?.pad_id !== undefined ? { padId: json.padding.pad_id } : {}),
    });
  }
  if (type === 'Unigram') {
    const pieces = (json.model.vocab ?? []) as Array<[string, number]>;
    const { lowercase } = normalizerFlags(json.normalizer ?? null, false);
    return new UnigramTokenizer(pieces, {
      unkId: json.model.unk_id ?? 0,
      lowercase,
      ...(special ? { special } : {}),
      ...(json.padding?.pad_id !== undefined ? { padId: json.padding.pad_id } : {}),
    });
  }
  throw new Error(`tokenizer.json model type ${type} is not supported (supported: WordPiece, Unigram)`);
}

function normalizerFlags(
  normalizer: NormalizerJson | null,
  defaultLowercase = true,
): { lowercase: boolean; stripAccents: boolean } {
  if (!normalizer) return { lowercase: defaultLowercase, stripAccents: defaultLowercase };
  switch (normalizer.type) {
    case 'BertNormalizer': {
      const lowercase = normalizer.lowercase ?? true;
      // As in BERT: strip_accents unset means "follow lowercase".
      return { lowercase, stripAccents: normalizer.strip_accents ?? lowercase };
    }
    case 'Lowercase':
      return { lowercase: true, stripAccents: false };
    case 'StripAccents':
      return { lowercase: false, stripAccents: true };
    case 'Sequence': {
      const flags = (normalizer.normalizers ?? []).map((n) => normalizerFlags(n, false));
      return { lowercase: flags.some((f) => f.lowercase), stripAccents: flags.some((f) => f.stripAccents) };
    }
    default:
      return { lowercase: false, stripAccents: false };
  }
}

function specialTokensOf(processor: PostProcessorJson | null): { before: number[]; after: number[] } | null {
  if (!processor) return null;
  if (processor.type === 'BertProcessing' || processor.type === 'RobertaProcessing') {
    if (!processor.cls || !processor.sep) return null;
    return { before: [processor.cls[1]], after: [processor.sep[1]] };
  }
  if (processor.type === 'TemplateProcessing' && processor.single) {
    const before: number[] = [],
      after: number[] = [];
    let seenSequence = false;
    for (const item of processor.single) {
      if (item.Sequence) seenSequence = true;
      else if (item.SpecialToken)
        (seenSequence ? after : before).push(...(processor.special_tokens?.[item.SpecialToken.id]?.ids ?? []));
    }
    return { before, after };
  }
  if (processor.type === 'Sequence') {
    for (const inner of processor.processors ?? []) {
      const found = specialTokensOf(inner);
      if (found) return found;
    }
  }
  return null;
}

const isPunctuation = (ch: string): boolean => {
  const code = ch.codePointAt(0)!;
  return (
    (code >= 33 && code <= 47) ||
    (code >= 58 && code <= 64) ||
    (code >= 91 && code <= 96) ||
    (code >= 123 && code <= 126) ||
    /\p{P}/u.test(ch)
  );
};
const isCjk = (code: number): boolean =>
  (code >= 0x4e00 && code <= 0x9fff) ||
  (code >= 0x3400 && code <= 0x4dbf) ||
  (code >= 0x20000 && code <= 0x2a6df) ||
  (code >= 0xf900 && code <= 0xfaff) ||
  (code >= 0x2f800 && code <= 0x2fa1f);

/** BERT's basic tokenizer: clean, optionally lower-case and strip accents, split on white space and punctuation. */
export function bertPreTokenize(text: string, lowercase: boolean, stripAccents: boolean): string[] {
  let cleaned = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code === 0 || code === 0xfffd || (/\p{Cc}/u.test(ch) && !/\s/.test(ch))) continue;
    cleaned += isCjk(code) ? ` ${ch} ` : /\s/.test(ch) ? ' ' : ch;
  }
  if (lowercase) cleaned = cleaned.toLowerCase();
  if (stripAccents) cleaned = cleaned.normalize('NFD').replace(/\p{Mn}+/gu, '');
  const words: string[] = [];
  for (const chunk of cleaned.split(' ')) {
    let current = '';
    for (const ch of chunk) {
      if (isPunctuation(ch)) {
        if (current) words.push(current);
        words.push(ch);
        current = '';
      } else current += ch;
    }
    if (current) words.push(current);
  }
  return words;
}

export class WordPieceTokenizer implements Tokenizer {
  readonly padId: number;
  private readonly vocab: ReadonlyMap<string, number>;
  private readonly unkId: number;
  private readonly before: number[];
  private readonly after: number[];
  private readonly options: { lowercase: boolean; stripAccents: boolean; prefix: string; maxCharsPerWord: number };

  constructor(
    vocab: ReadonlyMap<string, number>,
    options: {
      lowercase: boolean;
      stripAccents?: boolean;
      unkToken?: string;
      prefix?: string;
      maxCharsPerWord?: number;
      special?: { before: number[]; after: number[] };
      padId?: number;
    },
  ) {
    this.vocab = vocab;
    const id = (token: string): number | undefined => vocab.get(token);
    const unk = id(options.unkToken ?? '[UNK]');
    if (unk === undefined) throw new Error(`WordPiece vocabulary has no unknown token ${options.unkToken ?? '[UNK]'}`);
    this.unkId = unk;
    const cls = id('[CLS]'),
      sep = id('[SEP]');
    this.before = options.special?.before ?? (cls === undefined ? [] : [cls]);
    this.after = options.special?.after ?? (sep === undefined ? [] : [sep]);
    this.padId = options.padId ?? id('[PAD]') ?? 0;
    this.options = {
      lowercase: options.lowercase,
      stripAccents: options.stripAccents ?? options.lowercase,
      prefix: options.prefix ?? '##',
      maxCharsPerWord: options.maxCharsPerWord ?? 100,
    };
  }

  /** vocab.txt: one token a line, the line number is the id. */
  static fromVocabList(tokens: readonly string[], options: { lowercase: boolean }): WordPieceTokenizer {
    return new WordPieceTokenizer(new Map(tokens.map((token, i) => [token, i])), options);
  }

  encode(text: string, maxTokens: number): number[] {
    const room = Math.max(0, maxTokens - this.before.length - this.after.length);
    const ids: number[] = [];
    for (const word of bertPreTokenize(text, this.options.lowercase, this.options.stripAccents)) {
      if (ids.length >= room) break;
      ids.push(...this.wordPieces(word));
    }
    return [...this.before, ...ids.slice(0, room), ...this.after];
  }

  /** Greedy longest-match-first, as BERT does; a word with any unmatched part becomes one unknown token. */
  private wordPieces(word: string): number[] {
    const chars = [...word];
    if (chars.length > this.options.maxCharsPerWord) return [this.unkId];
    const pieces: number[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let found: number | undefined;
      while (end > start) {
        const piece = (start > 0 ? this.options.prefix : '') + chars.slice(start, end).join('');
        found = this.vocab.get(piece);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) return [this.unkId];
      pieces.push(found);
      start = end;
    }
    return pieces;
  }
}

/** SentencePiece unigram model (XLM-R family): Metaspace pre-tokenisation, best segmentation by summed log-probability. */
export class UnigramTokenizer implements Tokenizer {
  readonly padId: number;
  private readonly pieces = new Map<string, { id: number; score: number }>();
  private readonly maxPieceLength: number;
  private readonly unkId: number;
  private readonly unkScore: number;
  private readonly before: number[];
  private readonly after: number[];
  private readonly lowercase: boolean;

  constructor(
    vocab: ReadonlyArray<[string, number]>,
    options: {
      unkId: number;
      lowercase?: boolean;
      special?: { before: number[]; after: number[] };
      padId?: number;
    },
  ) {
    let maxLength = 1,
      minScore = 0;
    vocab.forEach(([piece, score], id) => {
      if (!this.pieces.has(piece)) this.pieces.set(piece, { id, score });
      maxLength = Math.max(maxLength, [...piece].length);
      minScore = Math.min(minScore, score);
    });
    this.maxPieceLength = maxLength;
    this.unkId = options.unkId;
    // As in SentencePiece: an unknown character costs more than any known piece.
    this.unkScore = minScore - 10;
    const id = (piece: string): number | undefined => this.pieces.get(piece)?.id;
    this.before = options.special?.before ?? [id('<s>') ?? 0];
    this.after = options.special?.after ?? [id('</s>') ?? 2];
    this.padId = options.padId ?? id('<pad>') ?? 1;
    this.lowercase = options.lowercase ?? false;
  }

  encode(text: string, maxTokens: number): number[] {
    const room = Math.max(0, maxTokens - this.before.length - this.after.length);
    let normalized = text.normalize('NFKC').replace(/\s+/g, ' ').trim();
    if (this.lowercase) normalized = normalized.toLowerCase();
    const ids: number[] = [];
    for (const word of normalized.split(' ')) {
      if (!word || ids.length >= room) continue;
      ids.push(...this.segment(`▁${word}`));
    }
    return [...this.before, ...ids.slice(0, room), ...this.after];
  }

  /** Viterbi over the word's characters: best[i] is the best score of a segmentation of the first i characters. */
  private segment(word: string): number[] {
    const chars = [...word];
    const n = chars.length;
    const best = new Float64Array(n + 1).fill(-Infinity);
    const from = new Int32Array(n + 1);
    const pieceAt = new Int32Array(n + 1);
    best[0] = 0;
    for (let end = 1; end <= n; end++) {
      for (let start = Math.max(0, end - this.maxPieceLength); start < end; start++) {
        if (best[start] === -Infinity) continue;
        const piece = this.pieces.get(chars.slice(start, end).join(''));
        const score = piece ? piece.score : end - start === 1 ? this.unkScore : undefined;
        if (score === undefined) continue;
        if (best[start]! + score > best[end]!) {
          best[end] = best[start]! + score;
          from[end] = start;
          pieceAt[end] = piece ? piece.id : this.unkId;
        }
      }
    }
    const ids: number[] = [];
    for (let end = n; end > 0; end = from[end]!) ids.push(pieceAt[end]!);
    ids.reverse();
    // Consecutive unknown characters count as one unknown token, as in SentencePiece.
    return ids.filter((id, i) => !(id === this.unkId && ids[i - 1] === this.unkId));
  }
}
