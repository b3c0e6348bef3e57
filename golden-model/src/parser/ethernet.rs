//! Ethernet II header and VLAN tags: decides where the IP header starts and which ethertype it has.
//!
//! A frame starts with destination and source MAC (12 bytes) and a 2-byte ethertype. While that ethertype
//! is a VLAN TPID — 0x8100 (802.1Q), 0x88A8 (802.1ad), and with [`ParserConfig::legacy_tpids`] the
//! pre-standard QinQ values 0x9100, 0x9200, 0x9300 — a 2-byte TCI and the next ethertype follow. At most
//! [`ParserConfig::max_vlan_tags`] tags are taken (two in hardware: the parser has one comparator stage per
//! tag); a further TPID is [`Drop::TooManyVlanTags`]. The frame ending inside the header or a tag is
//! [`Drop::TruncatedL2`]. Ethertypes below 0x0600 (802.3 lengths, LLC) are just "not IP".

use super::{Drop, ParserConfig, View, Vlan};

/// Ethernet II header bytes (MACs and ethertype).
pub const HEADER_LEN: usize = 14;
/// VLAN tag bytes (TCI and the next ethertype).
pub const TAG_LEN: usize = 4;
pub const ETH_IPV4: u16 = 0x0800;
pub const ETH_IPV6: u16 = 0x86DD;
/// 802.1Q and 802.1ad TPIDs.
pub const TPIDS: [u16; 2] = [0x8100, 0x88A8];
/// Pre-standard QinQ TPIDs (accepted with [`ParserConfig::legacy_tpids`]).
pub const LEGACY_TPIDS: [u16; 3] = [0x9100, 0x9200, 0x9300];

/// Whether `ethertype` announces a VLAN tag under `cfg`.
pub fn is_tpid(ethertype: u16, cfg: &ParserConfig) -> bool {
    TPIDS.contains(&ethertype) || (cfg.legacy_tpids && LEGACY_TPIDS.contains(&ethertype))
}

/// Skip the VLAN tags that follow an ethertype field ending at `at`: the tags, the offset of the header
/// after them and its ethertype.
pub(crate) fn tags(
    v: &View,
    mut at: usize,
    mut ethertype: u16,
    cfg: &ParserConfig,
) -> Result<(Vlan, usize, u16), Drop> {
    let mut vlan = Vlan::default();
    while is_tpid(ethertype, cfg) {
        if vlan.tags == cfg.max_vlan_tags {
            return Err(Drop::TooManyVlanTags);
        }
        v.need(at + TAG_LEN, Drop::TruncatedL2)?;
        if let Some(t) = vlan.tci.get_mut(vlan.tags) {
            *t = v.be16(at);
        }
        ethertype = v.be16(at + 2);
        vlan.tags += 1;
        at += TAG_LEN;
    }
    Ok((vlan, at, ethertype))
}
