import { l2Normalize, type DocumentField, type Embedder } from './embedder.ts';
import { conceptsOfPhrase, conceptsOfWord } from './synonyms.ts';
import { foldedWords, isNumeric, STOPWORDS } from './text-folding.ts';

/** Bump when features, weights or the synonym list change: the id changes and stored vectors are re-embedded. */
export const HASHED_EMBEDDER_VERSION = 1;

/**
 * Weights of a word's feature groups. Its character n-grams together count as much as one exact feature, so long
 * words do not outweigh short ones; the word itself adds exact-match evidence; a synonym concept is weighted above
 * both because it is the only thing a German word and its English translation share.
 */
const NGRAM_WEIGHT = 1,
  WORD_WEIGHT = 0.8,
  CONCEPT_WEIGHT = 2;
const MIN_GRAM = 3,
  MAX_GRAM = 5;

/** FNV-1a over UTF-16 code units, then murmur3's finaliser so that every output bit depends on every input bit. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A word's contribution: signed weights at hashed positions (duplicates merged). */
interface Block {
  index: Int32Array;
  value: Float32Array;
}

/**
 * The built-in embedder: works offline, needs no weights. A text becomes the sum of its words' blocks
 * (character 3- to 5-grams of the folded word with boundary marks, the word itself, and the synonym concepts it
 * belongs to), each scaled by 1 + ln(term frequency), hashed with a random sign into `dimensions` slots
 * (signed hashing keeps collisions unbiased), then L2-normalised. Shared n-grams make a misspelt word land near
 * the right one; shared concepts make "Rechnung" land near "invoice".
 */
export class HashedEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly blocks = new Map<string, Block>();

  constructor(dimensions = 512) {
    this.dimensions = dimensions;
    this.id = `hashed-ngram-v${HASHED_EMBEDDER_VERSION}-${dimensions}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((text) => this.embedText(text));
  }

  async embedDocuments(documents: ReadonlyArray<readonly DocumentField[]>): Promise<Float32Array[]> {
    return documents.map((fields) => this.embedFields(fields));
  }

  embedText(text: string): Float32Array {
    return this.embedFields([{ text, weight: 1 }]);
  }

  /** Weighted fields (a title above body text) summed into one vector. */
  embedFields(fields: readonly DocumentField[]): Float32Array {
    const vector = new Float32Array(this.dimensions);
    for (const field of fields) {
      const { words, concepts } = this.countTerms(field.text);
      for (const [word, tf] of words) this.addBlock(vector, this.blockOf(word), field.weight * (1 + Math.log(tf)));
      for (const [concept, tf] of concepts)
        this.addFeature(vector, `c:${concept}`, CONCEPT_WEIGHT * field.weight * (1 + Math.log(tf)));
    }
    return l2Normalize(vector);
  }

  /** Folded, non-stopword words of a text with their counts, and concepts of two-word terms. */
  private countTerms(text: string): { words: Map<string, number>; concepts: Map<string, number> } {
    const all = foldedWords(text);
    const words = new Map<string, number>();
    const concepts = new Map<string, number>();
    for (let i = 0; i < all.length; i++) {
      const word = all[i]!;
      if (i + 1 < all.length)
        for (const concept of conceptsOfPhrase(word, all[i + 1]!))
          concepts.set(concept, (concepts.get(concept) ?? 0) + 1);
      if (STOPWORDS.has(word) || (word.length < 2 && !isNumeric(word))) continue;
      words.set(word, (words.get(word) ?? 0) + 1);
    }
    return { words, concepts };
  }

  private blockOf(word: string): Block {
    const cached = this.blocks.get(word);
    if (cached) return cached;
    const features = new Map<number, number>();
    const add = (key: string, weight: number): void => {
      const h = hash32(key);
      const slot = h % this.dimensions;
      const signed = h & 0x80000000 ? -weight : weight;
      features.set(slot, (features.get(slot) ?? 0) + signed);
    };
    add(`w:${word}`, WORD_WEIGHT);
    // Numbers carry meaning only as a whole: "4711" and "4712" are not alike.
    if (!isNumeric(word)) {
      const padded = `<${word}>`;
      const grams: string[] = [];
      for (let n = MIN_GRAM; n <= MAX_GRAM; n++)
        for (let i = 0; i + n <= padded.length; i++) grams.push(padded.slice(i, i + n));
      const each = NGRAM_WEIGHT / Math.sqrt(grams.length);
      for (const gram of grams) add(`g:${gram}`, each);
      for (const { concept, weight } of conceptsOfWord(word)) add(`c:${concept}`, CONCEPT_WEIGHT * weight);
    }
    const block: Block = { index: Int32Array.from(features.keys()), value: Float32Array.from(features.values()) };
    // Bounded: a long-running server sees an open-ended vocabulary.
    if (this.blocks.size >= 200_000) this.blocks.clear();
    this.blocks.set(word, block);
    return block;
  }

  private addBlock(vector: Float32Array, block: Block, scale: number): void {
    for (let i = 0; i < block.index.length; i++) {
      const slot = block.index[i]!;
      vector[slot] = vector[slot]! + block.value[i]! * scale;
    }
  }

  private addFeature(vector: Float32Array, key: string, weight: number): void {
    const h = hash32(key);
    const slot = h % this.dimensions;
    vector[slot] = vector[slot]! + (h & 0x80000000 ? -weight : weight);
  }
}
