/**
 * The array type every math function reads and writes: a typed array of floats.
 *
 * Functions take an element offset beside each array, so one large pool (a pose of
 * `jointCount × 10` floats, a matrix palette of `jointCount × 12`) is addressed in place.
 * Float32Array is what the pools use; Float64Array is accepted for offline work and tests.
 */
export type NumArray = Float32Array | Float64Array;
