/**
 * Property test: random mutations of the real asset files never make an importer throw
 * anything but an AnimationError, and never hang. Every outcome is either a result whose
 * numbers are finite and whose skeletons and clips hold together, or an AnimationError.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnimationError, loadGltf, parseBvh, type Clip, type Skeleton } from '../../src/index.js';
import { assetPath } from '../support/assets.js';

const asset = (name: string) => readFileSync(assetPath(name));
const fox = new Uint8Array(asset('Fox.glb'));
const robot = new Uint8Array(asset('RobotExpressive.glb'));
const walk = asset('cmu_131_01_start_walk_stop.bvh').toString('utf8');
const jumps = asset('cmu_01_01_forward_jumps.bvh').toString('utf8');

/** Throws unless `error` is an AnimationError (so fast-check reports the input). */
function expectAnimationError(error: unknown): void {
  if (!(error instanceof AnimationError)) {
    throw new Error(`not an AnimationError: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  }
}

function expectSound(skeletons: readonly Skeleton[], clips: readonly Clip[]): void {
  for (const skeleton of skeletons) {
    expect(skeleton.jointCount).toBeGreaterThan(0);
    expect(skeleton.rest.every(Number.isFinite) && skeleton.inverseBind.every(Number.isFinite)).toBe(true);
  }
  for (const clip of clips) {
    expect(clip.frames.length).toBe(clip.frameCount * clip.skeleton.jointCount * 10);
    expect(clip.frames.every(Number.isFinite)).toBe(true);
    expect(clip.frameRate > 0 && Number.isFinite(clip.duration)).toBe(true);
  }
}

type ByteMutation =
  | { kind: 'set'; at: number; values: Uint8Array }
  | { kind: 'truncate'; at: number }
  | { kind: 'delete' | 'duplicate'; at: number; length: number };

/** A byte-level mutation: overwrite, truncate, delete or duplicate a range. */
const byteMutation: fc.Arbitrary<ByteMutation> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), values: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }) }),
);

/**
 * Applies a mutation. Half of the positions are folded into the first 4 KB (the GLB header
 * and JSON chunk, where structure lives), the rest anywhere in the file.
 */
function mutateBytes(bytes: Uint8Array, m: ByteMutation, nearHead: boolean): Uint8Array {
  const at = nearHead ? m.at % Math.min(4096, bytes.length) : m.at % bytes.length;
  switch (m.kind) {
    case 'set': {
      const out = bytes.slice();
      out.set(m.values.subarray(0, out.length - at), at);
      return out;
    }
    case 'truncate':
      return bytes.slice(0, at);
    case 'delete':
      return concat(bytes.subarray(0, at), bytes.subarray(at + m.length));
    case 'duplicate':
      return concat(bytes.subarray(0, at + m.length), bytes.subarray(at));
  }
  return bytes;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

const oddTokens = ['', '{', '}', 'JOINT', 'ROOT', 'End', 'Site', 'OFFSET', 'CHANNELS', 'MOTION', 'Frames:', 'Frame', 'Time:',
  'Xrotation', 'Qrotation', 'NaN', 'Infinity', '1e309', '-', '.', '99999999999', '-0', 'x', '\r', '6', '3'];

interface TokenMutation {
  kind: 'replace' | 'delete' | 'insert' | 'dropLine' | 'repeatLine' | 'cut';
  line: number;
  token: number;
  text: string;
  headerBias: boolean;
}

/** A token-level BVH mutation: replace, delete or insert a token, drop or repeat a line, cut the text. */
const tokenMutation: fc.Arbitrary<TokenMutation> = fc.record({
  kind: fc.constantFrom('replace' as const, 'delete' as const, 'insert' as const, 'dropLine' as const, 'repeatLine' as const, 'cut' as const),
  line: fc.nat(),
  token: fc.nat(),
  text: fc.oneof(fc.constantFrom(...oddTokens), fc.double().map(String), fc.integer().map(String)),
  headerBias: fc.boolean(),
});

function mutateBvh(text: string, m: TokenMutation): string {
  const lines = text.split('\n');
  const header = lines.findIndex((l) => l.startsWith('MOTION')) + 3;
  const index = m.headerBias ? m.line % header : m.line % lines.length;
  if (m.kind === 'cut') return text.slice(0, (m.line * 7919) % text.length);
  if (m.kind === 'dropLine') lines.splice(index, 1);
  else if (m.kind === 'repeatLine') lines.splice(index, 0, lines[index]!);
  else {
    const tokens = lines[index]!.split(' ');
    const t = m.token % (tokens.length + (m.kind === 'insert' ? 1 : 0));
    if (m.kind === 'replace') tokens[t] = m.text;
    else if (m.kind === 'delete') tokens.splice(t, 1);
    else tokens.splice(t, 0, m.text);
    lines[index] = tokens.join(' ');
  }
  return lines.join('\n');
}

describe('importers under random mutation of the real files', () => {
  it('glTF: 250 byte mutations of Fox.glb and RobotExpressive.glb give a sound result or an AnimationError', async () => {
    await fc.assert(
      fc.asyncProperty(byteMutation, fc.boolean(), fc.boolean(), async (m, useRobot, nearHead) => {
        const bytes = mutateBytes(useRobot ? robot : fox, m, nearHead);
        try {
          const result = await loadGltf(bytes);
          expectSound(result.skeletons, result.clips);
        } catch (error) {
          expectAnimationError(error);
        }
      }),
      { numRuns: 250, seed: 20261122 },
    );
  }, 240_000);

  it('BVH: 250 token mutations of both CMU files give a sound result or an AnimationError', () => {
    fc.assert(
      fc.property(tokenMutation, fc.boolean(), (m, useJumps) => {
        const text = mutateBvh(useJumps ? jumps : walk, m);
        try {
          const { skeleton, clip } = parseBvh(text);
          expectSound([skeleton], [clip]);
        } catch (error) {
          expectAnimationError(error);
        }
      }),
      { numRuns: 250, seed: 20261122 },
    );
  }, 240_000);
});
