//! A stable digest for cache keys and generated names (std's hasher may change between Rust releases):
//! FNV-1a, 64 bits, over the parts, each followed by a 0xff byte (which no UTF-8 text contains, so
//! `["ab", "c"]` and `["a", "bc"]` differ).

/// FNV-1a (64 bits) of `parts`, each part followed by 0xff.
pub fn fnv1a(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain(std::iter::once(0xff)) {
            h = (h ^ b as u64).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    h
}

#[cfg(test)]
mod tests {
    /// The published FNV-1a test vector (offset basis and prime), and the part separator.
    #[test]
    fn matches_fnv1a_and_separates_parts() {
        // FNV-1a 64 of "a" is 0xaf63dc4c8601ec8c; here "a" is followed by 0xff.
        let a = (0xaf63_dc4c_8601_ec8cu64 ^ 0xff).wrapping_mul(0x0000_0100_0000_01b3);
        assert_eq!(super::fnv1a(&["a"]), a);
        assert_ne!(super::fnv1a(&["ab", "c"]), super::fnv1a(&["a", "bc"]));
    }
}
