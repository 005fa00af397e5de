// A seeded pseudo-random generator for the simulations (docs/simulations.md): the same seed gives the same
// numbers on every runtime (Node, workerd, a browser), so the same request gives the same answer.
//
// xoshiro128** (Blackman and Vigna, "Scrambled linear pseudorandom number generators", 2021; public domain;
// it passes BigCrush and PractRand), its four words seeded by SplitMix32 from a 32-bit seed. Written out here
// rather than taken from a package: the Monte Carlo draws up to 100 million indices, and a call through a
// general library's distribution objects costs several times the rest of a trade's step. The numbers come in
// batches (one tight loop over local words), which the simulation reads from an array.

/** The generator's state: four 32-bit words. */
export type RandomState = Int32Array;

/** A state seeded from `seed` (an integer 0 .. 2^32 - 1): SplitMix32 spreads it over the four words. */
export function seedState(seed: number): RandomState {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return z ^ (z >>> 16);
  };
  return Int32Array.of(next(), next(), next(), next());
}

/** Fills `out` with uniform integers in [0, n) (n <= 2^21, where the bias of scaling a 32-bit word is under 1 in 2000), advancing `state`. */
export function randomIndices(state: RandomState, out: Uint32Array, n: number): void {
  const scale = n / 4294967296;
  let a = state[0]!;
  let b = state[1]!;
  let c = state[2]!;
  let d = state[3]!;
  for (let i = 0; i < out.length; i++) {
    const m = Math.imul(b, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9);
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = (d << 11) | (d >>> 21);
    out[i] = ((result >>> 0) * scale) | 0;
  }
  state[0] = a;
  state[1] = b;
  state[2] = c;
  state[3] = d;
}
