/**
 * Strict decimal parsing for BVH text, without a regex or a substring per number.
 *
 * Grammar: `[+-] digits [. digits] [(e|E) [+-] digits]`, at least one digit before or after
 * the point (`.0083333`, `5.`, `-0.0000`, `1e-3`). Anything else (hex, `Infinity`, `NaN`,
 * `1.2.3`, `1e`, a lone `-`) gives NaN, so a caller tests `Number.isFinite` once.
 *
 * Fast path (Clinger 1990, "How to read floating point numbers accurately"): with at most
 * 15 significant digits the mantissa m is an exact integer (< 2^53) and 10^k is exact for
 * k ≤ 22, so the IEEE division m / 10^k is the correctly rounded value — bit-identical to
 * `Number(text)`. Longer mantissas and exponents fall back to `Number(slice)`, after the
 * grammar check above (so `Number`'s own leniencies never apply).
 */

/** 10^0 … 10^22, every one exactly representable as a double. */
const POW10 = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21,
  1e22,
];

/** Digits a mantissa may have and still be an exact integer in a double (10^15 < 2^53). */
const EXACT_DIGITS = 15;

/**
 * Parses `text[start, end)` as a decimal number; NaN when the range is not one (see the
 * module comment for the grammar). The result may be ±Infinity for exponents out of range
 * (`1e999`); callers test `Number.isFinite`.
 */
export function parseDecimal(text: string, start: number, end: number): number {
  let i = start;
  let c = text.charCodeAt(i);
  let negative = false;
  if (c === 45 /* - */) {
    negative = true;
    i++;
  } else if (c === 43 /* + */) {
    i++;
  }
  let mantissa = 0;
  let digits = 0;
  let fraction = 0;
  let point = false;
  for (; i < end; i++) {
    c = text.charCodeAt(i);
    const d = c - 48;
    if (d >= 0 && d <= 9) {
      mantissa = mantissa * 10 + d;
      digits++;
      if (point) fraction++;
    } else if (c === 46 /* . */ && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (digits === 0) return NaN;
  if (i < end) {
    // Only an exponent may follow: e|E, optional sign, at least one digit, nothing else.
    if (c !== 101 /* e */ && c !== 69 /* E */) return NaN;
    let j = i + 1;
    c = text.charCodeAt(j);
    if (c === 43 || c === 45) j++;
    if (j >= end) return NaN;
    for (; j < end; j++) {
      c = text.charCodeAt(j);
      if (c < 48 || c > 57) return NaN;
    }
    return Number(text.slice(start, end));
  }
  if (digits > EXACT_DIGITS || fraction >= POW10.length) return Number(text.slice(start, end));
  const value = fraction === 0 ? mantissa : mantissa / POW10[fraction];
  return negative ? -value : value;
}
