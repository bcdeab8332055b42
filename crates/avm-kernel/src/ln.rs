//! The kernel's natural logarithm, one value and one sequence of IEEE operations on every target: the method of
//! FreeBSD msun's e_log.c in the form musl and the crates.io `libm` crate (0.2.x) compute it, which is also what Rust's
//! `f64::ln` runs on wasm32-unknown-unknown. So the WASM module and the native addon give the bits they gave when
//! each called its platform's `ln` (the addon the `libm` crate's), and a slice of logarithms can be computed four
//! lanes at a time (`ln_each`): the core below has no branch, so the compiler turns four calls into vector operations
//! on a target that has them (the addon's x86-64-v3 build), with every lane's operations, and so its bits, unchanged.
//!
//! Method (origin: the FreeBSD/Sun fdlibm algorithm and its published minimax coefficients): write x = 2^k·m with m in
//! [√2/2, √2), f = m − 1, s = f / (2 + f); ln m = f − f²/2 + s(f²/2 + R(s²)) with R a degree-7 polynomial in s² (Lg1..Lg7
//! below), and ln x = k·ln2_hi + (that) + k·ln2_lo, ln 2 split so that k·ln2_hi is exact. Evaluated as
//! (((s·(f²/2 + R) + k·ln2_lo) − f²/2) + f) + k·ln2_hi, left to right: that order is part of the definition.
#![forbid(unsafe_code)]

// Shortest decimals of the doubles whose bits are in the comments.
const LN2_HI: f64 = 0.6931471803691238; // 0x3fe62e42 fee00000
const LN2_LO: f64 = 1.9082149292705877e-10; // 0x3dea39ef 35793c76
const LG1: f64 = 0.6666666666666735; // 0x3fe55555 55555593
const LG2: f64 = 0.3999999999940942; // 0x3fd99999 9997fa04
const LG3: f64 = 0.2857142874366239; // 0x3fd24924 94229359
const LG4: f64 = 0.22222198432149784; // 0x3fcc71c5 1d8e78af
const LG5: f64 = 0.1818357216161805; // 0x3fc74664 96cb03de
const LG6: f64 = 0.15313837699209373; // 0x3fc39a09 d078c69f
const LG7: f64 = 0.14798198605116586; // 0x3fc2f112 df3e5244

/// High word of √2/2's bits: the reduction moves m's exponent so that m lands in [√2/2, √2).
const SQRT_HALF_HI: u32 = 0x3fe6_a09e;
const ONE_HI: u32 = 0x3ff0_0000;
/// High words bounding the positive normal finite doubles: [MIN_NORMAL_HI, INF_HI).
const MIN_NORMAL_HI: u32 = 0x0010_0000;
const INF_HI: u32 = 0x7ff0_0000;

/// Whether `core` computes ln x: x positive, normal and finite.
#[inline(always)]
fn in_core_range(x: f64) -> bool {
    let hi = (x.to_bits() >> 32) as u32;
    (MIN_NORMAL_HI..INF_HI).contains(&hi)
}

/// ln(x·2^k0) for x positive, normal and finite (no branch; k as f64 from the exponent after the reduction, plus k0).
#[inline(always)]
fn core(x: f64, k0: i32) -> f64 {
    let bits = x.to_bits();
    let hi = (bits >> 32) as u32 + (ONE_HI - SQRT_HALF_HI);
    let k = (hi >> 20) as i32 - 0x3ff + k0;
    let m = f64::from_bits(((((hi & 0x000f_ffff) + SQRT_HALF_HI) as u64) << 32) | (bits & 0xffff_ffff));
    let f = m - 1.0;
    let hfsq = 0.5 * f * f;
    let s = f / (2.0 + f);
    let z = s * s;
    let w = z * z;
    let t1 = w * (LG2 + w * (LG4 + w * LG6));
    let t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
    let dk = k as f64;
    s * (hfsq + (t2 + t1)) + dk * LN2_LO - hfsq + f + dk * LN2_HI
}

/// Natural logarithm. Outside the core's range the same expressions as the reference give the same bits: ln(±0) =
/// −1 / (x·x) = −∞; a negative x (or NaN with the sign bit) (x − x) / 0 = NaN; +∞ and a positive NaN x itself; a
/// subnormal is scaled by 2^54 into the core's range and 54 taken from its exponent.
pub fn ln(x: f64) -> f64 {
    if in_core_range(x) {
        return core(x, 0);
    }
    let bits = x.to_bits();
    if bits << 1 == 0 {
        return -1.0 / (x * x);
    }
    if bits >> 63 != 0 {
        // x − x, not a NaN constant: the NaN (its sign, a NaN x's payload) the reference's expression gives here.
        #[allow(clippy::eq_op)]
        return (x - x) / 0.0;
    }
    if (bits >> 32) as u32 >= INF_HI {
        return x;
    }
    core(x * f64::from_bits(0x4350_0000_0000_0000), -54)
}

/// Replaces every value of `x` by its ln (the bits `ln` gives), four at a time where all four are in the core's range.
pub fn ln_each(x: &mut [f64]) {
    let mut quads = x.chunks_exact_mut(4);
    for q in &mut quads {
        if q.iter().all(|&v| in_core_range(v)) {
            let r = [core(q[0], 0), core(q[1], 0), core(q[2], 0), core(q[3], 0)];
            q.copy_from_slice(&r);
        } else {
            q.iter_mut().for_each(|v| *v = ln(*v));
        }
    }
    quads.into_remainder().iter_mut().for_each(|v| *v = ln(*v));
}

#[cfg(test)]
mod tests {
    use super::{ln, ln_each};

    /// (x, ln x) as bits, from the crates.io `libm` crate 0.2.16 (the addon's former `ln`, and the code Rust's wasm32
    /// `f64::ln` runs): edge cases, then 40 inputs in the kernel's ranges ($/sf ratios, prices, levels, any normal)
    /// on which glibc's `ln` rounds the other way, so that a plain `f64::ln` could not pass.
    const REFERENCE: [(u64, u64); 55] = [
        (0x0000000000000001, 0xc0874385446d71c3),
        (0x000fffffffffffff, 0xc086232bdd7abcd2),
        (0x0010000000000000, 0xc086232bdd7abcd2),
        (0x01a56e1fc2f8f359, 0xc085963447f87fb5),
        (0x3fe0000000000000, 0xbfe62e42fefa39ef),
        (0x3fe6a09e667f3bcd, 0xbfd62e42fefa39ee),
        (0x3fe6a09e667f3bcc, 0xbfd62e42fefa39f1),
        (0x3fefffffffffffff, 0xbca0000000000000),
        (0x3ff0000000000001, 0x3cafffffffffffff),
        (0x3ff6a09e667f3bcd, 0x3fd62e42fefa39f0),
        (0x4000000000000000, 0x3fe62e42fefa39ef),
        (0x4005bf0a8b145769, 0x3ff0000000000000),
        (0x4024000000000000, 0x40026bb1bbb55516),
        (0x7e37e43c8800759c, 0x4085963447f87fb5),
        (0x7fefffffffffffff, 0x40862e42fefa39ef),
        (0x4079b2ce0b7ba1f7, 0x40181379e35bcdc2),
        (0x41461528093c21ff, 0x402dc1afbe808eda),
        (0x3ff591a9af5ff59a, 0x3fd31d61142b1970),
        (0x3cfe4e68a1615d70, 0xc04050ef269d1620),
        (0x40732bf0223c3ec5, 0x4016e771e804bd84),
        (0x413517cbba6645b7, 0x402c4751867c0510),
        (0x40032f56b030139a, 0x3febfd66d8acadc0),
        (0x3ffbf75d01d38f51, 0x3fe1de7eff13978c),
        (0x4062b6e28fb18fbe, 0x401408f1b47cddd4),
        (0x4117635ea63612d8, 0x4029b66bb798800e),
        (0x3ffa030dc2731674, 0x3fdf1a1343824ff6),
        (0x4006f78716eb1680, 0x3ff0dfb19858c4b8),
        (0x4077acdf784bc18a, 0x4017bf824632f6b2),
        (0x4133f9a76764f781, 0x402c2b710e625b48),
        (0x3ff995518dd40ac8, 0x3fde09d5177da678),
        (0x3f45507ad9f1f074, 0xc01d59ef0f2b8628),
        (0x4039d13a2b0da8d8, 0x400a0223a7e8290c),
        (0x413775348ad7c3c2, 0x402c7db9f4c0b618),
        (0x3ff9c060f2913cfc, 0x3fde7533550c927e),
        (0x3f70aeccf17c3e33, 0xc0160377e442c056),
        (0x4088102a7933b4a8, 0x401a95ee749eeb7e),
        (0x4145de9d17f39fd8, 0x402dbcb8fefea674),
        (0x40028b712cc4f878, 0x3feae75c4efb8754),
        (0x35f479e4214ea50c, 0xc05baa0a47ad72b4),
        (0x407582bc3d588b6f, 0x40175d5369523018),
        (0x41332fe2a8f3baf3, 0x402c16d493a259fc),
        (0x3ff518589cbb26a9, 0x3fd1b1646ae34fe4),
        (0x3fb9cd9df510f224, 0xc0025b80cca71d72),
        (0x408c78e60fe0379c, 0x401b4237db2a6b90),
        (0x40fc8e688d956017, 0x402756db7752cc5a),
        (0x3fe32c4e0a99a858, 0xbfe0642ef996a3ea),
        (0x3fd39c07ccb00ba7, 0xbff2ed084d730e84),
        (0x4075999570cefa90, 0x40176190d812f670),
        (0x4116ffb8ef2cc517, 0x4029add3f089b832),
        (0x3ff989a6bf821a31, 0x3fddec9e88443f98),
        (0x3f6ce26d21ffeb10, 0xc0169726d03e48aa),
        (0x40767a13348bbcab, 0x40178a511064d62e),
        (0x413861071c9495b8, 0x402c91729e881e60),
        (0x3ffcebc33e97bd10, 0x3fe2f17ab2e7e448),
        (0x40071bb12a3079a8, 0x3ff0f8cf85685532),
    ];

    fn same(a: f64, b: f64) -> bool {
        a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
    }

    #[test]
    fn gives_the_reference_bits() {
        let xs: Vec<f64> = REFERENCE.iter().map(|&(x, _)| f64::from_bits(x)).collect();
        let mut each = xs.clone();
        ln_each(&mut each);
        for (k, &(x, want)) in REFERENCE.iter().enumerate() {
            assert_eq!(ln(f64::from_bits(x)).to_bits(), want, "ln of 0x{:016x}", x);
            assert_eq!(each[k].to_bits(), want, "ln_each at {} (0x{:016x})", k, x);
        }
        if cfg!(all(target_os = "linux", target_env = "gnu")) {
            assert!(REFERENCE.iter().skip(15).all(|&(x, want)| f64::from_bits(x).ln().to_bits() != want), "the table holds glibc's disagreements");
        }
    }

    #[test]
    fn special_values() {
        assert_eq!(ln(0.0), f64::NEG_INFINITY);
        assert_eq!(ln(-0.0), f64::NEG_INFINITY);
        assert_eq!(ln(f64::INFINITY), f64::INFINITY);
        assert_eq!(ln(1.0).to_bits(), 0, "+0");
        for x in [-1.0, -5e-324, f64::NEG_INFINITY, f64::NAN, -f64::NAN] {
            assert!(ln(x).is_nan(), "ln({}) is NaN", x);
        }
    }

    #[test]
    fn ln_each_is_ln_in_every_lane() {
        // Slices of every length up to 13 (whole quads and remainders), special values at random places, so a quad
        // takes the vector path or falls back lane by lane.
        let specials = [0.0, -0.0, -2.0, f64::INFINITY, f64::NAN, 5e-324, 1e-310, 1.0];
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for len in 0..=13usize {
            for _ in 0..200 {
                let v: Vec<f64> = (0..len)
                    .map(|_| {
                        let r = next();
                        if r % 7 == 0 { specials[(r >> 8) as usize % specials.len()] } else { f64::from_bits(r >> 2) }
                    })
                    .collect();
                let mut each = v.clone();
                ln_each(&mut each);
                for (a, &b) in each.iter().zip(&v) {
                    assert!(same(*a, ln(b)), "len {} x {:e}", len, b);
                }
            }
        }
    }

    #[test]
    fn within_an_ulp_of_the_platform() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let v = f64::from_bits(x >> 2);
            let (ours, platform) = (ln(v), v.ln());
            let ulps = (ours.to_bits() as i64 - platform.to_bits() as i64).abs();
            assert!(ulps <= 1, "ln({:e}): {} against {}", v, ours, platform);
        }
    }
}
