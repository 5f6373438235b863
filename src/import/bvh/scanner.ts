/**
 * Whitespace tokenizer for the BVH header (HIERARCHY and the MOTION preamble).
 *
 * Tokens are runs of non-blank characters; `{` and `}` are tokens of their own even when
 * glued to a word. Line breaks are LF, CRLF or a lone CR, mixed freely (CMU 131_01 mixes the
 * first two), and counted from 1 for error messages. Blanks are space, tab, VT, FF, NBSP and
 * a byte-order mark. Each call moves forward only, so scanning is linear in the text.
 */

const LF = 10;
const CR = 13;
const OPEN = 123; // {
const CLOSE = 125; // }

/** True for the blank characters that separate tokens within a line. */
export function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 11 || c === 12 || c === 0xa0 || c === 0xfeff;
}

/** One word of the header and the line it is on. */
export interface Token {
  readonly text: string;
  readonly line: number;
}

/** A forward-only cursor over BVH text. */
export class BvhScanner {
  /** Index of the next unread character. */
  pos = 0;
  /** Line of `pos`, from 1. */
  line = 1;

  constructor(readonly text: string) {}

  /** The next token, crossing line breaks; null at the end of the text. */
  next(): Token | null {
    this.skip(true);
    return this.pos < this.text.length ? this.read() : null;
  }

  /**
   * The tokens left on the current line (maybe none); stops before the line break, or with
   * `untilBrace` before a `{` or `}` (so `OFFSET 0 1 0}` leaves the `}` for {@link next}).
   */
  restOfLine(untilBrace = false): Token[] {
    const tokens: Token[] = [];
    for (;;) {
      this.skip(false);
      if (this.pos >= this.text.length) return tokens;
      const c = this.text.charCodeAt(this.pos);
      if (c === LF || c === CR || (untilBrace && (c === OPEN || c === CLOSE))) return tokens;
      tokens.push(this.read());
    }
  }

  /** The tokens of the next line that has any; null at the end of the text. */
  nextLine(): Token[] | null {
    this.skip(true);
    return this.pos < this.text.length ? this.restOfLine() : null;
  }

  private skip(crossLines: boolean): void {
    const text = this.text;
    const n = text.length;
    let p = this.pos;
    while (p < n) {
      const c = text.charCodeAt(p);
      if (c === LF || c === CR) {
        if (!crossLines) break;
        p += c === CR && text.charCodeAt(p + 1) === LF ? 2 : 1;
        this.line++;
      } else if (isBlank(c)) {
        p++;
      } else {
        break;
      }
    }
    this.pos = p;
  }

  /** Reads the token at `pos` (which is not blank). */
  private read(): Token {
    const text = this.text;
    const n = text.length;
    const start = this.pos;
    let p = start;
    const first = text.charCodeAt(p);
    if (first === OPEN || first === CLOSE) {
      p++;
    } else {
      while (p < n) {
        const c = text.charCodeAt(p);
        if (c === LF || c === CR || c === OPEN || c === CLOSE || isBlank(c)) break;
        p++;
      }
    }
    this.pos = p;
    return { text: text.slice(start, p), line: this.line };
  }
}

/** A token as it appears in an error path: at most 24 characters, quoted. */
export function quote(text: string): string {
  return JSON.stringify(text.length > 24 ? `${text.slice(0, 24)}…` : text);
}
