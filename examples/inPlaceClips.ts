/**
 * examples/inPlaceClips.ts (docs/in-place-clips.md): the Fox's in-place Walk given the travel
 * of its planted paws, so a target speed drives it and the fox walks where it faces.
 * test/examples/guides.test.ts runs it.
 */
import { createAnimationWorld, loadGltf, play, rootMotionFromFeet, setRootTransform, setTargetSpeed, spawnCharacter } from 'bitanim';

/** One fox walking at 1.2 m/s toward +X, from the bytes of Fox.glb. */
export async function walkingFox(bytes: Uint8Array) {
  const world = createAnimationWorld({ maxEntities: 2, maxJoints: 24 });
  // #region walk
  const { skeletons, clips } = await loadGltf(bytes, { scale: 'cm' });      // file units → metres
  const walk = rootMotionFromFeet(clips.find((c) => c.name === 'Walk')!, {
    feet: ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'],
  });
  const fox = spawnCharacter(world, skeletons[0]!, { rootMotion: true });
  play(world, fox, walk);
  setTargetSpeed(world, fox, 1.2);                   // now 1.2 m/s
  setRootTransform(world, fox, { yaw: Math.PI / 2 }); // steer (x, y, z, yaw; omitted fields stay)
  // #endregion
  return { world, fox, walk };
}
