// Hand-computed cases of the full query: ladder steps, date window edges, screens and their precedence, GLA
// adjustment, MAD trim, empty and single-comp inputs, ranking ties. Distances: 1° of latitude = 3958.8 × π/180
// = 69.0941 mi, so a comp d miles due north sits at lat + d / 69.0941.
use avm_kernel::index::{Index, RawColumns, R_DUPLICATE, R_GLA_BAND, R_PPSF_OUTLIER_MAD, R_PRICE_UNDER_FLOOR, R_RAPID_RESALE, R_BEDS_BAND};
use avm_kernel::params::{Params, DEED_QUITCLAIM, DEED_NON_ARMS};
use avm_kernel::query::{query, Outcome, Scratch, Subject};
use avm_kernel::timeindex::{Series, TimeIndex};

const MI_PER_DEG: f64 = 69.094_1;
const LAT: f64 = 42.0;
const LON: f64 = -87.7;
const AS_OF: i32 = 20_000;

fn params() -> Params {
    Params::from_slots(&[
        0.2, 1.0, 0.5, 0.75, 1.0, 180.0, 270.0, 365.0, 3.0, 1.4826, 5.0, 12.0, 0.08, 0.75, 1.3, 0.15, 0.5, 10_000.0,
        365.0, 90.0, 0.4, 0.3, 0.2, 0.1, 1.0,
    ])
    .unwrap()
}

fn deeds() -> [u8; 256] {
    let mut d = [0u8; 256];
    d[3] = DEED_QUITCLAIM;
    for c in [4usize, 5, 6, 99] {
        d[c] = DEED_NON_ARMS;
    }
    d
}

/// The host's strata as condition groups: renovated and new together, distressed and dated together.
fn groups() -> [u8; 256] {
    let mut g = [9u8; 256];
    g[2] = 1;
    g[3] = 1;
    g[0] = 0;
    g[1] = 0;
    g
}

#[derive(Clone, Copy)]
struct Sale { north_mi: f64, age_days: i32, price: f64, sqft: f64, beds: i8, parcel: u32, deed: u8 }

fn sale(north_mi: f64, age_days: i32, price: f64, parcel: u32) -> Sale {
    Sale { north_mi, age_days, price, sqft: 1500.0, beds: 3, parcel, deed: 1 }
}

fn build(sales: &[Sale], ti: &TimeIndex) -> Index {
    let mut c = RawColumns::default();
    for s in sales {
        c.parcel_idx.push(s.parcel);
        c.county.push(1);
        c.lat.push(LAT + s.north_mi / MI_PER_DEG);
        c.lon.push(LON);
        c.sale_day.push(AS_OF - s.age_days);
        c.price_usd.push(s.price);
        c.sqft.push(s.sqft);
        c.beds.push(s.beds);
        c.ptype.push(0);
        c.condition.push(2);
        c.deed_type.push(s.deed);
        c.num_parcels.push(1);
    }
    Index::build(&c, &params(), &deeds(), &groups(), ti).unwrap()
}

fn subject() -> Subject {
    Subject { lat: LAT, lon: LON, sqft: 1500.0, beds: 3, ptype: 0, county: 1, as_of_day: AS_OF, stratum_mask: 0b1100, exclude_parcel: None, max_step: 3, override_step: None }
}

fn run(sales: &[Sale], s: &Subject) -> Outcome {
    run_ti(sales, s, &TimeIndex::default())
}

fn run_ti(sales: &[Sale], s: &Subject, ti: &TimeIndex) -> Outcome {
    query(&build(sales, ti), ti, &params(), s, &mut Scratch::default(), true).unwrap()
}

fn rows(o: &Outcome) -> Vec<u32> {
    let mut r: Vec<u32> = o.selected.iter().map(|c| c.row).collect();
    r.sort_unstable();
    r
}

#[test]
fn ladder_stops_at_first_step_with_five() {
    let near: Vec<Sale> = (0..5).map(|k| sale(0.3, 30 + k, 300_000.0, k as u32)).collect();
    assert_eq!(run(&near, &subject()).step, 1);
    // 4 within 0.5 mi, 2 more at 0.6 mi: step 1 has 4 < 5, step 2 has 6.
    let mut mixed: Vec<Sale> = (0..4).map(|k| sale(0.3, 30, 300_000.0, k)).collect();
    mixed.push(sale(0.6, 30, 300_000.0, 10));
    mixed.push(sale(0.6, 31, 300_000.0, 11));
    let o = run(&mixed, &subject());
    assert_eq!((o.step, o.n_qualified), (2, 6));
}

#[test]
fn ladder_without_enough_takes_most_then_earliest() {
    let two = vec![sale(0.3, 30, 300_000.0, 0), sale(0.3, 31, 300_000.0, 1)];
    // 2 qualified at every step: the earliest step wins the tie.
    assert_eq!(run(&two, &subject()).step, 1);
    let mut three = two.clone();
    three.push(sale(0.9, 30, 300_000.0, 2));
    assert_eq!(run(&three, &subject()).step, 3);
    let mut s = subject();
    s.max_step = 2;
    assert_eq!(run(&three, &s).step, 1);
}

#[test]
fn date_window_is_half_open_before_as_of() {
    // age 0 is the as-of day itself (future leakage), 180 is the step-1 edge, 181 is outside step 1.
    let sales = vec![sale(0.1, 0, 300_000.0, 0), sale(0.1, 180, 300_000.0, 1), sale(0.1, 181, 300_000.0, 2)];
    let mut s = subject();
    s.max_step = 1;
    assert_eq!(rows(&run(&sales, &s)), vec![1]);
}

#[test]
fn radius_edge_and_exclusion() {
    let sales = vec![sale(0.499, 10, 300_000.0, 0), sale(0.501, 10, 300_000.0, 1), sale(0.2, 10, 300_000.0, 7)];
    let mut s = subject();
    s.max_step = 1;
    s.exclude_parcel = Some(7);
    let o = run(&sales, &s);
    assert_eq!(rows(&o), vec![0]);
    assert!((o.selected[0].dist_mi - 0.499).abs() < 1e-4);
}

#[test]
fn screens_and_their_precedence() {
    let mut quit_cheap = sale(0.1, 10, 5_000.0, 1);
    quit_cheap.deed = 3; // quitclaim and under $10k: price_under_10k comes first
    let sales = vec![
        sale(0.1, 300, 250_000.0, 2),
        sale(0.1, 200, 250_000.0, 2), // same parcel, same price, 100 days after: duplicate
        sale(0.1, 100, 260_000.0, 3),
        sale(0.1, 40, 280_000.0, 3), // 60 days after a different price: rapid resale
        quit_cheap,
    ];
    let mut s = subject();
    s.override_step = Some((1.0, 400.0));
    let o = run(&sales, &s);
    assert_eq!(o.rejected, vec![(1, R_DUPLICATE), (3, R_RAPID_RESALE), (4, R_PRICE_UNDER_FLOOR)]);
    assert_eq!(o.step, 0);
}

#[test]
fn gla_and_beds_bands() {
    let mut big = sale(0.1, 10, 300_000.0, 0);
    big.sqft = 1801.0; // > 1500 × 1.2 = 1800
    let mut edge = sale(0.1, 10, 300_000.0, 1);
    edge.sqft = 1800.0; // on the band edge: kept
    let mut beds = sale(0.1, 10, 300_000.0, 2);
    beds.beds = 5; // |5 - 3| = 2 > 1
    let o = run(&[big, edge, beds], &subject());
    assert_eq!(o.rejected, vec![(0, R_GLA_BAND), (2, R_BEDS_BAND)]);
    assert_eq!(rows(&o), vec![1]);
}

#[test]
fn gla_adjustment_by_hand() {
    // Two comps of 1400 sqft at $280,000 ($200/sf): marginal = 0.5 × 200 = $100/sf; adj = 100 × (1500 − 1400)
    // = $10,000 (cap 15% × 280,000 = $42,000 does not bind); adjusted = $290,000.
    let mut a = sale(0.1, 10, 280_000.0, 0);
    a.sqft = 1400.0;
    let mut b = a;
    b.parcel = 1;
    let o = run(&[a, b], &subject());
    assert!((o.selected[0].gla_adj - 10_000.0).abs() < 1e-6);
    assert!((o.summary.median - 290_000.0).abs() < 1e-6);
    assert_eq!(o.summary.fsd, 0.0);
}

#[test]
fn mad_trim_rejects_outlier_but_not_when_mad_is_zero() {
    // ln $/sf of 200, 210, 190, 205, 195 and 1000: median ≈ ln 202.5, MAD ≈ 0.0385, limit 3 × 1.4826 × MAD ≈ 0.171;
    // ln(1000/202.5) = 1.60 is trimmed. (All sqft 1500, so no GLA adjustment.)
    let ppsf = [200.0, 210.0, 190.0, 205.0, 195.0, 1000.0];
    let sales: Vec<Sale> = ppsf.iter().enumerate().map(|(k, p)| sale(0.1, 10, p * 1500.0, k as u32)).collect();
    let o = run(&sales, &subject());
    assert_eq!(o.rejected, vec![(5, R_PPSF_OUTLIER_MAD)]);
    assert_eq!(o.n_qualified, 5);
    // Five identical $/sf and one outlier: MAD = 0, so nothing is trimmed.
    let flat: Vec<Sale> = [200.0, 200.0, 200.0, 200.0, 200.0, 1000.0].iter().enumerate().map(|(k, p)| sale(0.1, 10, p * 1500.0, k as u32)).collect();
    assert_eq!(run(&flat, &subject()).n_qualified, 6);
}

#[test]
fn empty_and_single() {
    let o = run(&[], &subject());
    assert_eq!((o.step, o.n_qualified, o.summary.n), (1, 0, 0));
    assert!(o.summary.median.is_nan());
    let one = run(&[sale(0.2, 10, 310_000.0, 0)], &subject());
    assert_eq!((one.summary.n, one.summary.median, one.summary.q25, one.summary.fsd), (1, 310_000.0, 310_000.0, 0.0));
}

#[test]
fn ties_rank_by_distance_then_recency_then_row() {
    // Identical comps except row: identical similarity, distance and date, so lower row first.
    let sales: Vec<Sale> = (0..3).map(|k| sale(0.2, 10, 300_000.0, k)).collect();
    let o = run(&sales, &subject());
    let order: Vec<u32> = o.selected.iter().map(|c| c.row).collect();
    assert_eq!(order, vec![0, 1, 2]);
}

#[test]
fn max_twelve_selected() {
    let sales: Vec<Sale> = (0..20).map(|k| sale(0.01 * k as f64, 10 + k as i32, 300_000.0, k as u32)).collect();
    let o = run(&sales, &subject());
    assert_eq!((o.n_qualified, o.selected.len()), (20, 12));
    // Nearest and most recent first: rows 0..11.
    assert_eq!(rows(&o), (0..12).collect::<Vec<u32>>());
}

#[test]
fn time_index_cap_in_query() {
    // Level doubles from the sale month to the as-of month; 100 days = 0.2738 years, cap = 1.08^0.2738 = 1.02130.
    let mut ti = TimeIndex::default();
    let m_asof = avm_kernel::dates::month_number(AS_OF);
    ti.set(1, Series::new(vec![m_asof - 12, m_asof], vec![1.0, 2.0]).unwrap());
    let o = run_ti(&[sale(0.1, 100, 300_000.0, 0)], &subject(), &ti);
    let expected = (100.0 / 365.2425 * 1.08f64.ln()).exp();
    assert!((o.selected[0].index_factor - expected).abs() < 1e-12);
    assert!((expected - 1.021_297).abs() < 1e-5);
}

#[test]
fn strata_select_conditions_including_unknown() {
    // Conditions: distressed 0, dated 1, renovated 2, new 3, unknown 255. ARV = {2, 3}; as-is = {0, 1};
    // mixed = everything but {2, 3} (bit 7 stands for unknown).
    let conds = [0u8, 1, 2, 3, 255];
    let mut c = RawColumns::default();
    for (k, cond) in conds.iter().enumerate() {
        c.parcel_idx.push(k as u32);
        c.county.push(1);
        c.lat.push(LAT + 0.1 / MI_PER_DEG);
        c.lon.push(LON);
        c.sale_day.push(AS_OF - 10 - k as i32);
        c.price_usd.push(300_000.0);
        c.sqft.push(1500.0);
        c.beds.push(3);
        c.ptype.push(0);
        c.condition.push(*cond);
        c.deed_type.push(1);
        c.num_parcels.push(1);
    }
    let ti = TimeIndex::default();
    let ix = Index::build(&c, &params(), &deeds(), &groups(), &ti).unwrap();
    let rows_for = |mask: u8| {
        let mut s = subject();
        s.stratum_mask = mask;
        let mut r: Vec<u32> = query(&ix, &ti, &params(), &s, &mut Scratch::default(), true).unwrap().selected.iter().map(|c| c.row).collect();
        r.sort_unstable();
        r
    };
    assert_eq!(rows_for(0b0000_1100), vec![2, 3]);
    assert_eq!(rows_for(0b0000_0011), vec![0, 1]);
    assert_eq!(rows_for(0b1111_0011), vec![0, 1, 4]);
}

#[test]
fn bulk_form_equals_the_serving_form_without_its_rejections() {
    // The bulk form (no rejection list) keeps a row inside the radius by computing every test at once (no branch per
    // test); the serving form gives each row its one reason in precedence order. Both must keep the same rows. Rows on
    // both band edges (1200 and 1800 for 1500 sqft), just past them, unusable sqft (NaN, 0, negative),
    // bedroom misses, a screened row, prices spread enough for the MAD trim; subject sqft known and unknown.
    let sqfts = [1500.0, 1200.0, 1800.0, 1199.999, 1800.001, f64::NAN, 0.0, -5.0, 1350.0, 1650.0, 900.0, 2400.0];
    let mut sales = Vec::new();
    for k in 0..60u32 {
        let mut s = sale(0.02 * (k % 23) as f64, 3 + (k as i32 * 37) % 360, 200_000.0 + 7_919.0 * ((k * 13) % 29) as f64, k);
        s.sqft = sqfts[k as usize % sqfts.len()];
        s.beds = [3, 2, 4, 5, -1][k as usize % 5];
        s.deed = if k % 17 == 0 { 3 } else { 1 };
        sales.push(s);
    }
    let ti = TimeIndex::default();
    let ix = build(&sales, &ti);
    let bits = |o: &Outcome| {
        let comps: Vec<Vec<u64>> = o.selected.iter().map(|c| vec![c.row as u64, c.dist_mi.to_bits(), c.index_factor.to_bits(), c.adjusted_price.to_bits(), c.gla_adj.to_bits(), c.similarity.to_bits()]).collect();
        let m = &o.summary;
        (o.step, o.n_qualified, comps, [m.n as u64, m.median.to_bits(), m.q25.to_bits(), m.q75.to_bits(), m.fsd.to_bits()])
    };
    for sqft in [1500.0, 1000.0, f64::NAN] {
        for max_step in 1..=3 {
            let s = Subject { sqft, max_step, ..subject() };
            let serving = query(&ix, &ti, &params(), &s, &mut Scratch::default(), true).unwrap();
            let bulk = query(&ix, &ti, &params(), &s, &mut Scratch::default(), false).unwrap();
            assert!(serving.rejected.iter().any(|r| r.1 == R_GLA_BAND) || sqft.is_nan(), "sqft {sqft}: the band rejects rows");
            assert!(serving.n_qualified > 0 && bulk.rejected.is_empty());
            assert_eq!(bits(&bulk), bits(&serving), "sqft {sqft} max_step {max_step}");
        }
    }
}

#[test]
fn a_scratch_reused_across_subjects_and_indexes_answers_as_a_fresh_one() {
    // A Scratch keeps buffers and memos between queries (the time factor by day, radius constants). A query that
    // follows another with the same box, differing only in stratum, ptype, county, as-of day, window start or index,
    // must get what a fresh Scratch gives: every ordered pair of such subjects, on one index and across two.
    // Conditions 2 and 3 share a bucket (group 1), so a stratum holding one of them needs the per-row condition test.
    let ti = TimeIndex::default();
    let index_of = |shift: f64, price: f64| {
        let mut c = RawColumns::default();
        for k in 0..120u32 {
            // A cluster 2.5 miles north too (other cells, other buckets).
            let far = if k >= 90 { 2.5 } else { 0.0 };
            let (north, east) = (0.03 * (k % 31) as f64 - 0.4 + shift + far, 0.05 * (k % 7) as f64 - 0.15);
            c.parcel_idx.push(k);
            c.county.push(1 + (k % 11 == 0) as u8);
            c.lat.push(LAT + north / MI_PER_DEG);
            c.lon.push(LON + east / (MI_PER_DEG * (LAT * std::f64::consts::PI / 180.0).cos()));
            c.sale_day.push(AS_OF - 5 - (k as i32 * 41) % 400);
            c.price_usd.push(price + 3_001.0 * ((k * 17) % 23) as f64);
            c.sqft.push(1300.0 + 10.0 * (k % 30) as f64);
            c.beds.push(3);
            c.ptype.push((k % 13 == 0) as u8);
            c.condition.push([2, 3, 2, 0][k as usize % 4]);
            c.deed_type.push(1);
            c.num_parcels.push(1);
        }
        Index::build(&c, &params(), &deeds(), &groups(), &ti).unwrap()
    };
    let indexes = [index_of(0.0, 200_000.0), index_of(0.11, 310_000.0)];
    let base = Subject { stratum_mask: 0b1100, ..subject() };
    let over = |as_of_day: i32, w: f64| Subject { as_of_day, override_step: Some((0.6, w)), ..base.clone() };
    let subjects = [
        base.clone(),
        Subject { lat: LAT + 0.01 / MI_PER_DEG, ..base.clone() },
        Subject { lat: LAT + 0.35 / MI_PER_DEG, ..base.clone() },
        Subject { lat: LAT + 2.5 / MI_PER_DEG, ..base.clone() },
        Subject { stratum_mask: 0b0100, ..base.clone() },
        Subject { stratum_mask: 0b0001, ..base.clone() },
        Subject { ptype: 1, ..base.clone() },
        Subject { county: 2, ..base.clone() },
        Subject { as_of_day: AS_OF - 30, ..base.clone() },
        Subject { max_step: 1, ..base.clone() },
        // Same window start (as_of − w), other as-of day; same as-of day, other window start.
        over(AS_OF, 200.0),
        over(AS_OF - 60, 140.0),
        over(AS_OF, 100.0),
    ];
    let mut found = 0;
    for a in &subjects {
        for b in &subjects {
            for (ia, ib) in [(0, 0), (0, 1)] {
                for with_rejected in [true, false] {
                    let mut shared = Scratch::default();
                    query(&indexes[ia], &ti, &params(), a, &mut shared, with_rejected).unwrap();
                    let after = query(&indexes[ib], &ti, &params(), b, &mut shared, with_rejected).unwrap();
                    let fresh = query(&indexes[ib], &ti, &params(), b, &mut Scratch::default(), with_rejected).unwrap();
                    // Debug text: every value round-trips through it, and a NaN summary equals itself there.
                    assert_eq!(format!("{after:?}"), format!("{fresh:?}"), "{b:?} after {a:?}, indexes {ia} {ib}");
                    found += fresh.selected.len();
                }
            }
        }
    }
    assert!(found > 2000, "the subjects find comps: {found}");
}
