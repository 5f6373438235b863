/**
 * The WebAssembly kernels and their TypeScript types kept in step: every function the
 * AssemblyScript sources export (assembly/kernels.ts and the files it re-exports) is bound in
 * `instantiateKernels` (src/wasm/kernels.ts) under its own name, through a type alias whose
 * parameters are the AssemblyScript function's, in its order, by name — so a parameter
 * reordered or added on one side fails here — and whose result is `void` exactly when the
 * kernel's is. The compiled module's exports are the same set, each of the declared arity.
 * The constants that describe shared records (the foot-lock params block, pose and record
 * strides) are checked against the TypeScript layout they mirror.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as layout from '../../src/math/layout.js';
import { createAnimationWorld } from '../../src/index.js';
import * as footParts from '../../src/systems/footLockParts.js';
import * as inertialization from '../../src/components/Inertialization.js';
import { CAPTURE_PARAMS } from '../../src/wasm/offsetsWasm.js';

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

interface Signature {
  readonly params: readonly { readonly name: string; readonly type: string }[];
  readonly result: string;
}

/** Splits `a: T, b: U` (no nested parentheses in these signatures) into names and types. */
function parameters(list: string): Signature['params'] {
  return list.split(',').map((p) => p.trim()).filter((p) => p !== '').map((p) => {
    const [name, type] = p.split(':').map((s) => s.trim());
    return { name: name!, type: type ?? '' };
  });
}

/** `export function name(params): result` of an AssemblyScript file, by name. */
function assemblyExports(source: string): Map<string, Signature> {
  const out = new Map<string, Signature>();
  for (const m of source.matchAll(/^export function (\w+)\(([^)]*)\)\s*:\s*(\w+)/gm)) out.set(m[1]!, { params: parameters(m[2]!), result: m[3]! });
  return out;
}

/** Every kernel of the module: assembly/kernels.ts's own and those its `export { … } from './x'` lines take from other files. */
function allAssemblyExports(): Map<string, Signature & { readonly file: string }> {
  const main = read('assembly/kernels.ts');
  const out = new Map<string, Signature & { readonly file: string }>();
  for (const [name, sig] of assemblyExports(main)) out.set(name, { ...sig, file: 'assembly/kernels.ts' });
  for (const m of main.matchAll(/^export \{([^}]+)\} from '\.\/(\w+)';/gm)) {
    const file = `assembly/${m[2]!}.ts`;
    const own = assemblyExports(read(file));
    for (const name of m[1]!.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
      const sig = own.get(name);
      if (sig === undefined) throw new Error(`${file} does not export function ${name}`);
      out.set(name, { ...sig, file });
    }
  }
  return out;
}

const kernelsSource = read('src/wasm/kernels.ts');

/** The kernel type aliases of src/wasm/kernels.ts: `export type XKernel = (params) => result;`. */
function kernelAliases(): Map<string, Signature> {
  const out = new Map<string, Signature>();
  for (const m of kernelsSource.matchAll(/^export type (\w+Kernel) = \(([^)]*)\)\s*=>\s*(\w+);/gm)) out.set(m[1]!, { params: parameters(m[2]!), result: m[3]! });
  return out;
}

/** `instantiateKernels`' bindings: property, export name, alias. */
function bindings(): { readonly property: string; readonly name: string; readonly alias: string }[] {
  return [...kernelsSource.matchAll(/^\s*(\w+): exports\['(\w+)'\] as (\w+),/gm)].map((m) => ({ property: m[1]!, name: m[2]!, alias: m[3]! }));
}

/** AssemblyScript exports no JavaScript code calls: each with the reason it is exported. */
const NOT_BOUND: Record<string, string> = {
  sampleCompressed: 'sampleClip calls it for a compressed clip\'s record; exported for a direct look in a debugger',
};

const AS_NUMBER = new Set(['usize', 'isize', 'i32', 'u32', 'f64', 'f32', 'i16', 'u16', 'u8', 'i8']);

describe('the wasm exports and their TypeScript types', () => {
  const assembly = allAssemblyExports();
  const aliases = kernelAliases();
  const bound = bindings();

  it('finds the declarations it checks (the parsers match the sources)', () => {
    expect(assembly.size).toBeGreaterThanOrEqual(12);
    expect(aliases.size).toBeGreaterThanOrEqual(11);
    expect(bound.length).toBeGreaterThanOrEqual(11);
    expect(assembly.get('skin')?.params.map((p) => p.name)).toEqual(['local', 'model', 'palette', 'parents', 'bind', 'count']);
  });

  it('binds every AssemblyScript export under its own name, and only those', () => {
    const names = bound.map((b) => b.name);
    for (const b of bound) expect(b.property, `instantiateKernels binds exports['${b.name}'] as ${b.property}`).toBe(b.name);
    expect(new Set(names).size).toBe(names.length);
    const expected = [...assembly.keys()].filter((name) => !(name in NOT_BOUND)).sort();
    expect([...names].sort()).toEqual(expected);
    for (const name of Object.keys(NOT_BOUND)) expect(assembly.has(name), `${name} is still exported`).toBe(true);
  });

  it('types each binding with the kernel\'s parameters in its order and its result', () => {
    for (const b of bound) {
      const alias = aliases.get(b.alias);
      const kernel = assembly.get(b.name)!;
      expect(alias, `type ${b.alias} is declared as (…) => …`).toBeDefined();
      const where = `${b.alias} against ${kernel.file} \`${b.name}\``;
      expect(alias!.params.map((p) => p.name), where).toEqual(kernel.params.map((p) => p.name));
      for (const p of alias!.params) expect(p.type, `${where}: ${p.name}`).toBe('number');
      for (const p of kernel.params) expect(AS_NUMBER.has(p.type) || p.type === 'bool', `${where}: ${p.name}: ${p.type}`).toBe(true);
      expect(alias!.result, where).toBe(kernel.result === 'void' ? 'void' : 'number');
    }
  });

  it('names its AssemblyScript function in each alias\'s documentation', () => {
    for (const b of bound) {
      const at = kernelsSource.indexOf(`export type ${b.alias} =`);
      const doc = kernelsSource.slice(kernelsSource.lastIndexOf('/**', at), at);
      expect(doc, b.alias).toContain(`${assembly.get(b.name)!.file} \`${b.name}\``);
    }
  });

  it('compiles to a module with those exports, each of its declared arity', () => {
    const world = createAnimationWorld({ maxEntities: 1, maxJoints: 2, kernels: 'wasm' });
    const wasm = world.wasm!;
    const moduleApi = (globalThis as unknown as { WebAssembly: { Module: { exports(m: object): { name: string; kind: string }[] } } }).WebAssembly.Module;
    const exported = moduleApi.exports(wasm.module).filter((e) => e.kind === 'function').map((e) => e.name);
    expect([...exported].sort()).toEqual([...assembly.keys()].sort());
    for (const b of bound) {
      const fn = (wasm as unknown as Record<string, (...args: number[]) => unknown>)[b.property]!;
      expect(fn.length, b.name).toBe(assembly.get(b.name)!.params.length);
    }
  });
});

describe('the records the kernels share with TypeScript', () => {
  /** An AssemblyScript `const NAME: type = value;` of `file`. */
  const constant = (file: string, name: string): number => {
    const m = new RegExp(`const ${name}: \\w+ = (\\d+);`).exec(read(file));
    if (m === null) throw new Error(`${file} has no const ${name}`);
    return Number(m[1]);
  };

  it('lays a joint pose and a foot-lock model record out as src/math/layout.ts and footLockParts.ts do', () => {
    expect(constant('assembly/footLock.ts', 'POSE')).toBe(layout.POSE_STRIDE * 4);
    expect(constant('assembly/footLock.ts', 'POSE_Q')).toBe(layout.POSE_Q * 4);
    expect(constant('assembly/footLock.ts', 'POSE_S')).toBe(layout.POSE_S * 4);
    expect(constant('assembly/footLock.ts', 'RECORD')).toBe(footParts.FOOT_JOINT_STRIDE * 8);
    expect(constant('assembly/footLock.ts', 'REC_T')).toBe(layout.MATRIX_T * 8);
    expect(constant('assembly/kernels.ts', 'POSE_BYTES')).toBe(layout.POSE_STRIDE * 4);
  });

  it('reads a capture\'s offsets, parameters block and modes as Inertialization.ts and offsetsWasm.ts lay them out', () => {
    const file = 'assembly/capture.ts';
    expect(constant(file, 'OFFSETS')).toBe(inertialization.OFFSET_STRIDE * 4);
    for (const [name, at] of [['OFF_T', inertialization.OFFSET_T], ['OFF_Q', inertialization.OFFSET_Q], ['OFF_S', inertialization.OFFSET_S]] as const) expect(constant(file, name), name).toBe(at * 4);
    for (const [name, at] of [['X0', inertialization.OFFSET_X0], ['K', inertialization.OFFSET_K], ['INV_T1', inertialization.OFFSET_INV_T1], ['VELOCITY', inertialization.OFFSET_V]] as const) expect(constant(file, name), name).toBe(at * 4);
    for (const [name, key] of [['INTERVAL', 'interval'], ['PREV_DT', 'prevDt'], ['DURATION', 'duration'], ['CLOCK', 'clock']] as const) expect(constant(file, name), name).toBe(CAPTURE_PARAMS[key] * 8);
    expect(constant(file, 'QUINTIC')).toBe(inertialization.INERTIA_QUINTIC);
    expect(constant(file, 'SPRING')).toBe(inertialization.INERTIA_SPRING);
  });

  it('reads the foot-lock params block at footLockParts.ts\'s offsets', () => {
    for (const name of ['P_IK', 'P_DELTA', 'P_SHARE', 'P_SECONDS', 'P_STAGE', 'P_PAIR'] as const) {
      expect(constant('assembly/footLock.ts', name), name).toBe((footParts as Record<string, unknown>)[name] as number * 8);
    }
  });

  it('reads the foot-lock pointer block in the order writeFootLockBlock writes it', () => {
    const slots = [...read('assembly/footLock.ts').matchAll(/^const (B_\w+): usize = (\d+);/gm)].map((m) => ({ name: m[1]!, at: Number(m[2]) }));
    expect(slots.length).toBe(footParts.FOOT_BLOCK_SLOTS);
    slots.forEach((s, n) => expect(s.at, s.name).toBe(4 * n));
    const writes = read('src/wasm/footLockWasm.ts').match(/b\[n\+\+\] = /g) ?? [];
    expect(writes.length).toBe(footParts.FOOT_BLOCK_SLOTS);
  });
});
