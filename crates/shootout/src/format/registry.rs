//! Which formats run on which workload: one line per format.

use anyhow::{Result, bail};

use super::{capnp, flatbuffers, sbe};
use crate::benchmark::Registered;
use crate::workload::iex::Iex;

pub fn iex() -> Vec<Registered<Iex>> {
    vec![
        Registered::of::<capnp::CapnpUnpacked>(),
        Registered::of::<capnp::CapnpPacked>(),
        Registered::of::<flatbuffers::Flatbuffers>(),
        Registered::of::<flatbuffers::FlatbuffersUnchecked>(),
        Registered::of::<sbe::Sbe>(),
    ]
}

/// Keeps the formats named in `wanted` (all when empty), in registry order.
pub fn select<W: crate::workload::Workload>(all: Vec<Registered<W>>, wanted: &[String]) -> Result<Vec<Registered<W>>> {
    if let Some(unknown) = wanted.iter().find(|name| !all.iter().any(|f| f.info.name == name.as_str())) {
        let known: Vec<&str> = all.iter().map(|f| f.info.name).collect();
        bail!("unknown format '{unknown}' for workload {}; known: {}", W::NAME, known.join(", "));
    }
    let selected: Vec<Registered<W>> =
        all.into_iter().filter(|f| wanted.is_empty() || wanted.iter().any(|w| w == f.info.name)).collect();
    if selected.is_empty() {
        bail!("no formats to run for workload {}", W::NAME);
    }
    Ok(selected)
}
