//! Where the workspace is: the folder holding `solutions/` and `testcases/`, found from the
//! working directory upwards, else where the judge was built. Paths are shown relative to it.

use std::path::{Path, PathBuf};

#[derive(Clone, Debug)]
pub struct Workspace {
    pub root: PathBuf,
    pub solutions: PathBuf,
    /// The folder of suites: `testcases/`, or `--cases DIR`.
    pub cases: PathBuf,
    /// Compiled submissions: `target/judge/` (or `$JUDGE_CACHE`).
    pub cache: PathBuf,
}

/// No workspace could be found.
#[derive(Debug)]
pub struct NoWorkspace {
    pub searched_from: PathBuf,
}

impl Workspace {
    /// The workspace around the working directory, or the one the judge was built in.
    pub fn find(cases: Option<&Path>) -> Result<Workspace, NoWorkspace> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let built_in = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = cwd
            .ancestors()
            .find(|dir| is_workspace(dir))
            .or_else(|| is_workspace(built_in).then_some(built_in))
            .ok_or(NoWorkspace { searched_from: cwd.clone() })?
            .to_path_buf();
        let cases = match cases {
            Some(dir) if dir.is_absolute() => dir.to_path_buf(),
            Some(dir) => cwd.join(dir),
            None => root.join("testcases"),
        };
        let cache = match std::env::var_os("JUDGE_CACHE") {
            Some(dir) if !dir.is_empty() => PathBuf::from(dir),
            _ => root.join("target").join("judge"),
        };
        Ok(Workspace { solutions: root.join("solutions"), root, cases, cache })
    }

    /// `path` relative to the workspace when it lies inside it, else as it is.
    pub fn shown(&self, path: &Path) -> String {
        let relative = path.strip_prefix(&self.root).unwrap_or(path);
        relative.display().to_string()
    }
}

fn is_workspace(dir: &Path) -> bool {
    dir.join("solutions").is_dir() && dir.join("Cargo.toml").is_file()
}
