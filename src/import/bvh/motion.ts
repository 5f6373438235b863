/**
 * The BVH motion data: one line per frame, `channelCount` numbers separated by any blanks.
 *
 * One pass over the characters with `charCodeAt`, numbers parsed in place by
 * `parseDecimal` (no regex, no split, no substring per value), so a 2 MB file reads in a few
 * milliseconds. Blank lines are skipped. Faults are collected per line (wrong count, a value
 * that is not a number) so one error lists them; lines after the declared frame count are
 * counted, not parsed.
 *
 * Memory: values are stored in a Float64Array of `min(Frames, L) × channelCount`, where
 * `L = ⌊(remaining characters + 1) / (2 × channelCount)⌋` bounds the number of well-formed
 * lines that fit in the rest of the text (each value needs a character and a separator). A
 * lying `Frames: 999999999999` therefore allocates no more than the text could hold.
 */
import type { IssueList } from '../../assets/AnimationError.js';
import { parseDecimal } from './number.js';
import { quote } from './scanner.js';

const LF = 10;
const CR = 13;

/**
 * True for a line break or blank (the scanner's `isBlank`), written out so the hot loop
 * tests printable ASCII with one comparison.
 */
function isSeparator(c: number): boolean {
  return c <= 32 ? c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12 : c > 127 && (c === 0xa0 || c === 0xfeff);
}

/** The parsed data lines. */
export interface MotionData {
  /** Frame-major channel values, `framesRead × channelCount` in file order (valid rows only). */
  readonly values: Float64Array;
  /** Data lines that counted as frames (at most `frameCount`). */
  readonly framesRead: number;
  /** Non-blank lines after the declared frames (ignored). */
  readonly extraLines: number;
  /** Line of the first extra line, 0 when none. */
  readonly firstExtraLine: number;
}

/**
 * Reads up to `frameCount` data lines of `channelCount` values from `text[start…]` (whose
 * line number is `line`). Faults go to `issues` with the line and frame; the caller throws.
 */
export function parseMotion(
  text: string, start: number, line: number, frameCount: number, channelCount: number, issues: IssueList,
): MotionData {
  const n = text.length;
  const fit = Math.floor((n - start + 1) / (2 * channelCount));
  const capacity = Math.min(frameCount, fit);
  const values = new Float64Array(capacity * channelCount);
  let p = start;
  let frame = 0;
  let extraLines = 0;
  let firstExtraLine = 0;

  while (p < n && !issues.full) {
    const lineNo = line;
    const base = frame * channelCount;
    const store = frame < capacity;
    const parse = frame < frameCount;
    let count = 0;
    let bad = false;
    let c = 0;
    while (p < n) {
      c = text.charCodeAt(p);
      if (c === LF || c === CR) break;
      if (c === 32 || c === 9 || (c < 32 ? c === 11 || c === 12 : c > 127 && (c === 0xa0 || c === 0xfeff))) {
        p++;
        continue;
      }
      const s = p;
      do p++;
      while (p < n && !isSeparator((c = text.charCodeAt(p))));
      if (parse) {
        const v = parseDecimal(text, s, p);
        if (Number.isFinite(v)) {
          if (store && count < channelCount) values[base + count] = v;
        } else if (!bad) {
          bad = true;
          issues.add(`line ${lineNo} (frame ${frame}) value ${count + 1} ${quote(text.slice(s, Math.min(p, s + 32)))}`, 'is not a finite number');
        }
      }
      count++;
    }
    if (p < n) {
      // The line break: CRLF, LF or a lone CR.
      p += c === CR && text.charCodeAt(p + 1) === LF ? 2 : 1;
      line++;
    }
    if (count === 0) continue;
    if (parse) {
      if (count !== channelCount) {
        issues.add(`line ${lineNo} (frame ${frame})`, `has ${count} values, expected ${channelCount} (one per channel declared in HIERARCHY)`);
      }
      frame++;
    } else {
      if (extraLines === 0) firstExtraLine = lineNo;
      extraLines++;
    }
  }
  return { values, framesRead: frame, extraLines, firstExtraLine };
}
