//! Stored cases: `<cases>/<suite>/<name>.in` with its `<name>.out`. A suite is any folder
//! directly under the cases folder. A case file is read only if it is a regular file of at
//! most `CASE_FILE_LIMIT` bytes; anything else is a judge error for that case alone, naming
//! the path, and every other case is still judged.
//!
//! A `.in` may hold several testcases, one a line, as LeetCode's testcase box takes them, and
//! its `.out` their answers, one a line in the same order: such a file is a group, judged as
//! one case (one row, one batch), each of its testcases named `suite/name:LINE` by its line in
//! the `.in`; `--case suite/name:LINE` chooses that testcase alone.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::parallel;
use crate::problem::format::{self, FormatError};
use crate::problem::generator::Every;
use crate::problem::Answer;

/// The largest case file read: a 50,000-value input is under 300 KB.
pub const CASE_FILE_LIMIT: u64 = 16 << 20;

#[derive(Clone, Debug)]
pub struct Case {
    /// `suite/name`, the id used by `--case` and in reports; `suite/name:LINE` for the one
    /// testcase of a group that `--case` chose.
    pub id: String,
    pub input: PathBuf,
    /// Its testcases, in the file's order: one, or in a group one a line.
    pub tests: Vec<Test>,
    /// Whether its file holds several testcases, one a line: each is then named by its line.
    pub lines: bool,
    /// The range its testcases are every array of, in order, when they are exactly that.
    pub every: Option<Every>,
}

/// One testcase: an input and its stored answer.
#[derive(Clone, Debug)]
pub struct Test {
    /// The line of the `.in` it starts on.
    pub line: usize,
    pub values: Vec<i32>,
    pub expected: Answer,
}

impl Case {
    /// A case of one testcase that no file holds (`judge run`'s inputs).
    pub fn given(id: String, values: Vec<i32>, expected: Answer) -> Case {
        let test = Test { line: 1, values, expected };
        Case { id, input: "<input>".into(), tests: vec![test], lines: false, every: None }
    }

    pub fn suite(&self) -> &str {
        self.id.split('/').next().unwrap_or("")
    }

    pub fn output(&self) -> PathBuf {
        self.input.with_extension("out")
    }

    /// Several testcases judged as one: a group.
    pub fn is_group(&self) -> bool {
        self.tests.len() > 1
    }

    /// The id of its testcase `t`, as `--case` takes it: `suite/name:LINE` in a group.
    pub fn test_id(&self, t: usize) -> String {
        match self.is_group() {
            true => format!("{}:{}", self.id, self.tests[t].line),
            false => self.id.clone(),
        }
    }

    /// The line of the `.in` its testcase `t` stands on, where the file holds several.
    pub fn line(&self, t: usize) -> Option<usize> {
        self.lines.then(|| self.tests[t].line)
    }

    /// The most piles of any of its testcases.
    pub fn longest(&self) -> usize {
        self.tests.iter().map(|t| t.values.len()).max().unwrap_or(0)
    }
}

/// Why one case (or one suite) could not be read.
#[derive(Debug)]
pub enum CaseProblem {
    Unreadable {
        path: PathBuf,
        error: io::Error,
    },
    /// A FIFO, a device, a folder: not a regular file.
    NotAFile {
        path: PathBuf,
    },
    TooLarge {
        path: PathBuf,
        bytes: u64,
    },
    Format {
        path: PathBuf,
        error: FormatError,
    },
    /// One of the two files is missing.
    Unpaired {
        present: PathBuf,
        missing: PathBuf,
    },
    /// A name the judge does not read as a case: `.IN`, `.Out`, or not valid UTF-8.
    OddName {
        path: PathBuf,
    },
}

#[derive(Debug)]
pub struct BadCase {
    pub id: String,
    pub problem: CaseProblem,
}

/// Why no case could be looked for at all.
#[derive(Debug)]
pub enum CasesError {
    /// The cases folder does not exist or cannot be listed.
    Missing { root: PathBuf, error: io::Error },
    /// The folder holds cases itself: it is a suite, and `--cases` wants the folder of suites.
    IsASuite { root: PathBuf },
}

pub struct Loaded {
    pub cases: Vec<Case>,
    pub bad: Vec<BadCase>,
}

/// Every case under `root` whose id matches one of `patterns` (all when there are none), in
/// suite order (samples, edge, then by name) and natural order within a suite, parsed on every
/// core. A file whose name is almost a case's (`x.IN`) is a bad case, not skipped in silence.
pub fn load(root: &Path, patterns: &[String]) -> Result<Loaded, CasesError> {
    // One slot per case to read, in order; what cannot be read as a case fills its slot now.
    let mut slots: Vec<Result<Wanted, BadCase>> = Vec::new();
    for suite in suites(root)? {
        let dir = root.join(&suite);
        let listed = match pairs(&dir) {
            Ok(listed) => listed,
            Err(error) => {
                slots.push(Err(BadCase { id: suite, problem: CaseProblem::Unreadable { path: dir, error } }));
                continue;
            }
        };
        for path in listed.odd {
            slots.push(Err(BadCase {
                id: format!("{suite}/{}", path_name(&path)),
                problem: CaseProblem::OddName { path },
            }));
        }
        for (name, present) in listed.pairs {
            if let Some(chosen) = chosen(patterns, &suite, &name) {
                slots.push(Ok((format!("{suite}/{name}"), dir.join(format!("{name}.in")), present, chosen)));
            }
        }
    }
    let read = parallel::map(slots.len(), parallel::cores(), |at| match &slots[at] {
        Ok((id, input, present, _)) => Some(read_case(id, input, *present)),
        Err(_) => None,
    });
    let mut loaded = Loaded { cases: Vec::with_capacity(slots.len()), bad: Vec::new() };
    for (slot, read) in slots.into_iter().zip(read) {
        let chosen = slot.as_ref().ok().and_then(|(_, _, _, chosen)| chosen.clone());
        match read.unwrap_or_else(|| Err(slot.expect_err("a slot not read is a bad case"))) {
            Ok(case) => loaded.cases.extend(choose(case, chosen)),
            Err(problem) => loaded.bad.push(problem),
        }
    }
    Ok(loaded)
}

/// Whether `--case` patterns choose the case `suite/name`: None when none does; Some(None)
/// for all of it; Some(lines) for only those lines of a group.
fn chosen(patterns: &[String], suite: &str, name: &str) -> Option<Option<Vec<usize>>> {
    if patterns.is_empty() {
        return Some(None);
    }
    let mut lines = Vec::new();
    for (pattern, line) in patterns.iter().map(|p| split_line(p)) {
        match (matches(pattern, suite, name), line) {
            (false, _) => {}
            (true, None) => return Some(None),
            (true, Some(line)) => lines.push(line),
        }
    }
    (!lines.is_empty()).then_some(Some(lines))
}

/// A pattern and the line it names: `short/len-1-to-5:17` is line 17 of that case.
fn split_line(pattern: &str) -> (&str, Option<usize>) {
    match pattern.rsplit_once(':') {
        Some((case, line)) if !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit()) => (case, line.parse().ok()),
        _ => (pattern, None),
    }
}

/// The case, or, when lines were chosen, one case per chosen testcase of it (named by its
/// line in a group); none where no testcase stands on a chosen line.
fn choose(case: Case, lines: Option<Vec<usize>>) -> Vec<Case> {
    let Some(mut lines) = lines else { return vec![case] };
    lines.sort_unstable();
    lines.dedup();
    if !case.lines {
        let first = case.tests.first().map(|t| t.line);
        return if lines.iter().any(|l| Some(*l) == first) { vec![case] } else { Vec::new() };
    }
    let found = lines.iter().filter_map(|line| case.tests.iter().position(|t| t.line == *line));
    found
        .map(|t| Case {
            id: case.test_id(t),
            input: case.input.clone(),
            tests: vec![case.tests[t].clone()],
            lines: true,
            every: None,
        })
        .collect()
}

fn path_name(path: &Path) -> String {
    path.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}

/// A case to read: its id, its `.in` path, which of its two files exist, and the lines chosen
/// of it (None: all).
type Wanted = (String, PathBuf, (bool, bool), Option<Vec<usize>>);

fn read_case(id: &str, input: &Path, (has_in, has_out): (bool, bool)) -> Result<Case, BadCase> {
    let output = input.with_extension("out");
    let read = match (has_in, has_out) {
        (true, false) => Err(CaseProblem::Unpaired { present: input.to_path_buf(), missing: output }),
        (false, true) => Err(CaseProblem::Unpaired { present: output, missing: input.to_path_buf() }),
        _ => read_pair(input, &output),
    };
    match read {
        Ok(tests) => {
            let lines = tests.len() > 1;
            let every = lines.then(|| Every::of(tests.iter().map(|t| t.values.as_slice()))).flatten();
            Ok(Case { id: id.to_string(), input: input.to_path_buf(), tests, lines, every })
        }
        Err(problem) => Err(BadCase { id: id.to_string(), problem }),
    }
}

/// The suite folders under `root`, samples and edge first.
pub fn suites(root: &Path) -> Result<Vec<String>, CasesError> {
    let listed = fs::read_dir(root).map_err(|error| CasesError::Missing { root: root.to_path_buf(), error })?;
    let mut names = Vec::new();
    for entry in listed.filter_map(Result::ok) {
        let path = entry.path();
        if path.extension().is_some_and(|e| e == "in") {
            return Err(CasesError::IsASuite { root: root.to_path_buf() });
        }
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() && !name.starts_with('.') {
            names.push(name);
        }
    }
    let rank = |n: &str| ["samples", "edge"].iter().position(|s| *s == n).unwrap_or(2);
    names.sort_by(|a, b| rank(a).cmp(&rank(b)).then_with(|| natural_cmp(a, b)));
    Ok(names)
}

/// What a suite folder holds: case names, each with whether its `.in` and `.out` exist, and
/// files named almost like a case.
struct Listed {
    pairs: Vec<(String, (bool, bool))>,
    odd: Vec<PathBuf>,
}

fn pairs(dir: &Path) -> io::Result<Listed> {
    let mut found: BTreeMap<String, (bool, bool)> = BTreeMap::new();
    let mut odd = Vec::new();
    for entry in fs::read_dir(dir)? {
        let path = entry?.path();
        let (Some(stem), Some(ext)) = (path.file_stem(), path.extension()) else { continue };
        let (stem, ext) = (stem.to_str(), ext.to_string_lossy());
        match (stem, ext.as_ref()) {
            (Some(stem), "in") => found.entry(stem.to_string()).or_default().0 = true,
            (Some(stem), "out") => found.entry(stem.to_string()).or_default().1 = true,
            (_, ext) if ext.eq_ignore_ascii_case("in") || ext.eq_ignore_ascii_case("out") => odd.push(path),
            _ => {}
        }
    }
    let mut pairs: Vec<_> = found.into_iter().collect();
    pairs.sort_by(|a, b| natural_cmp(&a.0, &b.0));
    odd.sort();
    Ok(Listed { pairs, odd })
}

/// The testcases of a `.in`, each with its line and the answer its `.out` gives it.
pub fn read_pair(input: &Path, output: &Path) -> Result<Vec<Test>, CaseProblem> {
    let text = read_case_file(input)?;
    let inputs =
        format::parse_lines(&text).map_err(|error| CaseProblem::Format { path: input.to_path_buf(), error })?;
    let text = read_case_file(output)?;
    let answers = format::parse_outputs(&text, inputs.len())
        .map_err(|error| CaseProblem::Format { path: output.to_path_buf(), error })?;
    Ok(inputs.into_iter().zip(answers).map(|((line, values), expected)| Test { line, values, expected }).collect())
}

/// A case file's text, if it is a regular file within the size limit.
pub fn read_case_file(path: &Path) -> Result<String, CaseProblem> {
    let (file, _) = open_case_file(path)?;
    read_text(file, path)
}

/// Opens a case file without blocking, so a FIFO cannot hang the judge, and checks what was
/// opened, so what is read is what was checked: a regular file within the size limit.
fn open_case_file(path: &Path) -> Result<(File, fs::Metadata), CaseProblem> {
    let unreadable = |error| CaseProblem::Unreadable { path: path.to_path_buf(), error };
    let file = open_without_blocking(path).map_err(unreadable)?;
    let meta = file.metadata().map_err(unreadable)?;
    if !meta.is_file() {
        return Err(CaseProblem::NotAFile { path: path.to_path_buf() });
    }
    if meta.len() > CASE_FILE_LIMIT {
        return Err(CaseProblem::TooLarge { path: path.to_path_buf(), bytes: meta.len() });
    }
    Ok((file, meta))
}

fn read_text(file: File, path: &Path) -> Result<String, CaseProblem> {
    let unreadable = |error| CaseProblem::Unreadable { path: path.to_path_buf(), error };
    let mut bytes = Vec::new();
    file.take(CASE_FILE_LIMIT + 1).read_to_end(&mut bytes).map_err(unreadable)?;
    if bytes.len() as u64 > CASE_FILE_LIMIT {
        return Err(CaseProblem::TooLarge { path: path.to_path_buf(), bytes: bytes.len() as u64 });
    }
    String::from_utf8(bytes).map_err(|_| unreadable(io::Error::new(io::ErrorKind::InvalidData, "not UTF-8")))
}

fn open_without_blocking(path: &Path) -> io::Result<File> {
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting.
        options.custom_flags(0o4000);
    }
    options.open(path)
}

/// `--case` matching: the whole id, the suite or the name, with `*` as a wildcard.
pub fn matches(pattern: &str, suite: &str, name: &str) -> bool {
    let id = format!("{suite}/{name}");
    [id.as_str(), suite, name].iter().any(|text| glob(pattern, text))
}

/// `*` matches any run of characters, everything else itself. The pieces between stars are
/// found left to right, each at its first place after the last: linear in the text, however
/// many stars the pattern has.
fn glob(pattern: &str, text: &str) -> bool {
    let pieces: Vec<&str> = pattern.split('*').collect();
    let [first, middle @ .., last] = pieces.as_slice() else { return text == pattern };
    let Some(mut rest) = text.strip_prefix(first) else { return false };
    for piece in middle {
        match rest.find(piece) {
            Some(at) => rest = &rest[at + piece.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// Orders digit runs by value, so `case-9` sorts before `case-10`.
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    let key = |s: &str| {
        let mut parts: Vec<(String, u64)> = Vec::new();
        let (mut text, mut digits) = (String::new(), String::new());
        for c in s.chars().chain(std::iter::once('\0')) {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            if !digits.is_empty() {
                parts.push((std::mem::take(&mut text), digits.parse().unwrap_or(u64::MAX)));
                digits.clear();
            }
            text.push(c);
        }
        parts.push((text, 0));
        parts
    };
    key(a).cmp(&key(b)).then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order_puts_9_before_10() {
        let mut names = vec!["example-10", "example-9", "example-1", "a"];
        names.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(names, ["a", "example-1", "example-9", "example-10"]);
    }

    #[test]
    fn case_patterns_match_suite_name_id_and_wildcards() {
        assert!(matches("*", "edge", "tie-1"));
        assert!(matches("e*e/t*-1", "edge", "tie-1"));
        assert!(matches("*ie-1", "edge", "tie-1"));
        assert!(!matches("t*e*e-1", "edge", "tie-1"));
        assert!(matches("edge", "edge", "tie-1"));
        assert!(matches("tie-1", "edge", "tie-1"));
        assert!(matches("edge/t*", "edge", "tie-1"));
        assert!(matches("*50000*", "stress", "uniform-50000-1"));
        assert!(!matches("edg", "edge", "tie-1"));
        assert!(!matches("samples", "edge", "tie-1"));
    }

    #[test]
    fn many_stars_match_in_linear_time() {
        let text = "a".repeat(5000);
        let pattern = format!("{}b", "*a".repeat(40));
        let start = std::time::Instant::now();
        assert!(!glob(&pattern, &text));
        assert!(glob(&"*a".repeat(40), &text));
        // Exponential backtracking takes minutes here; the pieces' search takes microseconds.
        assert!(start.elapsed() < std::time::Duration::from_secs(1), "{:?}", start.elapsed());
    }

    #[test]
    fn a_file_of_several_testcases_is_one_group_and_a_line_of_it_can_be_chosen() {
        let dir = std::env::temp_dir().join(format!("judge-group-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("short")).unwrap();
        let every = Every { max_len: 2, low: -1, high: 1 };
        let arrays = every.all().unwrap();
        let answers: Vec<Answer> = arrays.iter().map(|a| crate::problem::oracle::answer(a)).collect();
        fs::write(dir.join("short/all.in"), format::write_inputs(&arrays)).unwrap();
        fs::write(dir.join("short/all.out"), format::write_outputs(&answers)).unwrap();
        fs::write(dir.join("short/one.in"), "[0]\n").unwrap();
        fs::write(dir.join("short/one.out"), "\"Tie\"\n").unwrap();
        let loaded = load(&dir, &[]).unwrap();
        assert!(loaded.bad.is_empty(), "{:?}", loaded.bad);
        let group = &loaded.cases[0];
        assert_eq!((group.id.as_str(), group.tests.len(), group.every), ("short/all", 12, Some(every)));
        assert_eq!((group.test_id(4), group.tests[4].values.clone()), ("short/all:5".to_string(), vec![-1, 0]));
        assert!(group.tests.iter().zip(&answers).all(|(t, a)| t.expected == *a));
        assert!(!loaded.cases[1].is_group() && !loaded.cases[1].lines && loaded.cases[1].every.is_none());
        let chosen = load(&dir, &["all:5".to_string(), "short/all:99".to_string()]).unwrap();
        assert_eq!(chosen.cases.len(), 1);
        assert_eq!((chosen.cases[0].id.as_str(), chosen.cases[0].line(0)), ("short/all:5", Some(5)));
        assert_eq!(chosen.cases[0].tests[0].values, [-1, 0]);
        assert!(load(&dir, &["short/all:13".to_string()]).unwrap().cases.is_empty());
        assert_eq!(load(&dir, &["one:1".to_string()]).unwrap().cases[0].id, "short/one");
        // One answer short: the error names the .out's line and column.
        let short = format::write_outputs(&answers[..11]);
        fs::write(dir.join("short/all.out"), &short).unwrap();
        let loaded = load(&dir, &[]).unwrap();
        match &loaded.bad[0].problem {
            CaseProblem::Format { path, error } => {
                assert!(path.ends_with("short/all.out"));
                assert_eq!((error.line, error.column), (12, 1));
            }
            other => panic!("{other:?}"),
        }
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn names_almost_like_a_case_are_reported() {
        let dir = std::env::temp_dir().join(format!("judge-odd-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("suite")).unwrap();
        for name in ["a.in", "a.out", "b.IN", "b.out", "notes.txt"] {
            let text = if name.ends_with(".out") { "\"Alice\"\n" } else { "[1]\n" };
            fs::write(dir.join("suite").join(name), text).unwrap();
        }
        let loaded = load(&dir, &[]).unwrap();
        assert_eq!(loaded.cases.len(), 1);
        let problems: Vec<String> = loaded.bad.iter().map(|b| format!("{} {:?}", b.id, b.problem)).collect();
        assert!(problems.iter().any(|p| p.starts_with("suite/b.IN OddName")), "{problems:?}");
        assert!(problems.iter().any(|p| p.starts_with("suite/b Unpaired")), "{problems:?}");
        fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn devices_fifos_and_huge_files_are_refused_without_hanging() {
        let dir = std::env::temp_dir().join(format!("judge-cases-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let fifo = dir.join("fifo.in");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        assert!(matches!(read_case_file(&fifo), Err(CaseProblem::NotAFile { .. })));
        let zero = dir.join("zero.in");
        std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
        assert!(matches!(read_case_file(&zero), Err(CaseProblem::NotAFile { .. })));
        let big = dir.join("big.in");
        File::create(&big).unwrap().set_len(CASE_FILE_LIMIT + 1).unwrap();
        assert!(matches!(read_case_file(&big), Err(CaseProblem::TooLarge { .. })));
        fs::remove_dir_all(&dir).unwrap();
    }
}
