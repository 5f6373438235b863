/**
 * No numeric pose or matrix offsets in src/ (issue 16): where translation, rotation and scale sit
 * inside a joint pose, and where the columns sit inside a 3×4 matrix, is written once, in
 * src/math/layout.ts (`POSE_T`, `POSE_Q`, `POSE_S`, `POSE_STRIDE`, `MATRIX_X` … `MATRIX_T`,
 * `MATRIX_STRIDE`), so a change of layout is a change of one file. Other records name their
 * offsets beside their layout (the inertialization offsets, a follower's state, the IK output,
 * a blend space's triangle frames, …) and follow the same rule.
 *
 * The rule, per line of code (comments, string and regex literals are not read):
 * - in an index, a literal term N ≥ 3 (`pose[o + 3]`, `m[j * MATRIX_STRIDE + 9]`, `pose[7]`,
 *   `out[q + 3 + a]`) is a record offset written as a number — unless it follows a named offset
 *   and is at most 3 (`pose[o + POSE_Q + 3]` is qw: after a name the number is a component of the
 *   small record the name points at, a vector's x y z or a quaternion's x y z w, whose order is
 *   that record's own);
 * - a kernel call's whole argument `o + N`, N ≥ 3 (`quat.normalize(pose, o + 3, …)`), and a
 *   numeric offset after a stride anywhere (`const m = j * MATRIX_STRIDE + 9`), likewise;
 * - `* 10` and `* 12` (or `10 *`, `12 *`) on an index are the pose and matrix strides as numbers.
 * Offsets 1 and 2 pass (`pose[o + 1]` reads like a vector's y, and is one, when the name before
 * it is POSE_T or omitted for offset 0); so do loop bounds — the grep is a guard, not a proof.
 *
 * Where it does not apply: the KERNELS that define a small record (literals are their formulas),
 * the arrays of OWN_RECORDS (records of another layout: the reduced curves), and the single
 * lines of EXCEPTIONS — almost all a lone quaternion's w — each with its reason. An exception or
 * an own-records entry that no longer matches anything fails the last test, so the lists cannot
 * outlive the code they excuse.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from './sourceFiles.js';

/**
 * Files that define a small record and may index it with literals, as gl-matrix does: there the
 * literal *is* the definition (`out[o + 3] = a[ao + 3] * b[bo + 3] - …` reads as the formula),
 * and names for a quaternion's w or a matrix entry m12 would only hide it.
 */
const KERNELS: Record<string, string> = {
  'src/math/layout.ts': 'defines the pose and matrix layouts',
  'src/math/quat.ts': 'quaternion kernels: x y z w at 0 … 3 are the quaternion record itself',
  'src/math/vec3.ts': 'vector kernels: x y z at 0 … 2 are the vector record itself',
  'src/math/affine.ts': '3×4 matrix kernels: the 12 entries by index are the matrix formulas themselves',
  'src/math/rotationArc.ts': 'quaternion kernels (arc between vectors, scaled rotation): indexes only whole quaternions, x y z w',
  'src/offline/lod/spline.ts': 'defines the cubic segment record a b c d (its Horner evaluation and fits)',
  'src/math/minJerk.ts': 'defines the follower\'s 3×3 row-major step matrices and indexes their 9 entries',
  'src/pixi/camera.ts': 'defines the camera\'s column-major 4×4 view-projection (the shaders\' uViewProj) and its axes record (right, up, back, eye)',
  'src/pixi/frustum.ts': 'defines the frustum\'s plane records (a b c d) and reads them from the camera\'s column-major 4×4 by its entries',
};

/** Single lines allowed a flagged literal, by file and a fragment of the line, with the reason. */
const EXCEPTIONS: { file: string; fragment: string; why: string }[] = [
  { file: 'src/systems/captureOffsets.ts', fragment: 'const w = q[qo + 3];', why: 'writeScaledAxis reads one quaternion: its w' },
  { file: 'src/systems/captureOffsets.ts', fragment: 'out[o + 3] = a[ao + 3];', why: 'copy4 copies one quaternion: its w' },
  { file: 'src/math/composeModel.ts', fragment: 'out[r + 3] = w;', why: "the joint's model rotation Q (x y z w) at rotationOff in an aim record: its w" },
  { file: 'src/math/composeModel.ts', fragment: 'aw = out[pr + 3];', why: "the parent's model rotation Q (x y z w): its w" },
  { file: 'src/math/composeModel.ts', fragment: 'out[r + 3] = aw * w', why: "the joint's model rotation Q (x y z w): its w" },
  { file: 'src/systems/aimSystem.ts', fragment: 'dw = delta[d + 3];', why: 'rotateByModelDelta reads the delta quaternion D: its w' },
  { file: 'src/systems/aimSystem.ts', fragment: 'pw = model[qp + 3];', why: "rotateByModelDelta reads the parent's model rotation: its w" },
  { file: 'src/systems/aimSystem.ts', fragment: 'out[o + 3] = a[ao + 3];', why: 'copyRotation copies one quaternion: its w' },
  { file: 'src/math/twoBoneIk.ts', fragment: 'out[o + 3] = Math.cos(h);', why: 'setAxisHalfAngle writes one quaternion: its w' },
  { file: 'src/import/bvh.ts', fragment: 'r[3] = Math.cos(half);', why: 'r is one quaternion, the rotation of one BVH channel: its w' },
  { file: 'src/export/gltfAnimation.ts', fragment: 'Math.hypot(p0[0], p0[1], p0[2], p0[3])', why: 'p0, p1 are quaternions: their w' },
  { file: 'src/export/gltfAnimation.ts', fragment: 'Math.hypot(values[v], values[v + 1], values[v + 2], values[v + 3])', why: 'the quaternion value of a spline key: its w' },
  { file: 'src/export/gltfAnimation.ts', fragment: "own[3] * value[3] < 0 ? -1 : 1;", why: 'own and value are quaternions (x y z w): the hemisphere test' },
  { file: 'src/export/gltfAnimation.ts', fragment: 'out[o + 3] = d;', why: 'shiftCubic writes a cubic a b c d: its d' },
  { file: 'src/export/gltfAnimation.ts', fragment: 'bytes[3] === 0x46', why: "the fourth byte of the GLB magic 'glTF'" },
  { file: 'src/assets/blendSpace/line.ts', fragment: 'const d = corners[3];', why: 'the four corner samples a b c d of a bilinear cell: d' },
  { file: 'src/import/bvh/number.ts', fragment: 'mantissa = mantissa * 10 + d;', why: 'decimal digits, not a stride' },
  { file: 'src/import/bvh/motion.ts', fragment: 'Math.min(p, s + 32)', why: 'the length of a quoted excerpt of the file' },
  { file: 'src/import/gltf/container.ts', fragment: 'view.getUint32(offset + 4, true)', why: "a GLB chunk header's type, 4 bytes after its length (glTF 2.0 §4.4.3)" },
  { file: 'src/import/gltf/container.ts', fragment: 'bytes.subarray(start, start + 16)', why: 'the first 16 bytes of a file, sniffed for JSON' },
  { file: 'src/import/gltf/container.ts', fragment: 'data.slice(i + 1, i + 3)', why: 'the two hex digits of a percent escape' },
  { file: 'src/cli/lodFile.ts', fragment: 'glb.subarray(binStart + 8,', why: "a GLB chunk's data, after its 8-byte header (length, type)" },
  { file: 'src/export/meshoptGlb.ts', fragment: 'glb.subarray(binStart + 8,', why: "a GLB chunk's data, after its 8-byte header (length, type)" },
  { file: 'src/export/meshoptGlb.ts', fragment: 'view.setUint32(o + 4, 0x004e4942, true);', why: "a GLB chunk header's type, 4 bytes after its length" },
  { file: 'src/export/meshoptGlb.ts', fragment: 'out.set(bin, o + 8);', why: "a GLB chunk's data, after its 8-byte header" },
  { file: 'src/export/gltfCompact.ts', fragment: 'a[i + 3] * b[i + 3] < 0 ? -1 : 1;', why: 'a and b are packed quaternion tracks (x y z w per key): the hemisphere test' },
  { file: 'src/export/gltfCompact.ts', fragment: 'a[ao + 3] * b[bo + 3];', why: 'dot4 of two quaternions (x y z w)' },
];

/**
 * Arrays that hold records of another layout, indexed with their own literals, by file: the
 * index expressions on them are not read (the pose and matrix arrays of the same file still are).
 */
const OWN_RECORDS: { file: string; arrays: string[]; why: string }[] = [
  {
    file: 'src/assets/sampleReduced.ts', arrays: ['records', 'pairs', 'packedTimes'],
    why: 'reduced tracks (ReducedTracks.ts): a key time, then a cubic a b c d per channel; 16-bit pairs and per-channel lo, step — read by hand-fused Horner and Estrin forms',
  },
  {
    file: 'src/assets/ReducedTracks.ts', arrays: ['records', 'coefficients', 'packed', 'scaled', 'out'],
    why: 'builds those records: cubics a b c d per channel, packed 16-bit codes',
  },
  { file: 'src/offline/lod/continuousFit.ts', arrays: ['out', 'scratch'], why: 'writes and reads cubic segments a b c d (spline.ts)' },
  { file: 'src/export/gltfAnimation.ts', arrays: ['coefficients'], why: 'cubic segments a b c d per component (spline.ts)' },
  { file: 'src/assets/compressedTracks.ts', arrays: ['d'], why: 'two decoded samples of one track, 3 components each (decodeSample\'s output)' },
  {
    file: 'src/offline/lod/compressClip.ts', arrays: ['model', 'points', 'ref'],
    why: 'the encoder\'s own model records (3×3 column-major matrix, then position: M = 12) and measured points (origin, three shell points: P = 12)',
  },
];

const NAMED = /^[A-Z][A-Z0-9_]*$/;

/** The index expressions on a line of code: each `[…]` that follows a value, with the text inside and the array's name (`a.b` → `b`; '' when not a name). */
export function indexExpressions(code: string): { array: string; expression: string }[] {
  const found: { array: string; expression: string }[] = [];
  for (let i = 0; i < code.length; i++) {
    const before = code.slice(0, i);
    if (code[i] !== '[' || !/[\w$)\]]\s*$/.test(before) || /\b(?:const|let|var|return|of|in)\s*$/.test(before)) continue;
    let depth = 0;
    for (let j = i; j < code.length; j++) {
      if (code[j] === '[') depth++;
      else if (code[j] === ']' && --depth === 0) {
        found.push({ array: /([\w$]+)\s*$/.exec(before)?.[1] ?? '', expression: code.slice(i + 1, j) });
        break;
      }
    }
  }
  return found;
}

/** `code` with the inside of every index expression blanked (`a[i + 3]` → `a[]`). */
function blankIndexes(code: string): string {
  let out = code;
  for (const { expression } of indexExpressions(code)) out = out.replace(`[${expression}]`, '[]');
  return out;
}

/** The top-level terms of a sum: `o + POSE_Q + 3` → `o`, `POSE_Q`, `3` (inside brackets and parentheses kept whole). */
function terms(expression: string): string[] {
  const out: string[] = [];
  let depth = 0, start = 0;
  for (let i = 0; i < expression.length; i++) {
    const ch = expression[i];
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (depth === 0 && (ch === '+' || ch === '-') && i > start && !/(?:^|[^\w$.])\d+(?:\.\d*)?[eE]$/.test(expression.slice(start, i).trim())) {
      out.push(expression.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(expression.slice(start).trim());
  return out;
}

/**
 * The reasons `line` (one line of TypeScript) holds a numeric record offset; empty when it holds
 * none. Index expressions on the arrays named in `ownRecords` (records of another layout, see
 * OWN_RECORDS) are not read.
 */
export function offsetLiterals(line: string, ownRecords: readonly string[] = []): string[] {
  const trimmed = line.trim();
  if (trimmed.startsWith('*') || trimmed.startsWith('/*') || trimmed.startsWith('//')) return [];
  const code = line
    .replace(/\/\*.*?\*\//g, '')
    .replace(/(^|[=(,:!&|?>;{}]\s*|\breturn\s+)\/(?![*/])(?:[^/\\\n[]|\\.|\[(?:[^\]\\]|\\.)*\])+\/[dgimsuy]*/g, '$1/re/')
    .replace(/'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"/g, "''")
    .replace(/\/\/.*$/, '');
  const found: string[] = [];
  for (const { array, expression } of indexExpressions(code)) {
    if (expression.includes(',') || ownRecords.includes(array)) continue;
    const parts = terms(expression);
    parts.forEach((term, k) => {
      if (!/^\d+$/.test(term)) return;
      const n = Number(term);
      const afterName = k > 0 && NAMED.test(parts[k - 1] ?? '');
      if (n >= 4 || (n === 3 && !afterName)) found.push(`offset ${n} in \`[${expression}]\``);
    });
  }
  // An offset handed to a kernel as a whole argument (`quat.normalize(pose, o + 3, …)`).
  for (const m of code.matchAll(/[(,]\s*([\w$.]+)\s*\+\s*(\d+)\s*(?=[,)])/g)) {
    if (Number(m[2]) >= 3 && !NAMED.test(m[1] ?? '')) found.push(`offset argument \`${m[0].slice(1).trim()}\``);
  }
  // A numeric offset after a stride outside an index (`const m = j * MATRIX_STRIDE + 9;`).
  for (const m of blankIndexes(code).matchAll(/[\w$]*STRIDE\s*\+\s*(\d+)\b(?!\s*[*/.])/g)) {
    if (Number(m[1]) >= 3) found.push(`offset after a stride \`${m[0]}\``);
  }
  // A stride multiplies an index (`joint * 10`, `12 * (eid + 1)`); a constant times ten is a number.
  for (const m of code.matchAll(/([\w$.]+|\))\s*\*\s*(10|12)(?![\w.])|(?<![\w.*])(10|12)\s*\*\s*([\w$.]+|\()/g)) {
    const operand = m[1] ?? m[4] ?? '';
    if (!NAMED.test(operand) && !/^[\d.]+$/.test(operand)) found.push(`stride \`${m[0].trim()}\``);
  }
  return found;
}

describe('pose and matrix offsets in src/ are named (src/math/layout.ts)', () => {
  it('finds numeric offsets the rule is about', () => {
    expect(offsetLiterals('    out[o + 6] = qw * inv;')).toEqual(['offset 6 in `[o + 6]`']);
    expect(offsetLiterals('  const y = model[joint * MATRIX_STRIDE + 10];')).toEqual(['offset 10 in `[joint * MATRIX_STRIDE + 10]`']);
    expect(offsetLiterals('  const w = pose[o + 3], s = pose[7];')).toEqual(['offset 3 in `[o + 3]`', 'offset 7 in `[7]`']);
    expect(offsetLiterals('  out[q + 3 + a] = tmp[(b + 1) + 9];')).toEqual(['offset 3 in `[q + 3 + a]`', 'offset 9 in `[(b + 1) + 9]`']);
    expect(offsetLiterals('  const base = joint * 10, m = (eid * maxJoints + j) * 12;')).toEqual(['stride `joint * 10`', 'stride `) * 12`']);
    expect(offsetLiterals('  x[FOLLOW_CACHE + 10] = 0;')).toEqual(['offset 10 in `[FOLLOW_CACHE + 10]`']);
    expect(offsetLiterals('  quat.normalize(pose, o + 3, pose, o + POSE_Q);')).toEqual(['offset argument `o + 3`']);
    expect(offsetLiterals('  const m = j * MATRIX_STRIDE + 9;')).toEqual(['offset after a stride `MATRIX_STRIDE + 9`']);
  });

  it('lets names, components after a name, comments, strings and array literals pass', () => {
    expect(offsetLiterals('    pose[o + POSE_Q + 3] = qw * inv; pose[o + POSE_S + 2] = 1; m[mo + MATRIX_T + 1] = y;')).toEqual([]);
    expect(offsetLiterals('    v[o + 1] = v[o + 2]; const a = q[0] + q[2]; tmp[Q_DELTA + 3] = 1; c[4 * k + 1] = 0;')).toEqual([]);
    expect(offsetLiterals(' * Writes `out[o..o+3]` from `pose[7]`, 10 * x')).toEqual([]);
    expect(offsetLiterals("  issues.push('frames[3] * 10'); // pose[o + 7]")).toEqual([]);
    expect(offsetLiterals('  out[o + 3] = records[r + 4] + u * c.records[r + 8];', ['records'])).toEqual(['offset 3 in `[o + 3]`']);
    expect(offsetLiterals("  const extra = keys.filter((a) => /^(JOINTS|WEIGHTS)_[1-9]/.test(a));")).toEqual([]);
    expect(offsetLiterals('  p = 10 ** e; n = 100 * k; m = 1.12 * t; v = 10 * SPRING_REST; const xs = [3, 7]; f([9]);')).toEqual([]);
  });
});

describe('src/ has no numeric pose or matrix offsets outside the layout and the record kernels', () => {
  it('lists none', () => {
    const found: string[] = [];
    for (const file of sourceFiles('src')) {
      if (file in KERNELS) continue;
      const own = OWN_RECORDS.filter((r) => r.file === file).flatMap((r) => r.arrays);
      readFileSync(file, 'utf8').split('\n').forEach((line, n) => {
        if (EXCEPTIONS.some((e) => e.file === file && line.includes(e.fragment))) return;
        for (const reason of offsetLiterals(line, own)) found.push(`${file}:${n + 1}: ${reason}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });

  it('uses every exception it lists (a line that changed must be looked at again)', () => {
    const unused = EXCEPTIONS.filter((e) => !readFileSync(e.file, 'utf8').split('\n').some((line) => line.includes(e.fragment) && offsetLiterals(line).length > 0));
    expect(unused).toEqual([]);
    const idle = OWN_RECORDS.filter((r) => !readFileSync(r.file, 'utf8').split('\n').some((line) => offsetLiterals(line).length > offsetLiterals(line, r.arrays).length));
    expect(idle).toEqual([]);
  });
});
