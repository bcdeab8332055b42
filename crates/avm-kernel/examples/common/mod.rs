//! Loading a dump written by bench/kernel-dump.ts (shared by the replay and profile examples).
use avm_kernel::index::{Index, RawColumns};
use avm_kernel::params::Params;
use avm_kernel::query::Subject;
use avm_kernel::slots::{subject_from_slots, SUBJECT_LEN};
use avm_kernel::timeindex::{Series, TimeIndex};

fn read(dir: &str, name: &str) -> Vec<u8> {
    std::fs::read(format!("{}/{}", dir, name)).unwrap_or_else(|e| panic!("{}: {}", name, e))
}
fn f64s(b: &[u8]) -> Vec<f64> {
    b.chunks_exact(8).map(|c| f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]])).collect()
}
fn col<T: Copy, const N: usize>(b: &[u8], f: fn([u8; N]) -> T) -> Vec<T> {
    b.chunks_exact(N).map(|c| { let mut a = [0u8; N]; a.copy_from_slice(c); f(a) }).collect()
}

pub struct Dump {
    pub params: Params,
    pub ti: TimeIndex,
    pub index: Index,
    pub subjects: Vec<Subject>,
}

pub fn load(dir: &str) -> Dump {
    let c = RawColumns {
        parcel_idx: col(&read(dir, "col0.bin"), u32::from_le_bytes),
        county: read(dir, "col1.bin"),
        lat: f64s(&read(dir, "col2.bin")),
        lon: f64s(&read(dir, "col3.bin")),
        sale_day: col(&read(dir, "col4.bin"), i32::from_le_bytes),
        price_usd: f64s(&read(dir, "col5.bin")),
        sqft: f64s(&read(dir, "col6.bin")),
        beds: read(dir, "col7.bin").iter().map(|&b| b as i8).collect(),
        ptype: read(dir, "col8.bin"),
        condition: read(dir, "col9.bin"),
        deed_type: read(dir, "col10.bin"),
        num_parcels: col(&read(dir, "col11.bin"), u16::from_le_bytes),
    };
    let p = Params::from_slots(&f64s(&read(dir, "params.bin"))).expect("params");
    let mut deed = [0u8; 256];
    deed.copy_from_slice(&read(dir, "deed.bin"));
    let mut groups = [0u8; 256];
    groups.copy_from_slice(&read(dir, "groups.bin"));
    let ti_raw = f64s(&read(dir, "ti.bin"));
    let mut ti = TimeIndex::default();
    let mut k = 0;
    while k < ti_raw.len() {
        let (county, n) = (ti_raw[k] as u8, ti_raw[k + 1] as usize);
        let months = ti_raw[k + 2..k + 2 + n].iter().map(|&m| m as i32).collect();
        let levels = ti_raw[k + 2 + n..k + 2 + 2 * n].to_vec();
        ti.set(county, Series::new(months, levels).expect("series"));
        k += 2 + 2 * n;
    }
    let t0 = std::time::Instant::now();
    let index = Index::build(&c, &p, &deed, &groups, &ti).expect("index");
    eprintln!("index: {} rows in {:?}", index.len(), t0.elapsed());
    let subj = f64s(&read(dir, "subjects.bin"));
    let subjects = subj.chunks_exact(SUBJECT_LEN).map(|s| subject_from_slots(s).expect("subject")).collect();
    Dump { params: p, ti, index, subjects }
}
