// The updaters' own readings of their answers, one module per dialect; oracles.ts runs them all
// behind one signature.
export * from './aospa.js';
export * from './crdroid-java.js';
export * from './crdroid-kotlin.js';
export * from './derpfest.js';
export * from './grapheneos.js';
export * from './kotlinx-json.js';
export * from './oracles.js';
export * from './org-json.js';
export * from './pixelexperience.js';
export * from './pixelos.js';
