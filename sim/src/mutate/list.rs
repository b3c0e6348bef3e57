//! The mutant lists (`testbench/mutants/*.toml`, format in its README.md): parsing, selection, and the check
//! of every entry against the source tree before anything is built.

use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Where the lists live, from the repository root.
pub const LIST_DIR: &str = "testbench/mutants";

/// What a mutant models (issue 11 asks each core's list to cover these).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Deserialize, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Hazard,
    Decision,
    Boundary,
    Readout,
    Csr,
    Enable,
    Reset,
    Width,
}

/// One list file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListFile {
    pub list: ListHead,
    #[serde(default, rename = "mutant")]
    pub mutants: Vec<Mutant>,
}

/// The `[list]` table.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ListHead {
    pub name: String,
    #[serde(default)]
    pub about: String,
    /// `cargo test` arguments after `cargo test --release --workspace` (`--test FILE` and name filters).
    pub tests: Vec<String>,
}

/// One `[[mutant]]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mutant {
    pub id: String,
    pub file: PathBuf,
    pub original: String,
    pub replacement: String,
    /// 1-based; `None`: the original must stand exactly once.
    #[serde(default)]
    pub occurrence: Option<usize>,
    pub kind: Kind,
    pub models: String,
    #[serde(default)]
    pub tests: Option<Vec<String>>,
    /// The tops to rebuild, when not those of the selected tests (see [`TopsMap`]).
    #[serde(default)]
    pub tops: Option<Vec<String>>,
    #[serde(default)]
    pub ci: bool,
    /// Why no test can observe it (not counted in the kill rate).
    #[serde(default)]
    pub equivalent: Option<String>,
}

/// A mutant with its list's name and effective tests.
#[derive(Debug, Clone)]
pub struct Entry {
    pub list: String,
    pub mutant: Mutant,
    pub tests: Vec<String>,
    pub tops: Vec<String>,
}

impl Mutant {
    /// The file's text with this mutant applied, or why it cannot be.
    pub fn apply(&self, text: &str) -> Result<String, String> {
        let starts: Vec<usize> = text.match_indices(&self.original).map(|(i, _)| i).collect();
        let at = match self.occurrence {
            None if starts.len() == 1 => starts[0],
            None => {
                return Err(format!(
                    "its original text stands {} times in {} (say which with `occurrence`)",
                    starts.len(),
                    self.file.display()
                ))
            }
            Some(0) => return Err("`occurrence` counts from 1".into()),
            Some(k) => *starts.get(k - 1).ok_or_else(|| {
                format!("occurrence {k} asked, but its original stands {} times in {}", starts.len(), self.file.display())
            })?,
        };
        Ok(format!("{}{}{}", &text[..at], self.replacement, &text[at + self.original.len()..]))
    }
}

/// The file (beside the lists) that says which tops each co-simulation test runs.
pub const TOPS_FILE: &str = "tops.toml";

/// Test file → test name → the Verilated tops that test runs (`testbench/mutants/tops.toml`).
pub type TopsMap = BTreeMap<String, BTreeMap<String, Vec<String>>>;

/// Reads [`TOPS_FILE`] of `dir`.
pub fn load_tops(dir: &Path) -> Result<TopsMap, String> {
    let p = dir.join(TOPS_FILE);
    let text = std::fs::read_to_string(&p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
    toml::from_str(&text).map_err(|e| format!("{}: {e}", p.display()))
}

/// A mutant's `cargo test` arguments split into its test file (`--test FILE`) and its name filters.
pub fn test_args(args: &[String]) -> Result<(String, Vec<&str>), String> {
    let mut file = None;
    let mut filters = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--test" => file = it.next().cloned(),
            "--" => {}
            f if f.starts_with('-') => return Err(format!("`{f}`: a mutant's tests are `--test FILE` and name filters")),
            f => filters.push(f),
        }
    }
    let file = file.ok_or("a mutant's tests must name a test file (`--test FILE`)")?;
    Ok((file, filters))
}

/// The test file and the tests of it that `cargo test` arguments select (every test the name filters
/// match; all of the file's tests without a filter), among those `map` knows.
pub fn selected_tests<'a>(args: &[String], map: &'a TopsMap) -> Result<(String, Vec<&'a str>), String> {
    let (file, filters) = test_args(args)?;
    let tests = map.get(&file).ok_or_else(|| format!("test file `{file}` is not in {TOPS_FILE}"))?;
    let chosen: Vec<&str> = tests
        .keys()
        .map(String::as_str)
        .filter(|t| filters.is_empty() || filters.iter().any(|f| t.contains(f)))
        .collect();
    if chosen.is_empty() {
        return Err(format!("the filters {filters:?} select no test of `{file}` listed in {TOPS_FILE}"));
    }
    Ok((file, chosen))
}

/// The tops a mutant rebuilds: its own `tops`, else those of the tests its arguments select.
pub fn tops_for(m: &Mutant, tests: &[String], map: &TopsMap) -> Result<Vec<String>, String> {
    if let Some(t) = &m.tops {
        return Ok(t.clone());
    }
    let (file, chosen) = selected_tests(tests, map)?;
    let all: BTreeSet<String> = chosen.iter().flat_map(|t| map[&file][*t].iter().cloned()).collect();
    Ok(all.into_iter().collect())
}

/// Reads every list (`*.toml` of `dir` but [`TOPS_FILE`], sorted by file name).
pub fn load(dir: &Path) -> Result<Vec<ListFile>, String> {
    let rd = std::fs::read_dir(dir).map_err(|e| format!("cannot read the mutant lists in {}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = rd
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml") && !p.ends_with(TOPS_FILE))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err(format!("no mutant lists (*.toml) in {}", dir.display()));
    }
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            toml::from_str::<ListFile>(&text).map_err(|e| format!("{}: {e}", p.display()))
        })
        .collect()
}

/// Every problem of the lists against the tree at `root`: duplicate list names or ids, a file that is not
/// RTL source or does not exist, an original that is not found (or not once), a no-op replacement, an
/// empty test selection or one that selects no test of `tops`. Empty when all is well.
pub fn check(lists: &[ListFile], tops: &TopsMap, root: &Path) -> Vec<String> {
    let mut errs = Vec::new();
    let (mut names, mut ids) = (BTreeSet::new(), BTreeSet::new());
    for l in lists {
        let name = &l.list.name;
        if !names.insert(name.clone()) {
            errs.push(format!("list `{name}` is defined twice"));
        }
        if l.list.tests.is_empty() {
            errs.push(format!("list `{name}`: `tests` is empty"));
        }
        for m in &l.mutants {
            let at = format!("{name}: {}", m.id);
            if !ids.insert(m.id.clone()) {
                errs.push(format!("{at}: duplicate id"));
            }
            if !m.id.starts_with(&format!("{name}.")) {
                errs.push(format!("{at}: ids of list `{name}` start with `{name}.`"));
            }
            if !m.file.starts_with("hdl/src") || m.file.is_absolute() {
                errs.push(format!("{at}: mutants edit RTL source under hdl/src, not {}", m.file.display()));
                continue;
            }
            if m.original == m.replacement {
                errs.push(format!("{at}: the replacement equals the original"));
            }
            if let Err(e) = tops_for(m, m.tests.as_ref().unwrap_or(&l.list.tests), tops) {
                errs.push(format!("{at}: {e}"));
            }
            match std::fs::read_to_string(root.join(&m.file)) {
                Ok(text) => {
                    if let Err(e) = m.apply(&text) {
                        errs.push(format!("{at}: {e}"));
                    }
                }
                Err(e) => errs.push(format!("{at}: cannot read {}: {e}", m.file.display())),
            }
        }
    }
    errs
}

/// What to run: the lists named in `cores` (all when empty), the mutants whose id starts with one of `only`
/// (all when empty: an id, or a prefix such as `fridge.expiry`), the CI subset when `ci`, each with the
/// tops of its tests (`map`). Errors name an unknown list or an `only` that selects nothing.
pub fn select(
    lists: &[ListFile],
    map: &TopsMap,
    cores: &[String],
    only: &[String],
    ci: bool,
) -> Result<Vec<Entry>, String> {
    let known: Vec<&str> = lists.iter().map(|l| l.list.name.as_str()).collect();
    if let Some(c) = cores.iter().find(|c| !known.contains(&c.as_str())) {
        return Err(format!("no mutant list named `{c}`; the lists are: {}", known.join(", ")));
    }
    let mut out = Vec::new();
    for l in lists.iter().filter(|l| cores.is_empty() || cores.contains(&l.list.name)) {
        for m in &l.mutants {
            if ci && !m.ci {
                continue;
            }
            if !only.is_empty() && !only.iter().any(|o| m.id.starts_with(o.as_str())) {
                continue;
            }
            let tests = m.tests.clone().unwrap_or_else(|| l.list.tests.clone());
            let tops = tops_for(m, &tests, map).map_err(|e| format!("{}: {e}", m.id))?;
            out.push(Entry { list: l.list.name.clone(), mutant: m.clone(), tests, tops });
        }
    }
    if let Some(o) = only.iter().find(|o| !out.iter().any(|e| e.mutant.id.starts_with(o.as_str()))) {
        return Err(format!("--only {o}: no selected mutant has that id (see `netmeas mutate --list`)"));
    }
    if out.is_empty() {
        return Err("the selection holds no mutant".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mutant(original: &str, replacement: &str, occurrence: Option<usize>) -> Mutant {
        Mutant {
            id: "t.m".into(),
            file: "hdl/src/x.rs".into(),
            original: original.into(),
            replacement: replacement.into(),
            occurrence,
            kind: Kind::Boundary,
            models: String::new(),
            tests: None,
            tops: None,
            ci: false,
            equivalent: None,
        }
    }

    #[test]
    fn apply_edits_the_named_occurrence_and_refuses_ambiguity() {
        let text = "a < b; c < d;";
        assert_eq!(mutant("c < d", "c <= d", None).apply(text).unwrap(), "a < b; c <= d;");
        assert!(mutant(" < ", " <= ", None).apply(text).unwrap_err().contains("2 times"));
        assert_eq!(mutant(" < ", " <= ", Some(2)).apply(text).unwrap(), "a < b; c <= d;");
        assert!(mutant(" < ", " <= ", Some(3)).apply(text).unwrap_err().contains("occurrence 3"));
        assert!(mutant("x > y", "x >= y", None).apply(text).unwrap_err().contains("0 times"));
    }

    #[test]
    fn check_and_select_report_bad_entries_by_name() {
        let dir = std::env::temp_dir().join(format!("netmeas-mutate-list-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("hdl/src")).unwrap();
        std::fs::write(dir.join("hdl/src/x.rs"), "if a < b { c }").unwrap();
        let text = r#"
            [list]
            name = "t"
            tests = ["--test", "t"]
            [[mutant]]
            id = "t.lt_le"
            file = "hdl/src/x.rs"
            original = 'a < b'
            replacement = 'a <= b'
            kind = "boundary"
            models = "m"
            ci = true
            [[mutant]]
            id = "t.gone"
            file = "hdl/src/x.rs"
            original = 'a > b'
            replacement = 'a >= b'
            kind = "boundary"
            models = "m"
            [[mutant]]
            id = "t.golden"
            file = "golden-model/src/x.rs"
            original = 'a'
            replacement = 'b'
            kind = "decision"
            models = "m"
        "#;
        let lists = vec![toml::from_str::<ListFile>(text).unwrap()];
        let map: TopsMap = toml::from_str("[t]\nt_a_matches = ['top_a']\nt_b_matches = ['top_b', 'top_a']").unwrap();
        let errs = check(&lists, &map, &dir);
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert!(errs[0].contains("t.gone") && errs[0].contains("0 times"));
        assert!(errs[1].contains("t.golden") && errs[1].contains("hdl/src"));
        assert_eq!(select(&lists, &map, &[], &[], true).unwrap().len(), 1);
        let e = &select(&lists, &map, &[], &["t.lt_le".into()], false).unwrap()[0];
        assert_eq!(e.tests, ["--test", "t"]);
        assert_eq!(e.tops, ["top_a", "top_b"]);
        assert!(select(&lists, &map, &["nope".into()], &[], false).unwrap_err().contains("no mutant list named"));
        assert!(select(&lists, &map, &[], &["t.none".into()], false).unwrap_err().contains("--only t.none"));
        let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(selected_tests(&args(&["--test", "t", "--", "b_m"]), &map).unwrap().1, vec!["t_b_matches"]);
        assert!(selected_tests(&args(&["--test", "t", "match_golden"]), &map).unwrap_err().contains("select no test"));
        assert!(selected_tests(&args(&["--test", "u"]), &map).unwrap_err().contains("not in tops.toml"));
        assert!(selected_tests(&args(&["t_a"]), &map).unwrap_err().contains("--test FILE"));
        assert!(toml::from_str::<ListFile>("[list]\nname='t'\ntests=[]\nbogus=1").is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
