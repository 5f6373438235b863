/**
 * examples/jointMaps.ts (docs/retargeting.md, "Joint maps"): the humanoid joints of a capture
 * and of a character, side by side. test/retarget/humanoidMap.test.ts runs it.
 */
import { HUMANOID_JOINTS, humanoidMap, type Skeleton } from 'bitanim';

/** One line per humanoid joint: the character's joint ← the capture's ('—' where one has none). */
export function printHumanoidMaps(capture: Skeleton, character: Skeleton): string[] {
  // #region print
  const from = humanoidMap(capture), to = humanoidMap(character);
  const lines = HUMANOID_JOINTS.map((joint) => `${joint.padEnd(14)} ${(to.joints[joint] ?? '—').padEnd(11)} ← ${from.joints[joint] ?? '—'}`);
  // #endregion
  return lines;
}
