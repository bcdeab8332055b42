//! Where a query's time goes, per subject of a dump (bench/kernel-dump.ts): for each ladder step the subject runs,
//! cells and buckets visited, rows in the day window (scanned), rows inside the radius, candidates, qualified; then
//! those counts averaged over subjects grouped by their latency percentile (fastest of REPS passes).
//! `cargo run --release -p avm-kernel --example profile -- DIR`
mod common;

use avm_kernel::geo::{hav_chord, hav_of_mi, lon_half_width, BOX_SLACK, DEG_TO_RAD, EARTH_RADIUS_MI};
use avm_kernel::index::Index;
use avm_kernel::query::{query_into, Scratch, Subject};
use std::time::Instant;

#[derive(Default, Clone, Copy, Debug)]
struct Counts { steps: f64, cells: f64, buckets: f64, bucket_rows: f64, scanned: f64, inside: f64, cands: f64, qualified: f64, rejected: f64 }

fn axis(v: f64, half: f64, origin: f64, size: f64, n: usize) -> (i64, i64) {
    (Index::cell_of(v - half, origin, size).max(0), Index::cell_of(v + half, origin, size).min(n as i64 - 1))
}

fn step_counts(ix: &Index, s: &Subject, r: f64, w: f64, c: &mut Counts) {
    let (slat, slon) = (s.lat * DEG_TO_RAD, s.lon * DEG_TO_RAD);
    let (sx, sy, sz) = (slat.cos() * slon.cos(), slat.cos() * slon.sin(), slat.sin());
    let hmax = hav_of_mi(r);
    let (y0, y1) = axis(slat, r / EARTH_RADIUS_MI * (1.0 + BOX_SLACK), ix.lat0_rad, ix.cell_lat_rad, ix.ny);
    let (x0, x1) = axis(slon, lon_half_width(r, slat) * (1.0 + BOX_SLACK), ix.lon0_rad, ix.cell_lon_rad, ix.nx);
    let day_lo = (s.as_of_day as f64 - w).ceil() as i32;
    for cy in y0..=y1 {
        for cx in x0..=x1 {
            c.cells += 1.0;
            let cell = cy as usize * ix.nx + cx as usize;
            for bk in &ix.buckets[ix.cell_bucket[cell] as usize..ix.cell_bucket[cell + 1] as usize] {
                if bk.county != s.county || bk.ptype != s.ptype || bk.cond_bits & s.stratum_mask == 0 {
                    continue;
                }
                c.buckets += 1.0;
                let (r0, r1) = (bk.start as usize, bk.end as usize);
                c.bucket_rows += (r1 - r0) as f64;
                for i in r0..r1 {
                    let d = ix.sale_day[i];
                    if d < day_lo || d >= s.as_of_day {
                        continue;
                    }
                    c.scanned += 1.0;
                    let u = ix.hot[i].unit;
                    if hav_chord(sx, sy, sz, u[0], u[1], u[2]) > hmax {
                        continue;
                    }
                    c.inside += 1.0;
                    let h = &ix.hot[i];
                    if h.cond_bit & s.stratum_mask != 0 && s.exclude_parcel != Some(h.parcel_idx) {
                        c.cands += 1.0;
                    }
                }
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let d = common::load(&args[1]);
    let reps: usize = std::env::var("REPS").ok().and_then(|v| v.parse().ok()).unwrap_or(5);
    let mut sc = Scratch::default();
    let mut out = Vec::new();
    let n = d.subjects.len();
    let mut best = vec![f64::MAX; n];
    for _ in 0..reps {
        for (k, s) in d.subjects.iter().enumerate() {
            let t = Instant::now();
            out.clear();
            query_into(&d.index, &d.ti, &d.params, s, &mut sc, false, &mut out).unwrap();
            best[k] = best[k].min(t.elapsed().as_nanos() as f64 / 1000.0);
        }
    }
    // Counts per subject: the steps the ladder runs (each step's qualified from a single-step override query).
    let mut counts = vec![Counts::default(); n];
    let mut step_hist = [0usize; 4];
    for (k, s) in d.subjects.iter().enumerate() {
        let c = &mut counts[k];
        for st in 0..s.max_step {
            let (r, w) = (d.params.ladder_radius_mi[st], d.params.ladder_window_days[st]);
            step_counts(&d.index, s, r, w, c);
            let mut one = s.clone();
            one.override_step = Some((r, w));
            out.clear();
            query_into(&d.index, &d.ti, &d.params, &one, &mut sc, true, &mut out).unwrap();
            c.steps += 1.0;
            c.qualified += out[2];
            c.rejected += out[4];
            if out[2] >= d.params.ladder_enough {
                break;
            }
        }
        step_hist[c.steps as usize] += 1;
    }
    println!("steps run: 1: {} 2: {} 3: {}", step_hist[1], step_hist[2], step_hist[3]);
    // SLOW_OUT=file: the slowest 2% of subjects (SUBJECT_LEN f64 each, as subjects.bin) for a profile of the tail.
    if let Ok(path) = std::env::var("SLOW_OUT") {
        let raw = std::fs::read(format!("{}/subjects.bin", &args[1])).expect("subjects");
        let mut by_time: Vec<usize> = (0..n).collect();
        by_time.sort_by(|&a, &b| best[b].total_cmp(&best[a]));
        let rec = avm_kernel::slots::SUBJECT_LEN * 8;
        let slow: Vec<u8> = by_time[..n / 50].iter().flat_map(|&k| raw[k * rec..(k + 1) * rec].to_vec()).collect();
        std::fs::write(path, slow).expect("write");
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| best[a].total_cmp(&best[b]));
    let bands = [(0.0, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 0.9), (0.9, 0.99), (0.99, 1.0)];
    println!("{:>10} {:>7} {:>5} {:>6} {:>7} {:>9} {:>8} {:>7} {:>6} {:>6} {:>6}", "pct", "us", "steps", "cells", "buckets", "bkt_rows", "scanned", "inside", "cands", "qual", "rej");
    for (lo, hi) in bands {
        let sl = &order[(lo * n as f64) as usize..(hi * n as f64) as usize];
        let m = sl.len() as f64;
        let mut a = Counts::default();
        let mut us = 0.0;
        for &k in sl {
            let c = counts[k];
            us += best[k];
            a.steps += c.steps; a.cells += c.cells; a.buckets += c.buckets; a.bucket_rows += c.bucket_rows; a.scanned += c.scanned;
            a.inside += c.inside; a.cands += c.cands; a.qualified += c.qualified; a.rejected += c.rejected;
        }
        println!("{:>4}-{:<5} {:>7.2} {:>5.2} {:>6.1} {:>7.1} {:>9.0} {:>8.0} {:>7.0} {:>6.0} {:>6.1} {:>6.1}", lo, hi, us / m, a.steps / m, a.cells / m, a.buckets / m, a.bucket_rows / m, a.scanned / m, a.inside / m, a.cands / m, a.qualified / m, a.rejected / m);
    }
}
