/**
 * examples/blendSpacePhase.ts (docs/root-motion-and-blend-spaces.md): a 1D walk–run space whose
 * run was authored right foot first, so it enters half a cycle on.
 * test/examples/guides.test.ts runs it.
 */
import { createBlendSpace, type BlendSpace, type Clip } from 'bitanim';

/** The walk (x = 0) to run (x = 1) space. */
export function walkRunSpace(walk: Clip, run: Clip): BlendSpace {
  // #region space
  const space = createBlendSpace({
    type: '1d',
    samples: [
      { clip: walk, x: 0 },                    // left foot first
      { clip: run, x: 1, phaseOffset: 0.5 },   // authored right foot first: shift half a cycle
    ],
  });
  // #endregion
  return space;
}
