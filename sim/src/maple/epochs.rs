//! A run's stored epochs on disk (`netmeas run maple --save-epochs DIR`, read by `netmeas query maple`).
//!
//! Format `netmeas-maple-epochs`, version 1 ([`FORMAT`], [`VERSION`]): a directory with
//! - `manifest.json` (plain JSON, written last, so a directory without it is an unfinished run):
//!   `format`, `version`, `key_layout` ([`KeyLayout`]: bit fields of the 128-bit keys), `epoch_ns`,
//!   `warmup_epochs`, `setting` (the run's options, free-form) and `seeds`: per seed its `seed`, the
//!   core's `config` (golden `MapleConfig`: key bits, h, m, layout, word width), `tie_break` and `epochs`:
//!   `{epoch, measured, packets, record, truth}` with the two file names;
//! - per seed and epoch a **record** `s<seed>-e<epoch>.json.gz` (gzip'd JSON): `{format, version, seed,
//!   epoch, record}` where `record` is the core's `FlushRecord` (`centers` ns, `count`, `sum` ns, `words`:
//!   the SVBF's `w`-bit words segment by segment, as the flush engine streams them);
//! - and its **truth** `s<seed>-e<epoch>-packets.json.gz`: `{format, version, seed, epoch, keys,
//!   latency_ns}`, the epoch's delivered packets in arrival order (keys as 32 hex digits) and their true
//!   latencies — what the clients know (their keys) plus the ground truth of the evaluation.
//!
//! All numbers are JSON integers (u64 words and sums fit serde_json's integers exactly).

use super::aggregate::KeyLayout;
use super::experiment::{EpochSink, FlushedEpoch, EPOCH_NS, WARMUP_EPOCHS};
use crate::traffic::maple::Delayed;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use golden::maple::{FlushRecord, MapleConfig, TieBreak};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub const FORMAT: &str = "netmeas-maple-epochs";
pub const VERSION: u32 = 1;
pub const MANIFEST: &str = "manifest.json";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub version: u32,
    pub key_layout: KeyLayout,
    pub epoch_ns: u64,
    pub warmup_epochs: usize,
    pub setting: serde_json::Value,
    pub seeds: Vec<SeedEntry>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeedEntry {
    pub seed: u64,
    pub config: MapleConfig,
    pub tie_break: TieBreak,
    pub epochs: Vec<EpochEntry>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EpochEntry {
    pub epoch: usize,
    pub measured: bool,
    pub packets: u64,
    pub record: String,
    /// The packets file (`None`: a run saved without ground truth).
    pub truth: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct RecordFile {
    format: String,
    version: u32,
    seed: u64,
    epoch: usize,
    record: FlushRecord,
}

#[derive(Serialize, Deserialize)]
struct TruthFile {
    format: String,
    version: u32,
    seed: u64,
    epoch: usize,
    keys: Vec<String>,
    latency_ns: Vec<u32>,
}

fn write_gz<T: Serialize>(path: &Path, v: &T) -> Result<(), String> {
    let f = std::fs::File::create(path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let mut gz = GzEncoder::new(std::io::BufWriter::new(f), flate2::Compression::fast());
    serde_json::to_writer(&mut gz, v).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    gz.finish().map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(())
}

fn read_gz<T: DeserializeOwned>(path: &Path) -> Result<T, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    serde_json::from_reader(GzDecoder::new(std::io::BufReader::new(f)))
        .map_err(|e| format!("{} is not a stored epoch of this format: {e}", path.display()))
}

/// Writes the epochs of a run as they come ([`EpochSink`]); [`EpochWriter::finish`] writes the manifest.
#[derive(Debug)]
pub struct EpochWriter {
    dir: PathBuf,
    setting: serde_json::Value,
    seeds: Mutex<Vec<SeedEntry>>,
}

impl EpochWriter {
    /// Creates `dir` (it may exist, but must not hold a manifest: a stored run is not overwritten).
    pub fn create(dir: &Path, setting: serde_json::Value) -> Result<EpochWriter, String> {
        std::fs::create_dir_all(dir).map_err(|e| format!("--save-epochs {}: {e}", dir.display()))?;
        if dir.join(MANIFEST).exists() {
            return Err(format!("--save-epochs {}: already holds a stored run (remove it first)", dir.display()));
        }
        Ok(EpochWriter { dir: dir.to_path_buf(), setting, seeds: Mutex::new(vec![]) })
    }

    /// The manifest of what was written (seeds and epochs ascending), written to `manifest.json`.
    pub fn finish(self) -> Result<Manifest, String> {
        let mut seeds = self.seeds.into_inner().map_err(|_| "a writer thread panicked".to_string())?;
        seeds.sort_by_key(|s| s.seed);
        seeds.iter_mut().for_each(|s| s.epochs.sort_by_key(|e| e.epoch));
        let m = Manifest {
            format: FORMAT.into(),
            version: VERSION,
            key_layout: KeyLayout::maple(),
            epoch_ns: EPOCH_NS,
            warmup_epochs: WARMUP_EPOCHS,
            setting: self.setting,
            seeds,
        };
        let path = self.dir.join(MANIFEST);
        let text = serde_json::to_string_pretty(&m).map_err(|e| e.to_string())?;
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        Ok(m)
    }
}

impl EpochSink for EpochWriter {
    fn epoch(&self, e: &FlushedEpoch) -> Result<(), String> {
        let FlushedEpoch { seed, epoch, measured, cfg, tie, record, packets } = *e;
        let (rec, truth) = (format!("s{seed}-e{epoch:04}.json.gz"), format!("s{seed}-e{epoch:04}-packets.json.gz"));
        let r = RecordFile { format: FORMAT.into(), version: VERSION, seed, epoch, record: record.clone() };
        write_gz(&self.dir.join(&rec), &r)?;
        let t = TruthFile {
            format: FORMAT.into(),
            version: VERSION,
            seed,
            epoch,
            keys: packets.iter().map(|d| format!("{:032x}", d.key)).collect(),
            latency_ns: packets.iter().map(|d| d.latency).collect(),
        };
        write_gz(&self.dir.join(&truth), &t)?;
        let entry = EpochEntry { epoch, measured, packets: packets.len() as u64, record: rec, truth: Some(truth) };
        let mut seeds = self.seeds.lock().map_err(|_| "a writer thread panicked".to_string())?;
        match seeds.iter_mut().find(|s| s.seed == seed) {
            Some(s) => s.epochs.push(entry),
            None => seeds.push(SeedEntry { seed, config: cfg.clone(), tie_break: tie, epochs: vec![entry] }),
        }
        Ok(())
    }
}

/// A stored run: its directory and manifest.
#[derive(Debug, Clone)]
pub struct StoredRun {
    pub dir: PathBuf,
    pub manifest: Manifest,
}

impl StoredRun {
    /// Opens `dir` (checks the manifest's format and version).
    pub fn open(dir: &Path) -> Result<StoredRun, String> {
        if !dir.is_dir() {
            return Err(format!("--epochs {}: no such directory", dir.display()));
        }
        let path = dir.join(MANIFEST);
        let text = std::fs::read_to_string(&path).map_err(|e| {
            format!(
                "--epochs {}: no {MANIFEST} ({e}); write one with `netmeas run maple --save-epochs DIR`",
                dir.display()
            )
        })?;
        let head: serde_json::Value =
            serde_json::from_str(&text).map_err(|e| format!("{}: not JSON: {e}", path.display()))?;
        if head["format"] != FORMAT {
            return Err(format!("{}: format {} is not {FORMAT}", path.display(), head["format"]));
        }
        if head["version"] != VERSION {
            return Err(format!(
                "{}: version {} (this netmeas reads version {VERSION})",
                path.display(),
                head["version"]
            ));
        }
        let manifest: Manifest =
            serde_json::from_value(head).map_err(|e| format!("{}: corrupt manifest: {e}", path.display()))?;
        if manifest.seeds.is_empty() {
            return Err(format!("{}: no seeds stored", path.display()));
        }
        Ok(StoredRun { dir: dir.to_path_buf(), manifest })
    }

    /// The seed entry of `seed` (`None`: the first stored).
    pub fn seed(&self, seed: Option<u64>) -> Result<&SeedEntry, String> {
        let seeds = &self.manifest.seeds;
        match seed {
            None => Ok(&seeds[0]),
            Some(s) => seeds.iter().find(|e| e.seed == s).ok_or_else(|| {
                let have: Vec<String> = seeds.iter().map(|e| e.seed.to_string()).collect();
                format!("--seed {s}: not stored (stored: {})", have.join(", "))
            }),
        }
    }

    /// The flushed record of an epoch.
    pub fn record(&self, seed: &SeedEntry, e: &EpochEntry) -> Result<FlushRecord, String> {
        let f: RecordFile = read_gz(&self.dir.join(&e.record))?;
        if (f.seed, f.epoch) != (seed.seed, e.epoch) || f.version != VERSION {
            return Err(format!(
                "{}: holds seed {} epoch {}, the manifest says seed {} epoch {}",
                e.record, f.seed, f.epoch, seed.seed, e.epoch
            ));
        }
        Ok(f.record)
    }

    /// The packets of an epoch (`None`: saved without them).
    pub fn truth(&self, seed: &SeedEntry, e: &EpochEntry) -> Result<Option<Vec<Delayed>>, String> {
        let Some(name) = &e.truth else { return Ok(None) };
        let f: TruthFile = read_gz(&self.dir.join(name))?;
        if f.keys.len() != f.latency_ns.len()
            || f.keys.len() as u64 != e.packets
            || f.epoch != e.epoch
            || f.seed != seed.seed
        {
            return Err(format!(
                "{name}: {} keys and {} latencies where the manifest says {} packets of seed {} epoch {}",
                f.keys.len(),
                f.latency_ns.len(),
                e.packets,
                seed.seed,
                e.epoch
            ));
        }
        f.keys
            .iter()
            .zip(&f.latency_ns)
            .map(|(k, &latency)| {
                let key = u128::from_str_radix(k, 16).map_err(|_| format!("{name}: bad key {k:?}"))?;
                Ok(Delayed { key, latency })
            })
            .collect::<Result<Vec<_>, String>>()
            .map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::maple::clustering::Scheme;
    use crate::maple::experiment::{run_with, Budget, Setup, Source, StoreKind};
    use crate::maple::query::{Combine, QueryEngine, Timing};
    use crate::traffic::maple::MapleTraffic;

    /// The writer, keeping what it was handed.
    type Kept = (u64, usize, MapleConfig, FlushRecord, Vec<Delayed>);
    struct Keep(EpochWriter, Mutex<Vec<Kept>>);

    impl EpochSink for Keep {
        fn epoch(&self, e: &FlushedEpoch) -> Result<(), String> {
            self.1.lock().unwrap().push((e.seed, e.epoch, e.cfg.clone(), e.record.clone(), e.packets.to_vec()));
            self.0.epoch(e)
        }
    }

    fn temp(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("netmeas-epochs-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn stored_epochs_answer_bit_for_bit_as_before_the_save() {
        let dir = temp("roundtrip");
        let t = MapleTraffic { epochs: 4, packets_per_epoch: 5_000, ..MapleTraffic::default() };
        let setup = Setup {
            stores: vec![StoreKind::Svbf],
            schemes: vec![Scheme::Hybrid],
            seeds: 2,
            ..Setup::paper(Source::Synthetic(t), Budget::Memory(0.1e6))
        };
        let keep = Keep(EpochWriter::create(&dir, serde_json::json!({"test": true})).unwrap(), Mutex::new(vec![]));
        run_with(&setup, &|| {}, Some(&keep)).unwrap();
        let (w, kept) = (keep.0, keep.1.into_inner().unwrap());
        let m = w.finish().unwrap();
        assert_eq!((m.seeds.len(), kept.len()), (2, 8));
        let stored = StoredRun::open(&dir).unwrap();
        assert_eq!(stored.manifest, m);
        assert!(EpochWriter::create(&dir, serde_json::Value::Null).unwrap_err().contains("already holds"));
        for (seed, epoch, cfg, record, packets) in &kept {
            let s = stored.seed(Some(*seed)).unwrap();
            let e = s.epochs.iter().find(|e| e.epoch == *epoch).unwrap();
            assert_eq!((&s.config, e.measured), (cfg, *epoch >= WARMUP_EPOCHS));
            assert_eq!(&stored.record(s, e).unwrap(), record);
            assert_eq!(stored.truth(s, e).unwrap().as_ref(), Some(packets));
            let (mut before, mut after) =
                (QueryEngine::new(cfg.clone(), TieBreak::Count), QueryEngine::new(s.config.clone(), s.tie_break));
            before.add(*epoch, record).unwrap();
            after.add(*epoch, &stored.record(s, e).unwrap()).unwrap();
            for d in packets {
                let t = Timing::exact(*epoch);
                assert_eq!(before.query(d.key, t, Combine::Union), after.query(d.key, t, Combine::Union));
                assert_eq!(before.lookup(*epoch, d.key), after.lookup(*epoch, d.key));
            }
        }
        // Damage: a truncated record, a record of another epoch, a manifest of another version, none.
        let s = &stored.manifest.seeds[0];
        let rec = dir.join(&s.epochs[1].record);
        let bytes = std::fs::read(&rec).unwrap();
        std::fs::write(&rec, &bytes[..bytes.len() / 2]).unwrap();
        assert!(stored.record(s, &s.epochs[1]).unwrap_err().contains("not a stored epoch"));
        std::fs::copy(dir.join(&s.epochs[2].record), &rec).unwrap();
        assert!(stored.record(s, &s.epochs[1]).unwrap_err().contains("manifest says"));
        let text = std::fs::read_to_string(dir.join(MANIFEST)).unwrap();
        std::fs::write(dir.join(MANIFEST), text.replacen("\"version\": 1", "\"version\": 7", 1)).unwrap();
        assert!(StoredRun::open(&dir).unwrap_err().contains("version 7"));
        std::fs::write(dir.join(MANIFEST), "{").unwrap();
        assert!(StoredRun::open(&dir).unwrap_err().contains("not JSON"));
        std::fs::remove_file(dir.join(MANIFEST)).unwrap();
        assert!(StoredRun::open(&dir).unwrap_err().contains("no manifest.json"));
        assert!(StoredRun::open(&dir.join("nothing")).unwrap_err().contains("no such directory"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
