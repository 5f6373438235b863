/**
 * Issue 15, failure 3 of the Why: a world too large to allocate is refused before anything is
 * allocated, with the byte count, instead of a RangeError (1e7 characters) or 28 s and 10 GB
 * before failing (1e8). Under the watchdog, so a regression fails rather than stalls.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AnimationError, createAnimationWorld, worldBytes } from '../../src/index.js';
import { MAX_WORLD_BYTES } from '../../src/kernels.js';
import { guarded } from './watchdog.js';

/** Bytes of every typed array in `value` (an object of them, nested). */
function typedBytes(value: unknown, depth = 0): number {
  if (ArrayBuffer.isView(value)) return value.byteLength;
  if (typeof value !== 'object' || value === null || depth > 4) return 0;
  return Object.values(value).reduce((sum: number, v) => sum + typedBytes(v, depth + 1), 0);
}


/** The largest maxEntities whose world of `maxJoints` fits MAX_WORLD_BYTES, by bisection on worldBytes. */
function mostCharacters(maxJoints: number): number {
  let low = 0, high = 1;
  while (worldBytes({ maxEntities: high, maxJoints }) <= MAX_WORLD_BYTES) high *= 2;
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    if (worldBytes({ maxEntities: mid, maxJoints }) <= MAX_WORLD_BYTES) low = mid; else high = mid;
  }
  return low;
}

describe('failure 3: world size is checked before allocating (watchdog)', () => {
  it('createAnimationWorld({ maxEntities: 1e7 and 1e8, maxJoints: 64 }) are refused at once, with the byte count', async () => {
    // Before: 1e7 threw a RangeError (Invalid typed array length) from inside the allocation;
    // 1e8 allocated for 28 s and 10 GB before failing.
    const result = await guarded(`
      const out = [];
      for (const maxEntities of [1e7, 1e8]) {
        try { bitanim.createAnimationWorld({ maxEntities, maxJoints: 64 }); out.push('accepted'); }
        catch (e) { out.push(e.name + ': ' + e.message); }
      }
      return out;`);
    expect(result.outcome).toBe('returned');
    const [e7, e8] = (result as { value: [string, string] }).value;
    const sentence = (entities: string, bytes: number): string =>
      `AnimationError: createAnimationWorld: maxEntities is ${entities} with maxJoints 64: the pools would take ${bytes.toLocaleString('en-US')} bytes (${Number((bytes / 2 ** 30).toPrecision(3))} GiB), `
      + `more than the limit MAX_WORLD_BYTES of 2,147,483,648 bytes (2 GiB), so nothing was allocated; a world of 64 joints holds at most ${mostCharacters(64)} characters`;
    expect(e7).toBe(sentence('1e7', worldBytes({ maxEntities: 1e7, maxJoints: 64 })));
    expect(e8).toBe(sentence('1e8', worldBytes({ maxEntities: 1e8, maxJoints: 64 })));
  });

  it('worldBytes is what createAnimationWorld allocates, and at least the pose pools derived by hand', () => {
    for (const [maxEntities, maxJoints, maxEvents] of [[1, 1, 1], [3, 7, 10], [50, 64, 4096]] as const) {
      const world = createAnimationWorld({ maxEntities, maxJoints, maxEvents });
      const allocated = typedBytes(world.components) + typedBytes(world.scratch) + typedBytes(world.events) + typedBytes(world.updates);
      // The view tables and the update list's dt (issue 16), 8 bytes a reference.
      const views = (maxEntities + 1) * (1 + 1) * 8;
      expect(world.updates.dt.length).toBe(maxEntities + 1);
      expect(worldBytes({ maxEntities, maxJoints, maxEvents })).toBe(allocated + views);
    }
    // Per character at 64 joints, by hand (DESIGN §3): the local pose (10 floats a joint; no
    // layer poses since issue 18: blendSystem samples layers into per-thread scratch), model and
    // palette matrices (12 each), and in a small world (≤ 128 characters) a transition slot each
    // (20 floats a joint), 4 bytes a float. The scalars add under 2.5 KB (foot locks: 530 bytes).
    const pools = 64 * (10 + 2 * 12 + 20) * 4;
    const perCharacter = worldBytes({ maxEntities: 1, maxJoints: 64 }) - worldBytes({ maxEntities: 0, maxJoints: 64 });
    expect(perCharacter).toBeGreaterThanOrEqual(pools);
    expect(perCharacter - pools).toBeLessThan(2560);
    // A crowd has a slot per 8 characters by default (2.5 floats a joint per character): the
    // limit admits about 2 GiB / 9.3 KB of pools (less the scalars' share, under 2 KB a
    // character: within 20 %) and refuses one more.
    const crowdPools = 64 * (10 + 2 * 12 + 20 / 8) * 4;
    const most = mostCharacters(64);
    expect(most).toBeLessThan(MAX_WORLD_BYTES / crowdPools);
    expect(most).toBeGreaterThan(MAX_WORLD_BYTES / (crowdPools + 2560) * 0.99);
    expect(worldBytes({ maxEntities: most, maxJoints: 64 })).toBeLessThanOrEqual(MAX_WORLD_BYTES);
    expect(worldBytes({ maxEntities: most + 1, maxJoints: 64 })).toBeGreaterThan(MAX_WORLD_BYTES);
    expect(() => createAnimationWorld({ maxEntities: most + 1, maxJoints: 64 })).toThrow(AnimationError);
  });

  it('maxJoints and maxEvents have bounds of their storage', () => {
    expect(() => createAnimationWorld({ maxEntities: 1, maxJoints: 40_000 })).toThrow(
      'createAnimationWorld: maxJoints is 40000: must be an integer ≥ 1 and ≤ 32767 (joint parents are stored as Int16)',
    );
    expect(() => createAnimationWorld({ maxEntities: 1, maxJoints: 1, maxEvents: 2 ** 30 })).toThrow(
      'createAnimationWorld: maxEvents is 1.07374e9: must be an integer ≥ 1 and ≤ 16777216 (MAX_EVENTS)',
    );
  });
});

describe('docs/hardening.md "World size" states worldBytes\' numbers', () => {
  const text = readFileSync(new URL('../../docs/hardening.md', import.meta.url), 'utf8');
  const n = (value: number): string => Math.round(value).toLocaleString('en-US');

  it('the table: bytes per character of a 10,000-character world, fixed bytes, characters in 2 GiB, the 10,000-character world', () => {
    const rows = [...text.matchAll(/^\| (\d+) \| ([\d,]+) \| ([\d,]+) \| ([\d,]+) \| (\d+) MB \|$/gm)].map((m) => m.slice(1, 6).join(' | '));
    const expected = [24, 64, 128, 256].map((joints) => {
      const fixed = worldBytes({ maxEntities: 0, maxJoints: joints });
      const crowd = worldBytes({ maxEntities: 10_000, maxJoints: joints });
      return [joints, n((crowd - fixed) / 10_000), n(fixed), n(mostCharacters(joints)), Math.round(crowd / 1e6)].join(' | ');
    });
    expect(rows).toEqual(expected);
    // The kernel area as a growable area starts: the same bytes at every maxJoints.
    const added = [24, 64, 128, 256].map((joints) => worldBytes({ maxEntities: 0, maxJoints: joints, kernels: 'wasm' }) - worldBytes({ maxEntities: 0, maxJoints: joints }));
    expect(new Set(added).size).toBe(1);
    expect(text.replace(/\n/g, ' ')).toContain(`the kernel area adds ${n(added[0]!)} bytes to the fixed bytes`);
  });

  it('the refusal it quotes is the one createAnimationWorld gives', () => {
    let message = '';
    try {
      createAnimationWorld({ maxEntities: 1e7, maxJoints: 64 });
    } catch (e) {
      message = (e as Error).message;
    }
    const quoted = /```\n(createAnimationWorld: maxEntities is 1e7[^`]*)```/.exec(text)?.[1]?.replace(/\n/g, ' ').trim();
    expect(quoted).toBe(message);
  });
});
