//! What `NativeKernel.open` receives from JavaScript (the sales columns, borrowed; the time-index series), its
//! content key, and the index build in abi.rs's order (params, deed classes, condition groups, time index, columns).

use crate::key::Key;
use crate::shared::Shared;
use crate::KResult;
use avm_kernel::errors;
use avm_kernel::index::{Index, RawColumns};
use avm_kernel::params::Params;
use avm_kernel::timeindex::{Series, TimeIndex};
use napi::bindgen_prelude::*;
use napi_derive::napi;

/// The sales columns (names as KernelColumns in src/kernel/types.ts), borrowed from JavaScript for the build.
#[napi(object)]
pub struct Columns {
    pub parcel_idx: Uint32Array,
    pub county: Uint8Array,
    pub lat: Float64Array,
    pub lon: Float64Array,
    pub sale_day: Int32Array,
    pub price_usd: Float64Array,
    pub sqft: Float64Array,
    pub beds: Int8Array,
    pub ptype: Uint8Array,
    pub condition: Uint8Array,
    pub deed_type: Uint8Array,
    pub num_parcels: Uint16Array,
}

/// One county's monthly time-index series.
#[napi(object)]
pub struct SeriesInput {
    pub county: u32,
    pub months: Vec<i32>,
    pub levels: Vec<f64>,
}

pub fn content_key(params: &[f64], deed: &[u8], groups: &[u8], series: &[SeriesInput], c: &Columns) -> u64 {
    let mut k = Key::new();
    k.f64s(params).ints(deed).ints(groups);
    for s in series {
        k.ints(&[s.county]).ints(&s.months).f64s(&s.levels);
    }
    k.ints(&c.parcel_idx).ints(&c.county).f64s(&c.lat).f64s(&c.lon).ints(&c.sale_day).f64s(&c.price_usd).f64s(&c.sqft);
    k.ints(&c.beds).ints(&c.ptype).ints(&c.condition).ints(&c.deed_type).ints(&c.num_parcels);
    k.finish()
}

fn raw_columns(c: &Columns) -> KResult<RawColumns> {
    let n = c.lat.len();
    let lens = [c.parcel_idx.len(), c.county.len(), c.lon.len(), c.sale_day.len(), c.price_usd.len(), c.sqft.len(), c.beds.len()];
    let more = [c.ptype.len(), c.condition.len(), c.deed_type.len(), c.num_parcels.len()];
    if lens.iter().chain(more.iter()).any(|&l| l != n) {
        return Err(errors::BAD_COLUMNS);
    }
    Ok(RawColumns {
        parcel_idx: c.parcel_idx.to_vec(),
        county: c.county.to_vec(),
        lat: c.lat.to_vec(),
        lon: c.lon.to_vec(),
        sale_day: c.sale_day.to_vec(),
        price_usd: c.price_usd.to_vec(),
        sqft: c.sqft.to_vec(),
        beds: c.beds.to_vec(),
        ptype: c.ptype.to_vec(),
        condition: c.condition.to_vec(),
        deed_type: c.deed_type.to_vec(),
        num_parcels: c.num_parcels.to_vec(),
    })
}

/// The same steps and order as abi.rs: params, deed classes, condition groups and time index, then the index build.
pub fn build(params: &[f64], deed: &[u8], groups: &[u8], series: &[SeriesInput], c: &Columns, key: u64) -> KResult<Shared> {
    let p = Params::from_slots(params)?;
    if deed.len() != 256 || groups.len() != 256 || deed.iter().any(|&d| d > 2) {
        return Err(errors::BAD_ARGUMENT);
    }
    let (mut deeds, mut cond_group) = ([0u8; 256], [0u8; 256]);
    deeds.copy_from_slice(deed);
    cond_group.copy_from_slice(groups);
    let mut ti = TimeIndex::default();
    for s in series {
        if s.county > 255 {
            return Err(errors::BAD_ARGUMENT);
        }
        ti.set(s.county as u8, Series::new(s.months.clone(), s.levels.clone())?);
    }
    let raw = raw_columns(c)?;
    let index = Index::build(&raw, &p, &deeds, &cond_group, &ti)?;
    Ok(Shared { key, params: p, time_index: ti, index })
}

