//! The first pass (`Near::flags`) eight rows at a time in AVX2 intrinsics, for builds with AVX2 enabled (the native
//! addon's x86-64-v3 build; the WASM module and portable builds never compile this file). The same test and
//! the same f32 operations in the same order as near.rs (no fused multiply-add, ordered compares: a NaN fails), so it
//! keeps the same rows. The eight answers come out as the bits of a byte (movemask), not one byte per row to gather
//! into bits, and the kept rows are appended eight slots at a time, not one by one behind a loop over the bits.
#![allow(unsafe_code)]

use crate::near::{Near, Origin};
use core::arch::x86_64::*;

/// The first pass's columns (Index::near_lat, near_lon, near_sqft, near_tag, padding included).
#[derive(Clone, Copy)]
pub struct Columns<'a> {
    pub lat: &'a [f32],
    pub lon: &'a [f32],
    pub sqft: &'a [f32],
    pub tag: &'a [u32],
}

/// Bit k set when row `at + k` (k < 8) of the columns may pass `Near::flags`' test.
/// Panics unless every column holds the rows at..at + 8 (the columns' padding covers a bucket's last group).
#[inline(always)]
pub fn mask8(near: &Near, o: &Origin, c: Columns, at: usize) -> u8 {
    let (lat, lon, sqft, tag) = (&c.lat[at..at + 8], &c.lon[at..at + 8], &c.sqft[at..at + 8], &c.tag[at..at + 8]);
    // SAFETY: each slice holds 8 elements of 4 bytes (checked above), what each unaligned 256-bit load reads; AVX2 is
    // enabled for the whole build (cfg on this module), so the target-feature function runs on a CPU that has it
    // (the loader checks the CPU against native/target-cpu.json before loading the addon).
    unsafe { mask8_avx2(near, o, lat.as_ptr(), lon.as_ptr(), sqft.as_ptr(), tag.as_ptr()) }
}

/// Appends to `kept` the rows lo..hi (positions in the columns) that may pass `Near::flags`' test, ascending: a group
/// of 8 rows at a time, its kept positions packed to the front of one vector (looked up by the group's mask in
/// `PACKED`) and stored whole, the length then advanced by the count. Panics unless the columns hold the rows up to the
/// end of hi's group of 8 (their padding does).
#[inline(always)]
pub fn keep_rows(near: &Near, o: &Origin, c: Columns, lo: usize, hi: usize, kept: &mut Vec<u32>) {
    kept.reserve(hi - lo + 8);
    let mut at = lo;
    while at < hi {
        let mut m = mask8(near, o, c, at);
        if hi - at < 8 {
            m &= (1u8 << (hi - at)) - 1;
        }
        // SAFETY: `kept` has room for hi - lo + 8 more rows from lo on (reserved above), and at most at - lo were
        // appended before this group, so the 8 slots the store writes from kept.len() are allocated; the length then
        // covers only the slots written with kept rows. AVX2 is enabled for the whole build (cfg).
        unsafe { push_group(kept, at as u32, m) };
        at += 8;
    }
}

/// For each 8-bit mask m, the positions 0..8 of m's set bits, ascending, one per byte from the lowest (the rest 0).
/// A table, not BMI2's `pdep`/`pext`: those are microcoded on AMD before Zen 3 (tens to hundreds of cycles, growing
/// with the mask's bits). On an EPYC of family 23 (Zen 1) the county replay's median was 3.22 us with them, 2.41 with
/// this table and 2.58 with the portable pass (same outputs, fastest of 5 per subject, each figure repeated).
static PACKED: [u64; 256] = packed_positions();

const fn packed_positions() -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut m = 0;
    while m < 256 {
        let (mut packed, mut n, mut k) = (0u64, 0, 0);
        while k < 8 {
            if m & (1 << k) != 0 {
                packed |= (k as u64) << (8 * n);
                n += 1;
            }
            k += 1;
        }
        table[m] = packed;
        m += 1;
    }
    table
}

#[target_feature(enable = "avx2")]
unsafe fn push_group(kept: &mut Vec<u32>, base: u32, m: u8) {
    let len = kept.len();
    let packed = PACKED[m as usize];
    let rows = _mm256_add_epi32(_mm256_cvtepu8_epi32(_mm_cvtsi64_si128(packed as i64)), _mm256_set1_epi32(base as i32));
    _mm256_storeu_si256(kept.as_mut_ptr().add(len) as *mut __m256i, rows);
    kept.set_len(len + m.count_ones() as usize);
}

#[target_feature(enable = "avx2")]
unsafe fn mask8_avx2(p: &Near, o: &Origin, lat: *const f32, lon: *const f32, sqft: *const f32, tag: *const u32) -> u8 {
    let dy = _mm256_sub_ps(_mm256_loadu_ps(lat), _mm256_set1_ps(o.dlat));
    let dx = _mm256_sub_ps(_mm256_loadu_ps(lon), _mm256_set1_ps(o.dlon));
    let a = _mm256_add_ps(_mm256_mul_ps(dy, dy), _mm256_mul_ps(_mm256_set1_ps(p.k), _mm256_mul_ps(dx, dx)));
    let inside = _mm256_castps_si256(_mm256_cmp_ps::<_CMP_LE_OQ>(a, _mm256_set1_ps(p.t)));
    let t = _mm256_loadu_si256(tag as *const __m256i);
    let zero = _mm256_setzero_si256();
    let no_cond = _mm256_cmpeq_epi32(_mm256_and_si256(t, _mm256_set1_epi32(o.cond_req as i32)), zero);
    let unscreened = _mm256_cmpeq_epi32(_mm256_and_si256(t, _mm256_set1_epi32(p.screen_mask as i32)), zero);
    let mut pass = _mm256_andnot_si256(no_cond, _mm256_and_si256(inside, unscreened));
    if p.beds >= 0 {
        let rb = _mm256_srai_epi32::<16>(t);
        let unknown = _mm256_cmpgt_epi32(zero, rb);
        let off = _mm256_cmpgt_epi32(_mm256_abs_epi32(_mm256_sub_epi32(rb, _mm256_set1_epi32(p.beds))), _mm256_set1_epi32(p.beds_max));
        pass = _mm256_and_si256(pass, _mm256_or_si256(unknown, _mm256_andnot_si256(off, _mm256_set1_epi32(-1))));
    }
    if p.gla_on {
        let d = _mm256_and_ps(_mm256_sub_ps(_mm256_loadu_ps(sqft), _mm256_set1_ps(p.sqft)), _mm256_castsi256_ps(_mm256_set1_epi32(0x7fff_ffff)));
        pass = _mm256_and_si256(pass, _mm256_castps_si256(_mm256_cmp_ps::<_CMP_LE_OQ>(d, _mm256_set1_ps(p.gla_max))));
    }
    _mm256_movemask_ps(_mm256_castsi256_ps(pass)) as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::near::tag;

    /// mask8 and keep_rows keep the rows `Near::flags` keeps, bit for bit: rows on either side of the radius threshold
    /// (a few ulps apart), NaN and infinite offsets and sqft, every bedroom count (unknown too), screened rows and every
    /// condition bit; passes with each test on and off (bulk and serving forms). Making one of mask8's compares strict,
    /// letting a NaN pass one, or not masking the rows past a span's end fails it.
    #[test]
    fn mask8_and_keep_rows_equal_flags() {
        let mut x: u64 = 0x2545_F491_4F6C_DD1D;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let t = 3.0e-8f32;
        let mut checked = 0;
        for case in 0..400 {
            let n = 64 + 8;
            let mut near = Near { k: 0.55, t, screen_mask: 0, beds: -1, beds_max: 1, gla_on: false, sqft: 1500.0, gla_max: 300.0 };
            if case % 2 == 1 {
                near.screen_mask = 1 << 8;
            }
            if case % 4 >= 2 {
                near.beds = (next() % 6) as i32;
                near.beds_max = (next() % 3) as i32 - 1;
            }
            if case % 8 >= 4 {
                near.gla_on = true;
            }
            let o = Origin { dlat: 1.0e-4, dlon: -2.0e-4, cond_req: if case % 3 == 0 { 0xff } else { 0b0000_0101 } };
            let (mut lat, mut lon, mut sqft, mut tags) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            for _ in 0..n {
                // Offsets whose A lands within a few ulps of t, or anywhere within twice the radius.
                let r = t.sqrt() * if next() % 2 == 0 { 1.0 + ((next() % 7) as f32 - 3.0) * f32::EPSILON } else { 2.0 * (next() % 1000) as f32 / 1000.0 };
                let along = (next() % 1000) as f32 / 1000.0;
                lat.push(o.dlat + r * along);
                lon.push(o.dlon + r * (1.0 - along * along).sqrt() / near.k.sqrt());
                sqft.push(match next() % 8 {
                    0 => f32::NAN,
                    1 => f32::INFINITY,
                    2 => near.sqft + near.gla_max,
                    3 => near.sqft - near.gla_max * (1.0 + f32::EPSILON),
                    _ => 500.0 + (next() % 3000) as f32,
                });
                let beds = [-1i8, 0, 1, 2, 3, 4, 5, 7, 127, -128][(next() % 10) as usize];
                tags.push(tag(1 << (next() % 8), next() % 4 == 0, beds));
            }
            if case % 50 == 0 {
                lat[3] = f32::NAN;
                lon[5] = f32::INFINITY;
            }
            let mut flags = vec![0u8; n];
            near.flags(&o, &lat, &lon, &sqft, &tags, &mut flags);
            let cols = Columns { lat: &lat, lon: &lon, sqft: &sqft, tag: &tags };
            for at in (0..n - 7).step_by(3) {
                let want = (0..8).fold(0u8, |m, k| m | flags[at + k] << k);
                assert_eq!(mask8(&near, &o, cols, at), want, "case {case} at {at}");
                checked += want.count_ones();
            }
            // keep_rows appends the kept positions of lo..hi after what `kept` holds: spans shorter than a group, of
            // whole groups, ending inside one.
            let lo = (next() % 20) as usize;
            for hi in [lo, lo + 1, lo + 7, lo + 8, lo + 9, lo + 16, 64] {
                let mut kept = vec![7u32; (next() % 3) as usize];
                let mut want = kept.clone();
                want.extend((lo..hi).filter(|&k| flags[k] == 1).map(|k| k as u32));
                keep_rows(&near, &o, cols, lo, hi, &mut kept);
                assert_eq!(kept, want, "case {case} rows {lo}..{hi}");
            }
        }
        assert!(checked > 5_000, "rows kept across the cases: {checked}");
    }

    /// Every mask of a group appends its set bits' rows, ascending, after what `kept` holds: all 256 of them.
    #[test]
    fn push_group_appends_each_masks_rows() {
        for m in 0..=u8::MAX {
            let mut kept = vec![9u32, 4];
            kept.reserve(8);
            // SAFETY: 8 slots reserved past the length (the store's width); AVX2 is enabled for the build (cfg).
            unsafe { push_group(&mut kept, 1000, m) };
            let mut want = vec![9u32, 4];
            want.extend((0..8).filter(|k| m & (1 << k) != 0).map(|k| 1000 + k));
            assert_eq!(kept, want, "mask {m:08b}");
        }
    }
}
