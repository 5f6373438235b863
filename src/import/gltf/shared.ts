/**
 * What the glTF build steps (`skeletons.ts`, `meshes.ts`, `clips.ts`) share: the import
 * context they read, and small helpers for error paths and warning lines, so every step
 * reports faults and lists names the same way.
 */
import type { Node } from '@gltf-transform/core';
import { AnimationError, type AnimationIssue } from '../../assets/AnimationError.js';
import { WHERE } from './container.js';
import type { ValidatedGltf } from './validate.js';

/** Node names listed in one warning line before "…". */
const LISTED_NAMES = 6;

/** What every build step reads: the checked JSON, the document's nodes, the options. */
export interface Context {
  readonly valid: ValidatedGltf;
  readonly nodes: readonly Node[];
  readonly nodeIndex: ReadonlyMap<Node, number>;
  readonly warnings: string[];
  /** The rate clips are resampled at, or null: each clip's own (see `resample.ts`). */
  readonly frameRate: number | null;
  /** Metres per file unit: every length read is multiplied by it. */
  readonly scale: number;
  /** Largest model-space joint error a clip's rate may leave, metres. */
  readonly tolerance: number;
}

/** Runs `build`; an AnimationError it throws is re-thrown as loadGltf's with `prefix` on each path. */
export function rethrowWithPrefix<T>(prefix: string, build: () => T): T {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof AnimationError)) throw error;
    const issues: AnimationIssue[] = error.issues.map((i) => ({ path: `${error.where} ${prefix}${i.path}`, message: i.message }));
    throw new AnimationError(WHERE, issues);
  }
}

/** Index of the first value that is not finite once stored as float32, or −1. */
export function firstNonFloat32(values: Float32Array | Float64Array): number {
  for (let i = 0; i < values.length; i++) if (!Number.isFinite(Math.fround(values[i]))) return i;
  return -1;
}

/** `names` joined with commas (quoted unless `quote` is false), cut after {@link LISTED_NAMES}. */
export function listNames(names: readonly string[], quote = true): string {
  const shown = names.slice(0, LISTED_NAMES).map((n) => (quote ? `"${n}"` : n));
  return shown.join(', ') + (names.length > LISTED_NAMES ? `, … (${names.length} in all)` : '');
}
