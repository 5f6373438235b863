/** examples/footLocking.ts (docs/foot-locking.md) runs, and its figures hold. */
import { describe, expect, it } from 'vitest';
import { fasterWalk } from '../../examples/footLocking.js';
import { readAssetText } from '../support/assets.js';

describe('examples/footLocking.ts', () => {
  it('the CMU walk at 1.2× its pace: locked ankles slide ≤ 0.5 % of the 0.88 m hips per contact, unlocked ones ≥ 5× more', () => {
    const bvh = readAssetText('cmu_131_01_start_walk_stop.bvh');
    const locked = fasterWalk(bvh, 1.2, true), free = fasterWalk(bvh, 1.2, false);
    console.log(`example: skate ${(locked.mean * 1000).toFixed(2)} mm locked, ${(free.mean * 1000).toFixed(1)} mm without, per contact (${locked.contacts})`);
    expect(locked.contacts).toBe(14);
    expect(locked.mean).toBeLessThanOrEqual(0.005 * 0.88);
    expect(free.mean).toBeGreaterThan(5 * locked.mean);
  });
});
