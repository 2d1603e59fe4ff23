//! The submissions: every `solutions/*.rs` (a strategy, which must be accepted),
//! `solutions/wrong/*.rs` (a wrong one, tagged on its first line with the verdict it must get,
//! `// expect: WA`), and the mutants of a strategy (`dp_array#12`), which must be rejected.
//! A tag is read once, here: into `Expect` in `solutions/wrong/`, and noted as `stray_tag` on a
//! strategy, where it means nothing.

use std::fs;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use super::mutate;
use super::shipped::SHIPPED;
use super::verdict::Verdict;
use super::workspace::Workspace;
use crate::exec::compile::Unit;

/// A solution file larger than this is not a LeetCode submission.
pub const SOURCE_LIMIT: u64 = 1 << 20;

/// What a submission must get on the stored cases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// A strategy: AC on every case.
    Accepted,
    /// A wrong submission: this verdict, as its first failure.
    Verdict(Verdict),
    /// A mutant: any failure at all.
    Rejected,
}

#[derive(Clone, Debug)]
pub struct Submission {
    /// `four_scalars`, `wrong/sign_slip`, `dp_array#12`.
    pub name: String,
    /// The file, relative to the workspace: `solutions/four_scalars.rs`.
    pub shown: String,
    /// The text that is compiled: the file, or the mutated file.
    pub source: String,
    pub expect: Expect,
    /// A strategy's first line when it is a tag (`// expect: WA`), which is read only in
    /// `solutions/wrong/`: the report says so.
    pub stray_tag: Option<String>,
}

impl Submission {
    /// An attempt `solutions/<name>.rs` holding `source`, as tests make one.
    #[cfg(test)]
    pub fn attempt(name: &str, source: &str) -> Submission {
        Submission {
            name: name.to_string(),
            shown: format!("solutions/{name}"),
            source: source.to_string(),
            expect: Expect::Accepted,
            stray_tag: None,
        }
    }

    pub fn unit(&self) -> Unit {
        Unit { source: self.source.clone(), shown: self.shown.clone() }
    }

    pub fn is_strategy(&self) -> bool {
        self.expect == Expect::Accepted
    }
}

#[derive(Debug)]
pub enum SubmissionError {
    /// No file by that name; `known` lists every name, for a suggestion.
    Unknown {
        name: String,
        known: Vec<String>,
    },
    Unreadable {
        file: String,
        error: io::Error,
    },
    /// A FIFO, a device, a folder, or larger than SOURCE_LIMIT.
    NotAFile {
        file: String,
    },
    /// Not UTF-8, which rustc reads: the first bad byte, at a line and column (from 1, the
    /// column counted in characters).
    NotUtf8 {
        file: String,
        line: usize,
        column: usize,
        byte: u8,
    },
    /// A wrong submission whose first line is not `// expect: <verdict>`.
    BadTag {
        file: String,
        found: String,
    },
    /// `strategy#index` past the last mutant.
    NoSuchMutant {
        strategy: String,
        index: usize,
        count: usize,
    },
    /// `solutions/` itself could not be listed.
    NoFolder {
        folder: String,
        error: io::Error,
    },
}

/// The solution files of a workspace, by name.
pub struct Catalog {
    /// (name, path), strategies first (a user's attempts before the shipped ones), each group
    /// by name.
    files: Vec<(String, PathBuf)>,
    root: PathBuf,
}

impl Catalog {
    pub fn scan(workspace: &Workspace) -> Result<Catalog, SubmissionError> {
        let mut files = Vec::new();
        for (folder, prefix) in [(workspace.solutions.clone(), ""), (workspace.solutions.join("wrong"), "wrong/")] {
            let listed = match fs::read_dir(&folder) {
                Ok(listed) => listed,
                Err(e) if !prefix.is_empty() && e.kind() == io::ErrorKind::NotFound => continue,
                Err(error) => return Err(SubmissionError::NoFolder { folder: workspace.shown(&folder), error }),
            };
            let mut found: Vec<(String, PathBuf)> = listed
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "rs"))
                .filter_map(|p| Some((format!("{prefix}{}", p.file_stem()?.to_str()?), p)))
                .collect();
            // A user's attempt is listed before the strategies, so that it keeps a column of its own
            // in a narrow matrix.
            found.sort_by_key(|(name, _)| (SHIPPED.contains(&name.as_str()), name.clone()));
            files.extend(found);
        }
        Ok(Catalog { files, root: workspace.root.clone() })
    }

    /// Every name, strategies first.
    pub fn names(&self) -> Vec<String> {
        self.files.iter().map(|(n, _)| n.clone()).collect()
    }

    pub fn strategies(&self) -> Vec<String> {
        self.names().into_iter().filter(|n| !n.starts_with("wrong/")).collect()
    }

    /// `four_scalars`, `solutions/four_scalars.rs`, `wrong/x`, `solutions/wrong/x.rs`, an
    /// absolute path inside the workspace, or `strategy#k` for a mutant: the name it stands for.
    pub fn normalise(&self, name: &str) -> String {
        let path = Path::new(name);
        let relative = path.strip_prefix(&self.root).unwrap_or(path);
        let text = relative.to_string_lossy();
        let text = text.trim_start_matches("./");
        let text = text.strip_prefix("solutions/").unwrap_or(text);
        text.strip_suffix(".rs").unwrap_or(text).to_string()
    }

    pub fn resolve(&self, workspace: &Workspace, name: &str) -> Result<Submission, SubmissionError> {
        let name = self.normalise(name);
        if let Some((strategy, index)) = name.split_once('#') {
            let index = index.parse().map_err(|_| self.unknown(&name))?;
            return self.mutant(workspace, strategy, index);
        }
        let path = &self.files.iter().find(|(n, _)| *n == name).ok_or_else(|| self.unknown(&name))?.1;
        let file = workspace.shown(path);
        let source = read_source(path, &file)?;
        let (expect, stray_tag) = match name.starts_with("wrong/") {
            true => (tag(&source, &file)?, None),
            false => {
                (Expect::Accepted, source.lines().next().filter(|l| l.starts_with(TAG)).map(|l| l.trim().to_string()))
            }
        };
        Ok(Submission { name, shown: file, source, expect, stray_tag })
    }

    /// Mutant `index` of `strategy`, as `judge mutants` numbers them.
    pub fn mutant(&self, workspace: &Workspace, strategy: &str, index: usize) -> Result<Submission, SubmissionError> {
        let original = self.resolve(workspace, strategy)?;
        let mut mutants = mutate::generate(&original.source);
        let count = mutants.len();
        if index >= count {
            return Err(SubmissionError::NoSuchMutant { strategy: original.name, index, count });
        }
        let mutant = mutants.swap_remove(index);
        let name = format!("{}#{index}", original.name);
        Ok(Submission { name, shown: original.shown, source: mutant.source, expect: Expect::Rejected, stray_tag: None })
    }

    /// The named submissions in the order given (each once), or every file when none is named.
    pub fn select(&self, workspace: &Workspace, names: &[String]) -> (Vec<Submission>, Vec<SubmissionError>) {
        let wanted = if names.is_empty() { self.names() } else { names.to_vec() };
        let (mut chosen, mut errors): (Vec<Submission>, Vec<SubmissionError>) = (Vec::new(), Vec::new());
        for name in wanted {
            match self.resolve(workspace, &name) {
                Ok(s) if chosen.iter().any(|c| c.name == s.name) => {}
                Ok(s) => chosen.push(s),
                Err(e) => errors.push(e),
            }
        }
        (chosen, errors)
    }

    fn unknown(&self, name: &str) -> SubmissionError {
        SubmissionError::Unknown { name: name.to_string(), known: self.names() }
    }
}

/// A file anywhere, named by its path (`judge paste ~/drafts/x.rs`): a submission that must be
/// accepted, shown by the path as given.
pub fn outside(path: &Path) -> Result<Submission, SubmissionError> {
    let shown = path.display().to_string();
    let source = read_source(path, &shown)?;
    let name = path.file_stem().map_or_else(|| shown.clone(), |s| s.to_string_lossy().into_owned());
    Ok(Submission { name, shown, source, expect: Expect::Accepted, stray_tag: None })
}

/// Whether `name` may name a new attempt, `solutions/NAME.rs`: ASCII letters, digits, `_`
/// and `-` from a letter, so that it is one word in a shell; the judge takes any such file
/// made by hand, and the editor's project names each file's module itself.
pub fn is_attempt_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && name.len() <= 64
}

/// The file's text, if it is a regular file of a sane size.
fn read_source(path: &Path, file: &str) -> Result<String, SubmissionError> {
    let unreadable = |error| SubmissionError::Unreadable { file: file.to_string(), error };
    let opened = fs::File::open(path).map_err(unreadable)?;
    let meta = opened.metadata().map_err(unreadable)?;
    if !meta.is_file() || meta.len() > SOURCE_LIMIT {
        return Err(SubmissionError::NotAFile { file: file.to_string() });
    }
    let mut bytes = Vec::new();
    opened.take(SOURCE_LIMIT).read_to_end(&mut bytes).map_err(unreadable)?;
    String::from_utf8(bytes).map_err(|error| {
        let good = &error.as_bytes()[..error.utf8_error().valid_up_to()];
        let text = std::str::from_utf8(good).unwrap_or_default();
        let line = text.matches('\n').count() + 1;
        let column = text.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        SubmissionError::NotUtf8 { file: file.to_string(), line, column, byte: error.as_bytes()[good.len()] }
    })
}

/// What a wrong submission's first line starts with.
const TAG: &str = "// expect:";

/// `// expect: WA` on the first line.
fn tag(source: &str, file: &str) -> Result<Expect, SubmissionError> {
    let first = source.lines().next().unwrap_or("");
    let bad = || SubmissionError::BadTag { file: file.to_string(), found: first.to_string() };
    let code = first.strip_prefix(TAG).ok_or_else(bad)?.trim();
    match Verdict::parse(code) {
        Some(Verdict::Ac) | None => Err(bad()),
        Some(verdict) => Ok(Expect::Verdict(verdict)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace() -> Workspace {
        Workspace::find(None).unwrap()
    }

    #[test]
    fn names_paths_and_mutants_resolve_to_the_same_files() {
        let workspace = workspace();
        let catalog = Catalog::scan(&workspace).unwrap();
        let strategies = catalog.strategies();
        assert!(strategies.len() >= 4, "{strategies:?}");
        // A shipped strategy: a user's own file beside it may be anything, even unreadable.
        let first = &"four_scalars".to_string();
        assert!(strategies.contains(first), "{strategies:?}");
        for spelling in [first.clone(), format!("solutions/{first}.rs"), format!("./solutions/{first}.rs")] {
            assert_eq!(catalog.resolve(&workspace, &spelling).unwrap().name, *first);
        }
        let absolute = workspace.solutions.join(format!("{first}.rs"));
        assert_eq!(catalog.resolve(&workspace, absolute.to_str().unwrap()).unwrap().expect, Expect::Accepted);
        let mutant = catalog.resolve(&workspace, &format!("{first}#0")).unwrap();
        assert_eq!((mutant.expect, mutant.shown), (Expect::Rejected, format!("solutions/{first}.rs")));
        assert!(matches!(catalog.resolve(&workspace, "nope"), Err(SubmissionError::Unknown { .. })));
        let past = format!("{first}#999999");
        assert!(matches!(catalog.resolve(&workspace, &past), Err(SubmissionError::NoSuchMutant { .. })));
    }

    #[test]
    fn every_wrong_submission_has_a_tag_other_than_ac() {
        let workspace = workspace();
        let catalog = Catalog::scan(&workspace).unwrap();
        // The bundled wrong submissions only: the user's own files in solutions/ may be anything.
        let names: Vec<String> = catalog.names().into_iter().filter(|n| n.starts_with("wrong/")).collect();
        let (wrong, errors) = catalog.select(&workspace, &names);
        assert!(errors.is_empty(), "{errors:?}");
        let tagged = wrong.iter().filter(|s| matches!(s.expect, Expect::Verdict(_))).count();
        assert_eq!(tagged, names.len());
        assert!(tagged >= 10);
    }

    #[test]
    fn a_file_that_is_not_utf8_is_refused_at_its_first_bad_byte() {
        let dir = std::env::temp_dir().join(format!("judge-utf8-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("latin1.rs");
        fs::write(&path, b"// caf\xe9\nimpl Solution {}\n").unwrap();
        match read_source(&path, "solutions/latin1.rs") {
            Err(SubmissionError::NotUtf8 { line: 1, column: 7, byte: 0xe9, .. }) => {}
            other => panic!("{other:?}"),
        }
        fs::write(&path, "// é\n  x\u{0}".as_bytes().iter().copied().chain([0xff]).collect::<Vec<u8>>()).unwrap();
        match read_source(&path, "solutions/latin1.rs") {
            Err(SubmissionError::NotUtf8 { line: 2, column: 5, byte: 0xff, .. }) => {}
            other => panic!("{other:?}"),
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn attempt_names_are_one_word_in_a_shell() {
        for name in ["dp_array", "stones_four_scalars_unrolled", "my_try", "try2", "a", "my-try", "My_try"] {
            assert!(is_attempt_name(name), "{name}");
        }
        for bad in ["", "my try", "1st", "-x", "wrong/x", "../x", "x.rs", "é", "a$b", &"a".repeat(65)] {
            assert!(!is_attempt_name(bad), "{bad:?}");
        }
    }

    #[test]
    fn tags_are_read_from_the_first_line_only() {
        assert_eq!(tag("// expect: TLE\nfn x() {}", "f").unwrap(), Expect::Verdict(Verdict::Tle));
        assert_eq!(tag("// expect: CE\n", "f").unwrap(), Expect::Verdict(Verdict::Ce));
        for bad in ["// expect: AC", "// expect: maybe", "fn x() {}\n// expect: WA", ""] {
            assert!(matches!(tag(bad, "f"), Err(SubmissionError::BadTag { .. })), "{bad:?}");
        }
    }
}
