/**
 * Typed readers over untrusted glTF JSON for the validator (validate.ts): each records a fault
 * in an `IssueList` (naming the JSON path) instead of throwing, and returns a safe value.
 */
import type { IssueList } from '../../assets/AnimationError.js';

/** A JSON object. */
export type Json = Record<string, unknown>;

/** A JSON value for a message: numbers as JS prints them (1e400 parses to Infinity), others as JSON, cut short. */
export const show = (v: unknown): string => (typeof v === 'number' ? String(v) : (JSON.stringify(v) ?? String(v)).slice(0, 60));

/** Whether `v` is a JSON object (not null, not an array). */
export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Small typed readers over untrusted JSON that record a fault instead of throwing. */
export class Checker {
  constructor(readonly issues: IssueList) {}

  /** Whether `v` is an object; a fault at `path` when not. */
  object(v: unknown, path: string): v is Json {
    if (isObject(v)) return true;
    this.issues.add(path, 'must be an object');
    return false;
  }

  /** `owner[key]` as an array; `[]` when absent or (with a fault) not an array. */
  array(owner: Json, key: string, path: string): unknown[] {
    const v = owner[key];
    if (v === undefined) return [];
    if (Array.isArray(v)) return v;
    this.issues.add(path, 'must be an array');
    return [];
  }

  /** `owner[key]` as an integer in [min, max]; undefined when absent or faulty. */
  int(owner: Json, key: string, path: string, min: number, max: number, required: boolean): number | undefined {
    const v = owner[key];
    if (v === undefined) {
      if (required) this.issues.add(`${path}.${key}`, 'is missing');
      return undefined;
    }
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      this.issues.add(`${path}.${key}`, `is ${show(v)}: must be an integer in [${min}, ${max}]`);
      return undefined;
    }
    return v;
  }

  /** `owner[key]` as an index below `length` into the named array; undefined when absent or faulty. */
  index(owner: Json, key: string, path: string, length: number, what: string): number | undefined {
    const v = owner[key];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v >= length) {
      const why = typeof v === 'number' && Number.isInteger(v) ? 'out of range of' : 'not an index into';
      this.issues.add(`${path}.${key}`, `is ${show(v)}: ${why} the ${length} ${what}`);
      return undefined;
    }
    return v;
  }

  /** `owner[key]` as exactly `n` finite numbers (any number of them when `n` is omitted); undefined when absent or faulty. */
  numbers(owner: Json, key: string, path: string, n?: number): number[] | undefined {
    const v = owner[key];
    if (v === undefined) return undefined;
    if (!Array.isArray(v) || (n !== undefined && v.length !== n)) {
      this.issues.add(`${path}.${key}`, n === undefined ? 'must be an array of numbers' : `must be an array of ${n} numbers`);
      return undefined;
    }
    let ok = true;
    v.forEach((x, k) => {
      if (typeof x !== 'number' || !Number.isFinite(x)) {
        this.issues.add(`${path}.${key}[${k}]`, `is ${show(x)}: not a finite number`);
        ok = false;
      }
    });
    return ok ? (v as number[]) : undefined;
  }
}
