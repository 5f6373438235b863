/**
 * Every argument type (fast-check): each checked function of every entry (`bitanim`,
 * `bitanim/kernels`, `bitanim/lod`; unchecked.ts lists the per-frame systems and kernels left
 * out by design) gets ≥ 100 generated argument lists mixing valid values (a world, its
 * character, a skeleton, a clip, a blend space, a mask) with every JavaScript type of value a
 * caller can pass: BigInt, Symbol, objects whose getters throw, proxies whose traps throw,
 * revoked proxies, transparent proxies of valid values, frozen objects and arrays, null,
 * undefined, NaN, ±Infinity, huge and tiny numbers, strings, functions, arrays where objects are
 * expected, and descriptors whose fields are any of those. A call may return (a documented
 * result) or throw; what it throws is an `AnimationError`, never a TypeError or RangeError,
 * and a refused call leaves the world as it was (SHA-256 of its pool buffer, its registries'
 * slots, its clock and event queue).
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as bitanim from './allEntries.js';
import { WORLD_OPEN } from '../../src/worldGate.js';
import { UNCHECKED } from './unchecked.js';

/** What a throwing getter or trap throws: the caller's own error. */
class CallerFault extends Error {}

const FIELDS = [
  'maxEntities', 'maxJoints', 'names', 'parents', 'rest', 'skeleton', 'frameRate', 'frames', 'loop', 'events', 'name', 'layer', 'weight',
  'speed', 'time', 'duration', 'mode', 'levels', 'distances', 'type', 'samples', 'clip', 'x', 'y', 'z', 'yaw', 'joint', 'tolerance',
  'kernels', 'translation', 'joints', 'reference', 'feet', 'legs', 'states', 'transitions', 'initial', 'parameters', 'curves', 'mask',
  'additive', 'blend', 'upper', 'lower', 'end', 'length', 'jointCount', 'components', 'ecs', 'assets',
];

function throwingGetters(): object {
  const o = {};
  for (const key of FIELDS) Object.defineProperty(o, key, { enumerable: true, get: () => { throw new CallerFault(`getter ${key}`); } });
  return o;
}

function trapAll(target: object): object {
  const thrower = (): never => { throw new CallerFault('trap'); };
  return new Proxy(target, {
    get: thrower, has: thrower, ownKeys: thrower, getOwnPropertyDescriptor: thrower, getPrototypeOf: thrower, set: thrower,
    defineProperty: thrower, deleteProperty: thrower, apply: thrower, construct: thrower,
  });
}

function revoked(target: object): object {
  const r = Proxy.revocable(target, {});
  r.revoke();
  return r.proxy;
}

/**
 * A value made when the call runs: fast-check inspects what it generates (a revoked proxy or a
 * throwing trap would fault there), so those are generated as a recipe and made per call.
 */
class Make {
  constructor(readonly make: () => unknown) {}
}

/** The argument a generated value stands for: recipes made, a descriptor's recipe fields made. */
function materialize(v: unknown): unknown {
  if (v instanceof Make) return v.make();
  if (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).some((f) => f instanceof Make)) {
    const out: Record<string, unknown> = {};
    for (const [key, f] of Object.entries(v)) out[key] = f instanceof Make ? f.make() : f;
    return out;
  }
  return v;
}

const NUMBERS = [NaN, Infinity, -Infinity, 1e308, -1e308, 2 ** 53 + 2, -0, -1, 0.5, 5e-324, 1e39, -(2 ** 31), 2 ** 32];

/** Scalars of every type, and hostile objects (as recipes). */
function leafAndWrapped(): { leaf: fc.Arbitrary<unknown>; wrapped: fc.Arbitrary<unknown> } {
  const leaf = fc.oneof(
    fc.bigInt(),
    fc.string({ maxLength: 3 }).map((d) => Symbol(d)),
    fc.constant(Symbol.iterator),
    fc.constantFrom(...NUMBERS),
    fc.double(),
    fc.constantFrom(undefined, null, true, false, '', 'x', 'hips', '\u0000', 'x'.repeat(10_000)),
    fc.constant(() => 0),
  );
  const wrapped = fc.oneof(
    fc.constant(new Make(() => throwingGetters())),
    fc.constantFrom(new Make(() => trapAll({})), new Make(() => trapAll([])), new Make(() => trapAll([1, 2, 3])), new Make(() => trapAll(() => 0))),
    fc.constantFrom(new Make(() => revoked({})), new Make(() => revoked([])), new Make(() => revoked(() => 0))),
  );
  return { leaf, wrapped };
}

/** Values of every type that is not what any API expects, or is it in a hostile wrapper. */
function hostile(): fc.Arbitrary<unknown> {
  const { leaf, wrapped } = leafAndWrapped();
  const shaped = fc.oneof(
    fc.array(leaf, { maxLength: 4 }),
    fc.array(leaf, { maxLength: 4 }).map((a) => Object.freeze(a)),
    fc.dictionary(fc.constantFrom(...FIELDS), fc.oneof(leaf, wrapped), { maxKeys: 4 }),
    fc.dictionary(fc.constantFrom(...FIELDS), leaf, { maxKeys: 4 }).map((o) => Object.freeze(o)),
    fc.constant(new Make(() => Object.freeze(Object.create(null) as object))),
  );
  return fc.oneof(leaf, wrapped, shaped);
}

/** The world's state a refused call must not change. */
function worldHash(world: bitanim.AnimationWorld): string {
  const hash = createHash('sha256');
  const buffer = world.poolBuffer as ArrayBuffer;
  hash.update(new Uint8Array(buffer));
  const assets = world.assets as unknown as Record<string, unknown>;
  for (const key of Object.keys(assets).sort()) {
    const value = assets[key];
    if (Array.isArray(value)) hash.update(`${key}:${value.length}:${value.map((v) => (v === undefined || v === null ? '-' : '+')).join('')};`);
    else if (value instanceof Map) hash.update(`${key}:${value.size};`);
  }
  hash.update(`${world.time};${world.events.pushed};${world.gate};${world.characters.dense.length}`);
  return hash.digest('hex');
}

function show(v: unknown): string {
  try {
    if (typeof v === 'symbol' || typeof v === 'bigint') return `${typeof v} ${String(v)}`;
    if (typeof v === 'function') return 'function';
    if (typeof v === 'object' && v !== null) {
      const fields = Object.keys(v).slice(0, 8).map((k) => `${k}: ${typeof (v as Record<string, unknown>)[k]}`).join(', ');
      return `${Object.isFrozen(v) ? 'frozen ' : ''}${Array.isArray(v) ? 'array' : 'object'} { ${fields} }`;
    }
    return typeof v === 'string' ? JSON.stringify(v.slice(0, 20)) : String(v);
  } catch {
    return 'a proxy';
  }
}

/** The parameter names of `fn`, from its source text (`(world, eid, clip, options = {})` → world, eid, clip, options). */
function parameterNames(fn: (...args: unknown[]) => unknown): string[] {
  const match = /^(?:async\s+)?(?:function\s*[\w$]*\s*)?\(([^)]*)\)/.exec(Function.prototype.toString.call(fn));
  return (match?.[1] ?? '').split(',').map((p) => p.trim().split(/[\s=:]/)[0]!).filter((p) => p !== '');
}

interface Pool {
  world: bitanim.AnimationWorld;
  eid: number;
  skeleton: bitanim.Skeleton;
  clip: bitanim.Clip;
  space: unknown;
  mask: unknown;
  descriptors: Record<string, unknown>[];
}

/** A valid value for a parameter of this name (`pick` chooses among several). */
function plausible(param: string, pick: number, pool: Pool): unknown {
  const of = (...values: unknown[]): unknown => values[pick % values.length];
  switch (param) {
    case 'world': return pool.world;
    case 'eid': return pool.eid;
    case 'clip': return pool.clip;
    case 'skeleton': return pool.skeleton;
    case 'source': case 'target': case 'reference': case 'skeletonOrClip': return of(pool.clip, pool.skeleton);
    case 'space': return pool.space;
    case 'mask': return pool.mask;
    case 'name': return of('hips', 'speed', 'left');
    case 'dt': return 1 / 60;
    case 'layer': case 'slot': return 0;
    case 'joint': return 1;
    case 'out': return new Float32Array(12);
    case 'levels': return [pool.clip];
    case 'tolerances': return [0.01, 0.05];
    case 'weights': return { hips: 1 };
    case 'visit': return () => {};
    case 'bytes': return new Uint8Array([0x67, 0x6c, 0x54, 0x46, 2, 0, 0, 0, 12, 0, 0, 0]);
    case 'text': return 'HIERARCHY\nROOT hips\n{\nOFFSET 0 0 0\nCHANNELS 3 Xposition Yposition Zposition\n}\nMOTION\nFrames: 1\nFrame Time: 0.033\n0 0 0\n';
    case 'transform': return { x: 1 };
    case 'options': case 'desc': case 'assets': case 'at': return of(undefined, ...pool.descriptors);
    default: return of(0.5, 1, 0, undefined);
  }
}

/** Whether `error` is what the caller's own objects threw: a `CallerFault` of its getters and traps, or a revoked proxy's TypeError. */
function callerOwn(error: unknown, args: unknown[]): boolean {
  void args;
  return error instanceof CallerFault || (error instanceof TypeError && /on a proxy that has been revoked/.test(error.message));
}

describe('every argument type, every checked function of every entry: only AnimationError, the world unchanged', () => {
  const skeleton = bitanim.createSkeleton({
    names: ['hips', 'leg'],
    parents: [-1, 0],
    rest: [0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1],
  });
  const frames = [0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, -0.5, 0, 0, 0, 0, 1, 1, 1, 1];
  const clip = bitanim.createClip({ skeleton, frameRate: 30, frames, events: [{ time: 0, name: 'left' }] });
  const space = bitanim.createBlendSpace({ type: '1d', samples: [{ clip, x: 0 }, { clip, x: 1 }] });
  const mask = bitanim.createMask(skeleton, { hips: 1 });
  const functions = Object.entries(bitanim)
    .filter(([name, v]) => typeof v === 'function' && !/^[A-Z]/.test((v as { name: string }).name) && !UNCHECKED.has(name)) as [string, (...args: unknown[]) => unknown][];

  it('covers the entries (more than 60 checked functions)', () => {
    expect(functions.length).toBeGreaterThan(60);
  });

  for (const [name, fn] of functions) {
    it(name, async () => {
      const world = bitanim.createAnimationWorld({ maxEntities: 4, maxJoints: 4 });
      const eid = bitanim.spawnCharacter(world, skeleton);
      const valid = fc.constantFrom<unknown>(world, eid, skeleton, clip, space, mask, 0, 1, 0.5, 'hips', { duration: 0.2 });
      const proxied = fc.constantFrom(new Make(() => new Proxy(world, {})), new Make(() => new Proxy(skeleton, {})), new Make(() => new Proxy(clip, {})));
      // Valid descriptors and options with one field replaced by a hostile value (as given, frozen, or
      // nested one level down): what reaches the checks past the first field.
      const descriptors: Record<string, unknown>[] = [
        { names: ['hips', 'leg'], parents: [-1, 0], rest: frames.slice(0, 20) },
        { skeleton, frameRate: 30, frames, loop: true, events: [{ time: 0, name: 'left' }], name: 'walk' },
        { maxEntities: 4, maxJoints: 4, maxEvents: 16, maxLayers: 2 },
        { layer: 1, weight: 0.5, speed: 1, time: 0, loop: true, mask, additive: false },
        { duration: 0.2, mode: 'inertialize' },
        { levels: 2, distances: [10] },
        { type: '1d', samples: [{ clip, x: 0 }, { clip, x: 1 }] },
        { joint: 1, weight: 1 },
        { upper: 0, lower: 1, end: 1 },
        { x: 1, y: 2, z: 3, yaw: 0.5 },
        { tolerance: 0.01 },
        { parameters: [{ name: 'speed', type: 'float' }], states: [{ name: 'walk', clip }], transitions: [], initial: 'walk' },
        { feet: ['leg'] },
      ];
      const { leaf, wrapped } = leafAndWrapped();
      const mutated = fc.tuple(fc.nat({ max: descriptors.length - 1 }), fc.nat(), fc.oneof(leaf, wrapped), fc.constantFrom('as is', 'frozen', 'nested')).map(([d, k, value, how]) => {
        const desc = descriptors[d]!;
        const keys = Object.keys(desc);
        const key = keys[k % keys.length]!;
        return new Make(() => {
          const v = value instanceof Make ? value.make() : value;
          const field = how === 'nested' && Array.isArray(desc[key]) ? [v] : v;
          const out = { ...desc, [key]: field };
          return how === 'frozen' ? Object.freeze(out) : out;
        });
      });
      const argument = fc.oneof({ weight: 2, arbitrary: hostile() }, { weight: 2, arbitrary: valid }, { weight: 1, arbitrary: proxied }, { weight: 2, arbitrary: mutated });
      const faults: string[] = [];
      /** Calls `fn` with `args` on `target` and records what breaks the rules. */
      const check = async (target: bitanim.AnimationWorld, args: unknown[]): Promise<void> => {
        const before = worldHash(target);
        let error: unknown = null;
        try {
          const value = fn(...args);
          if (value instanceof Promise) await value;
        } catch (e) {
          error = e;
        }
        if (error === null) return;
        if (callerOwn(error, args)) {
          // The caller's own getter or trap threw (or its revoked proxy refused access): that
          // error reaches the caller as it is, and the world must be as it was.
          if (worldHash(target) !== before) faults.push(`${name}(${args.map(show).join(', ')}): the caller's getter threw, and the world changed`);
          return;
        }
        if (!(error instanceof bitanim.AnimationError)) {
          faults.push(`${name}(${args.map(show).join(', ')}): ${error instanceof Error ? `${error.name}: ${error.message}` : show(error)}`);
          return;
        }
        expect(typeof error.message).toBe('string'); // describing the error must not throw either
        if (worldHash(target) !== before) faults.push(`${name}(${args.map(show).join(', ')}): refused, but the world changed`);
      };
      // 1. Any values in any positions.
      await fc.assert(
        fc.asyncProperty(fc.array(argument, { maxLength: 4 }), async (generated) => check(world, generated.map(materialize))),
        { numRuns: 120, seed: 35, endOnFailure: true },
      );
      // 2. The function's own signature (from its parameter names) with valid values, one or two
      // of them replaced by a hostile value or a mutated descriptor: the checks past the first
      // argument. A fresh world per case, so what a valid call did (removeCharacter, dispose) does not
      // shorten the next case.
      const params = parameterNames(fn);
      const replacement = fc.oneof(hostile(), mutated);
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.nat({ max: params.length }), replacement), { minLength: 1, maxLength: 2 }),
          fc.array(fc.nat(), { minLength: params.length, maxLength: params.length }),
          async (replaced, picks) => {
            const target = bitanim.createAnimationWorld({ maxEntities: 4, maxJoints: 4, kernels: 'js' });
            const character = bitanim.spawnCharacter(target, skeleton);
            const args = params.map((param, i) => plausible(param, picks[i]!, { world: target, eid: character, skeleton, clip, space, mask, descriptors }));
            for (const [at, value] of replaced) args[at] = materialize(value);
            await check(target, args);
            if (target.gate === WORLD_OPEN) bitanim.disposeAnimationWorld(target);
          },
        ),
        { numRuns: 120, seed: 36, endOnFailure: true },
      );
      if (world.gate === WORLD_OPEN) bitanim.disposeAnimationWorld(world);
      // One fault of each kind (the message without the arguments) is enough to read.
      const kinds = new Map<string, string>();
      for (const fault of faults) kinds.set(fault.replace(/^[^(]*\(.*?\): /, ''), fault);
      expect([...kinds.values()]).toEqual([]);
    });
  }
});
