/**
 * Every entry point of the package as one module (the main entry, `bitanim/kernels`,
 * `bitanim/lod`; their names are disjoint): the hardening tests call every exported function
 * and the watchdog bundles this file for its worker's `bitanim`.
 */
export * from '../../src/index.js';
export * from '../../src/kernels.js';
export * from '../../src/lod.js';
