/**
 * A small JavaScript/TypeScript tokenizer for the house rules: it splits a source file into
 * comments, string literals (quoted strings and the literal parts of template strings), regular
 * expression literals and the code between them, so a rule can look at what a program uses at
 * run time (its strings) apart from what it only mentions (its comments).
 *
 * It is not a parser: a `/` starts a regular expression when the code before it cannot end an
 * operand (an operator, an opening bracket, a comma, a keyword such as `return`, or nothing),
 * else it divides. That is the usual heuristic and holds for the code of this repository.
 */

/** One piece of a source file. `line` is the 1-based line where it starts. */
export interface Token {
  readonly kind: 'comment' | 'string' | 'regex';
  readonly text: string;
  readonly line: number;
}

const KEYWORDS_BEFORE_EXPRESSION = new Set(['return', 'typeof', 'case', 'do', 'else', 'in', 'of', 'new', 'delete', 'void', 'throw', 'yield', 'await', 'instanceof']);

/** The comments, strings and regular expression literals of `source`, in order. */
export function codeTokens(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  /** The last significant code character or word before `i`, to tell a regex from a division. */
  let before = '';

  const advance = (to: number): void => {
    for (let k = i; k < to; k++) if (source.charCodeAt(k) === 10) line++;
    i = to;
  };
  const push = (kind: Token['kind'], start: number, end: number, startLine: number): void => {
    tokens.push({ kind, text: source.slice(start, end), line: startLine });
  };

  /** Scans code from `i` until the end, or until the `}` that closes a template substitution. */
  const scanCode = (inSubstitution: boolean): void => {
    let depth = 0;
    while (i < source.length) {
      const c = source[i];
      const next = source[i + 1];
      if (c === '/' && next === '/') {
        const end = source.indexOf('\n', i);
        const stop = end < 0 ? source.length : end;
        push('comment', i, stop, line);
        advance(stop);
      } else if (c === '/' && next === '*') {
        const end = source.indexOf('*/', i + 2);
        const stop = end < 0 ? source.length : end + 2;
        const startLine = line;
        push('comment', i, stop, startLine);
        advance(stop);
      } else if (c === '\'' || c === '"') {
        let k = i + 1;
        while (k < source.length && source[k] !== c && source[k] !== '\n') k += source[k] === '\\' ? 2 : 1;
        push('string', i + 1, Math.min(k, source.length), line);
        advance(Math.min(k + 1, source.length));
        before = 'a';
      } else if (c === '`') {
        scanTemplate();
        before = 'a';
      } else if (c === '/' && startsExpression(before)) {
        let k = i + 1;
        let inClass = false;
        while (k < source.length && source[k] !== '\n' && (inClass || source[k] !== '/')) {
          if (source[k] === '\\') k++;
          else if (source[k] === '[') inClass = true;
          else if (source[k] === ']') inClass = false;
          k++;
        }
        k++;
        while (k < source.length && /[a-z]/.test(source[k] as string)) k++;
        push('regex', i, k, line);
        advance(k);
        before = 'a';
      } else if (/[A-Za-z_$0-9]/.test(c as string)) {
        let k = i + 1;
        while (k < source.length && /[A-Za-z_$0-9]/.test(source[k] as string)) k++;
        before = source.slice(i, k);
        advance(k);
      } else {
        if (c === '{') depth++;
        if (c === '}') {
          if (inSubstitution && depth === 0) {
            advance(i + 1);
            return;
          }
          depth--;
        }
        if (!/\s/.test(c as string)) before = c as string;
        advance(i + 1);
      }
    }
  };

  /** Scans a template string from its opening backtick; its literal parts become string tokens. */
  const scanTemplate = (): void => {
    advance(i + 1);
    let start = i;
    let startLine = line;
    while (i < source.length) {
      const c = source[i];
      if (c === '\\') {
        advance(i + 2);
      } else if (c === '`') {
        push('string', start, i, startLine);
        advance(i + 1);
        return;
      } else if (c === '$' && source[i + 1] === '{') {
        push('string', start, i, startLine);
        advance(i + 2);
        before = '(';
        scanCode(true);
        start = i;
        startLine = line;
      } else {
        advance(i + 1);
      }
    }
    push('string', start, i, startLine);
  };

  scanCode(false);
  return tokens;
}

/** Whether a `/` after `before` (the last code character or word) starts a regular expression. */
function startsExpression(before: string): boolean {
  if (before === '') return true;
  if (/^[A-Za-z_$0-9]/.test(before)) return KEYWORDS_BEFORE_EXPRESSION.has(before);
  return before !== ')' && before !== ']' && before !== '}';
}
