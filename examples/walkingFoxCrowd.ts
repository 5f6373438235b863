import {
  createAnimationWorld,
  getRootTransform,
  getSkinPalette,
  loadGltf,
  play,
  rootMotionFromFeet,
  setRootTransform,
  setTargetSpeed,
  spawnCharacter,
  step,
} from 'bitanim';

/** A crowd of foxes that walk around a 12 m circle, from the bytes of Fox.glb (glTF sample model). */
export async function walkingFoxCrowd(foxGlb: Uint8Array, count = 100) {
  // The file is in centimetres; `scale` makes it metres. Its Walk loops in place, so it gets
  // the travel its planted paws imply: root motion, target speeds and blend spaces then work.
  const { skeletons, clips } = await loadGltf(foxGlb, { scale: 'cm' });
  const walk = rootMotionFromFeet(clips.find((clip) => clip.name === 'Walk')!, {
    feet: ['b_LeftFoot02_018', 'b_RightFoot02_022', 'b_LeftHand_011', 'b_RightHand_08'],
  });

  const world = createAnimationWorld({ maxEntities: count, maxJoints: 24 });
  const foxes: number[] = [];
  for (let n = 0; n < count; n++) {
    const angle = (2 * Math.PI * n) / count;
    const fox = spawnCharacter(world, skeletons[0]!, { x: 8 * Math.sin(angle), z: 8 * Math.cos(angle), yaw: angle + Math.PI / 2, rootMotion: true });
    play(world, fox, walk, { time: (n * 0.13) % walk.duration });
    setTargetSpeed(world, fox, 0.8 + 0.4 * ((n * 7) % 10) / 10); // 0.8 … 1.16 m/s
    foxes.push(fox);
  }

  return {
    world,
    foxes,
    /** Advances the crowd by `dt` seconds; returns the skin palettes to upload (J × 12 floats each). */
    frame(dt: number): Float32Array[] {
      step(world, dt);
      for (const fox of foxes) {
        const { x, z } = getRootTransform(world, fox);
        // Steer: past 12 m from the centre, head back toward it.
        if (x * x + z * z > 12 * 12) setRootTransform(world, fox, { yaw: Math.atan2(-x, -z) });
      }
      return foxes.map((fox) => getSkinPalette(world, fox));
    },
  };
}
