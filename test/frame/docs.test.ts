/**
 * The frame is declared once (src/frame.ts). The docs' frame tables — docs/how-it-works.md
 * (the README's old table) and docs/design.md §4 (the update of DESIGN §4) — are generated from
 * it: each holds, between `<!-- frame table -->` and `<!-- end frame table -->`, exactly the
 * table rendered here from `defaultFrame`. `UPDATE_FRAME_DOCS=1 npx vitest run
 * test/frame/docs.test.ts` rewrites the blocks after a change to the table.
 *
 * And the table's data is real: every `Component.field` it names is a field of that component
 * of a created world, and every `world.x` a property of the world.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createAnimationWorld, defaultFrame, type Frame } from '../../src/index.js';

const START = '<!-- frame table: generated from src/frame.ts (test/frame/docs.test.ts) -->';
const END = '<!-- end frame table -->';
const DOCS = ['docs/how-it-works.md', 'docs/design.md'];

/** `['RootMotion.x', 'RootMotion.y', 'LocalPose']` → "`RootMotion` (x, y), `LocalPose`". */
function names(entries: readonly string[]): string {
  const groups = new Map<string, string[]>();
  for (const entry of entries) {
    const dot = entry.indexOf('.');
    const head = dot < 0 ? entry : entry.slice(0, dot);
    const list = groups.get(head) ?? [];
    if (dot >= 0) list.push(entry.slice(dot + 1));
    groups.set(head, list);
  }
  if (groups.size === 0) return '—';
  return [...groups].map(([head, fields]) => (fields.length ? `\`${head}\` (${fields.join(', ')})` : `\`${head}\``)).join(', ');
}

/** The markdown table of a frame: one row per system, in order. */
export function renderFrameTable(frame: Frame): string {
  const rows = frame.systems.map((s, n) => {
    const scratch = s.scratch ? Object.keys(s.scratch).map((k) => `\`${k}\``).join(', ') : '—';
    return `| ${n + 1} | \`${s.name}\` (\`${s.name}System\`) | ${names(s.reads)} | ${names(s.writes)} | ${scratch} |`;
  });
  return ['| # | system | reads | writes | scratch |', '| --- | --- | --- | --- | --- |', ...rows].join('\n');
}

function block(text: string): string | null {
  const start = text.indexOf(START), end = text.indexOf(END);
  if (start < 0 || end < start) return null;
  return text.slice(start + START.length, end).trim();
}

describe('the docs\' frame tables are the frame table', () => {
  const table = renderFrameTable(defaultFrame);
  for (const path of DOCS) {
    it(`${path} holds the table generated from src/frame.ts`, () => {
      let text = readFileSync(path, 'utf8');
      if (process.env['UPDATE_FRAME_DOCS'] === '1' && block(text) !== null) {
        const start = text.indexOf(START), end = text.indexOf(END);
        text = `${text.slice(0, start + START.length)}\n\n${table}\n\n${text.slice(end)}`;
        writeFileSync(path, text);
      }
      expect(block(text), `${path}: no ${START} … ${END} block`).not.toBeNull();
      expect(block(text)).toBe(table);
    });
  }

  it('docs/design.md lists the systems in order, each with its function', () => {
    const text = readFileSync('docs/design.md', 'utf8');
    let at = 0;
    for (const s of defaultFrame.systems) {
      const found = text.indexOf(`\`${s.name}System\``, at);
      expect(found, `${s.name}System after position ${at}`).toBeGreaterThanOrEqual(0);
      at = found;
    }
  });
});

describe('the frame table names what exists', () => {
  it('every Component.field is a field of that component, every world.x a property of the world', () => {
    const world = createAnimationWorld({ maxEntities: 2, maxJoints: 2 });
    const components = world.components as unknown as Record<string, Record<string, unknown>>;
    const missing: string[] = [];
    for (const s of defaultFrame.systems) {
      for (const entry of [...s.reads, ...s.writes]) {
        const [head, ...path] = entry.split('.');
        let value: unknown = head === 'world' ? world : components[head!];
        for (const key of path) value = value === undefined || value === null ? undefined : (value as Record<string, unknown>)[key];
        if (value === undefined) missing.push(`${s.name}: ${entry}`);
      }
      for (const name of Object.keys(s.scratch ?? {})) {
        if (!((world.scratch as unknown as Record<string, unknown>)[name] instanceof Object)) missing.push(`${s.name}: scratch ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
