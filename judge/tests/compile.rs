//! Compiled as LeetCode compiles it, and a build cache that can be trusted: LeetCode's own
//! Rust where it is installed and words that say what is not checked where it is not, the
//! `--leetcode-rust` value checked everywhere, `paste` of a file anywhere, `run`'s warning of
//! newer items, a cache an unconfined run cannot poison into a sandboxed one, and a full disk
//! that is the judge's error, not the file's.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{judge, solution, text, Copy, Json, CORRECT, JUDGE};

const UPCASTING: &str = "judge/tests/paste/trait_upcasting.rs";

/// The files of a folder, every level down.
fn files(folder: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir(folder).into_iter().flatten().flatten() {
        match entry.file_type() {
            Ok(t) if t.is_dir() => found.extend(files(&entry.path())),
            Ok(_) => found.push(entry.path()),
            Err(_) => {}
        }
    }
    found
}

#[test]
fn a_newer_language_feature_is_refused_by_leetcodes_own_rust_and_said_unchecked_without_it() {
    let copy = Copy::new("upcasting", &["samples"]);
    copy.write("solutions/upcast.rs", &std::fs::read_to_string(crate::common::source().join(UPCASTING)).unwrap());
    // 1.85 is LeetCode's and what CI installs; a 1.84 toolchain is rarely there, so 1.84 shows
    // the way without one. Each branch says what it must.
    let mut own_seen = false;
    for version in ["1.85", "1.84"] {
        let pasted = copy.judge(&["paste", "upcast", "--leetcode-rust", version, "--format", "json"]);
        let report = pasted.json();
        let judged = copy.judge(&["--solution", "upcast", "--case", "samples", "--leetcode-rust", version]);
        let json =
            copy.judge(&["--solution", "upcast", "--case", "samples", "--leetcode-rust", version, "--format", "json"]);
        let verdict = text(solution(&json.json(), "upcast"), "verdict").to_string();
        match text(&report, "newer_than_leetcode_checked") {
            "everything" => {
                own_seen = true;
                assert_eq!(
                    (pasted.status, report.get("ready")),
                    (1, Some(&Json::Bool(false))),
                    "{}",
                    pasted.describe()
                );
                let problem = &report.get("problems").unwrap().items()[0];
                assert!(text(problem, "compile_error").contains("trait upcasting"), "{problem:?}");
                assert_eq!(problem.get("line"), Some(&Json::Int(36)), "the file's own line: {problem:?}");
                assert_eq!(verdict, "CE", "{}", json.describe());
                assert!(judged.stdout.contains(&format!("LeetCode's own Rust {version}")), "{}", judged.stdout);
            }
            "library items" => {
                assert_eq!(pasted.status, 0, "{}", pasted.describe());
                let said = copy.judge(&["paste", "upcast", "--leetcode-rust", version]);
                let install = format!("rustup toolchain install {version}.0 --profile minimal");
                let unchecked = format!("language features newer than {version} are not checked");
                for report in [&said.stderr, &judged.stderr] {
                    let report = report.replace("\n  ", " ");
                    assert!(report.contains(&unchecked), "{report}");
                    assert_eq!(report.matches(&install).count(), 1, "said once: {report}");
                }
                assert!(judged.stdout.contains(&format!("not LeetCode's Rust {version}\n")), "{}", judged.stdout);
                assert_eq!(verdict, "AC", "{}", json.describe());
            }
            other => panic!("{version}: checked {other}: clippy-driver is part of the toolchain here"),
        }
    }
    if !own_seen {
        crate::common::skipped("LeetCode's Rust 1.85 is not installed here: only the way without it was checked (rustup toolchain install 1.85.0 --profile minimal)");
    }
}

#[test]
fn leetcode_rust_must_be_a_version_for_every_command() {
    for bad in ["banana", "2.0", "1", "1.85.0.1", "1.x"] {
        for command in [&["--case", "samples"][..], &["run", "[1]"], &["paste", "dp_array"], &["watch"]] {
            let run = judge(&[command, &["--leetcode-rust", bad]].concat());
            assert_eq!(run.status, 2, "{command:?} {bad}: {}", run.describe());
            let joined = run.stderr.replace("\n  ", " ");
            let first = joined.lines().next().unwrap_or_default();
            assert_eq!(
                first,
                format!("judge: invalid value {bad:?} for '--leetcode-rust': expected a Rust version such as 1.85 or 1.74.1")
            );
            assert!(run.stdout.is_empty(), "{}", run.describe());
        }
    }
}

#[test]
fn paste_takes_a_file_anywhere_by_its_path() {
    let folder = std::env::temp_dir().join(format!("judge-anywhere-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let file = folder.join("draft.rs");
    let source = format!(
        "impl Solution {{\n    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {{\n{CORRECT}\n    }}\n}}\n"
    );
    std::fs::write(&file, &source).unwrap();
    let shown = file.display().to_string();
    let run = judge(&["paste", &shown]);
    assert_eq!((run.status, run.stdout.as_str()), (0, source.as_str()), "{}", run.describe());
    let said = run.stderr.replace("\n  ", " ");
    assert!(said.starts_with(&format!("judge: ready to paste: {shown} compiles")), "{}", run.describe());
    let broken = folder.join("broken.rs");
    std::fs::write(&broken, source.replace("String {", "i64 {")).unwrap();
    let run = judge(&["paste", &broken.display().to_string()]);
    assert_eq!(run.status, 1, "{}", run.describe());
    assert!(run.stderr.contains(&format!("{}:13:9", broken.display())), "placed in the file: {}", run.describe());
    let missing = judge(&["paste", "/no/such/dir/file.rs"]);
    assert_eq!(missing.status, 2, "{}", missing.describe());
    assert_eq!(
        missing.stderr.trim(),
        "judge: /no/such/dir/file.rs: no such file or directory",
        "{}",
        missing.describe()
    );
    std::fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn run_refuses_what_leetcodes_rust_does_not_have_as_the_judge_does() {
    let copy = Copy::new("run-newer", &["samples"]);
    copy.plant("my_try", &format!("let _middle = i32::midpoint(stone_value[0], 0);\n{CORRECT}"));
    // 1.86 is rarely installed: clippy's lint names the item; where it is, rustc's refusal does.
    let run = copy.judge(&["run", "--solution", "my_try", "[1,2,3]", "--leetcode-rust", "1.86"]);
    assert_eq!(run.status, 1, "{}", run.describe());
    let said = run.stdout.replace("\n  |   ", " ");
    assert!(said.contains("CE"), "{}", run.describe());
    assert!(said.contains("`i32::midpoint` is stable since Rust 1.87, newer than LeetCode's Rust 1.86"), "{said}");
}

/// The judge in `copy` with a build cache of its own at `cache`.
fn judge_with_cache(copy: &Copy, cache: &Path, args: &[&str]) -> crate::common::Run {
    let output = copy.command(args).env("JUDGE_CACHE", cache).output().unwrap();
    crate::common::Run {
        status: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// Rewrites every compiled binary under `cache` with the solution's own (which answers right)
/// and seals each again as the judge's seals are made, without the key: the old public digest
/// (FNV-style) where a seal has its length, else SipHash-2-4 under a key of zeros. One that
/// reads the folder's key first is not stopped (README, "Stored data and caches").
fn poisoner(cache: &Path) -> String {
    format!(
        r#"fn fnv(bytes: &[u8]) -> String {{
    let (mut a, mut b) = (0xcbf2_9ce4_8422_2325u64, 0x6c62_272e_07bb_0142u64);
    let mut mix = |w: u64| {{ a = (a ^ w).wrapping_mul(0x100_0000_01b3); b = (b ^ w.rotate_left(29)).wrapping_mul(0x100_0000_01b3).rotate_left(5); }};
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {{ mix(u64::from_le_bytes(w.try_into().unwrap())); }}
    let mut last = [0u8; 8];
    last[..words.remainder().len()].copy_from_slice(words.remainder());
    mix(u64::from_le_bytes(last));
    mix(bytes.len() as u64);
    format!("{{a:016x}}{{b:016x}}")
}}
fn sip(bytes: &[u8]) -> u64 {{
    let mut v = [0x736f_6d65_7073_6575u64, 0x646f_7261_6e64_6f6d, 0x6c79_6765_6e65_7261, 0x7465_6462_7974_6573];
    fn compress(v: &mut [u64; 4], m: u64, rounds: usize) {{
        v[3] ^= m;
        for _ in 0..rounds {{
            v[0] = v[0].wrapping_add(v[1]); v[1] = v[1].rotate_left(13) ^ v[0]; v[0] = v[0].rotate_left(32);
            v[2] = v[2].wrapping_add(v[3]); v[3] = v[3].rotate_left(16) ^ v[2];
            v[0] = v[0].wrapping_add(v[3]); v[3] = v[3].rotate_left(21) ^ v[0];
            v[2] = v[2].wrapping_add(v[1]); v[1] = v[1].rotate_left(17) ^ v[2]; v[2] = v[2].rotate_left(32);
        }}
        v[0] ^= m;
    }}
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {{ compress(&mut v, u64::from_le_bytes(w.try_into().unwrap()), 2); }}
    let mut last = [0u8; 8];
    last[..words.remainder().len()].copy_from_slice(words.remainder());
    compress(&mut v, u64::from_le_bytes(last) | ((bytes.len() as u64) << 56), 2);
    v[2] ^= 0xff;
    compress(&mut v, 0, 4);
    v[0] ^ v[1] ^ v[2] ^ v[3]
}}
fn walk(dir: &std::path::Path, me: &[u8]) {{
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {{
        let path = entry.path();
        if path.is_dir() {{ walk(&path, me); continue; }}
        let head = std::fs::read(&path).unwrap_or_default();
        if head.starts_with(b"\x7fELF") && !path.to_string_lossy().ends_with(".digest") {{
            let _ = std::fs::write(&path, me);
            let seal = format!("{{}}.digest", path.display());
            let old = std::fs::read_to_string(&seal).unwrap_or_default();
            let _ = std::fs::write(&seal, if old.len() == 32 {{ fnv(me) }} else {{ format!("{{:016x}}", sip(me)) }});
        }}
    }}
}}
static DONE: std::sync::Once = std::sync::Once::new();
fn poison() {{
    DONE.call_once(|| {{
        let me = std::fs::read("/proc/self/exe").unwrap_or_default();
        walk(std::path::Path::new({cache:?}), &me);
    }});
}}
"#
    )
}

#[test]
#[ignore = "slow: the whole suite, twice"]
fn a_sandboxed_run_trusts_nothing_an_unconfined_run_rewrote_in_the_cache() {
    let copy = Copy::new("poisoned", &["samples"]);
    let cache = copy.root.join("cache");
    let chosen = [
        "dp_array",
        "four_scalars",
        "wrong/sign_slip",
        "wrong/prefix_sum_off_by_one",
        "wrong/no_three_pile_move",
        "wrong/three_pile_guard_off_by_one",
    ];
    let mut args = vec!["--case", "samples", "--format", "json"];
    for name in chosen {
        args.extend(["--solution", name]);
    }
    let first = judge_with_cache(&copy, &cache, &args);
    if first.json().get("sandbox") != Some(&Json::Bool(true)) {
        crate::common::skipped(
            "a_sandboxed_run_trusts_nothing_an_unconfined_run_rewrote_in_the_cache: no sandbox on this machine",
        );
        return;
    }
    assert_eq!(first.status, 0, "{}", first.describe());
    let sandboxed = cache.join("sandboxed");
    let before: Vec<(PathBuf, Vec<u8>)> =
        files(&sandboxed).into_iter().filter_map(|p| Some((p.clone(), std::fs::read(&p).ok()?))).collect();

    // An unconfined run of a file that rewrites every binary it finds and seals it again.
    copy.write(
        "solutions/poisoner.rs",
        &format!(
            "{}\nimpl Solution {{\n    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {{\npoison();\n{CORRECT}\n    }}\n}}\n",
            poisoner(&cache)
        ),
    );
    let unconfined =
        judge_with_cache(&copy, &cache, &["--solution", "poisoner", "--case", "samples", "--sandbox", "off-as-root"]);
    assert_eq!(unconfined.status, 0, "{}", unconfined.describe());
    let rewritten = before.iter().filter(|(path, bytes)| std::fs::read(path).is_ok_and(|now| now != *bytes)).count();
    assert!(rewritten >= chosen.len(), "the poisoner rewrote {rewritten} sandboxed entries: the test proves nothing");

    // The next sandboxed run: every submission gets its own verdict again.
    let again = judge_with_cache(&copy, &cache, &args);
    assert_eq!(again.status, 0, "{}", again.describe());
    let report = again.json();
    for name in chosen {
        let want = if name.starts_with("wrong/") { "WA" } else { "AC" };
        assert_eq!(text(solution(&report, name), "verdict"), want, "{name}: {}", again.describe());
    }
}

/// Runs `script` as root of a user namespace of its own with a mount namespace, where it may
/// mount a small tmpfs; None where the kernel (or `unshare`) does not allow that.
fn in_own_mounts(script: &str) -> Option<std::process::Output> {
    let probe = Command::new("unshare").args(["--user", "--map-root-user", "--mount", "true"]).output().ok()?;
    if !probe.status.success() {
        return None;
    }
    Command::new("unshare").args(["--user", "--map-root-user", "--mount", "sh", "-c", script]).output().ok()
}

#[test]
#[ignore = "slow: builds on a full disk"]
fn a_full_disk_while_building_is_a_judge_error_and_is_not_remembered() {
    let copy = Copy::new("full-disk", &["samples"]);
    copy.plant("my_try", CORRECT);
    let disk = copy.root.join("disk");
    std::fs::create_dir_all(&disk).unwrap();
    let judge = |label: &str| {
        format!(
            "echo '== {label}'; JUDGE_CACHE={disk} {JUDGE} --solution my_try --case samples --sandbox off-as-root; echo \"== status $?\"",
            disk = disk.display()
        )
    };
    let script = format!(
        "set -u; cd {root} && mount -t tmpfs -o size=16m tmpfs {disk} && {first} && \
         (dd if=/dev/zero of={disk}/filler bs=64k 2>/dev/null; true) && truncate -s -128K {disk}/filler && \
         echo '// an edit' >> solutions/my_try.rs && {full} && rm {disk}/filler && {freed}",
        root = copy.root.display(),
        disk = disk.display(),
        first = judge("first"),
        full = judge("full"),
        freed = judge("freed"),
    );
    let Some(output) = in_own_mounts(&script) else {
        crate::common::skipped(
            "a_full_disk_while_building_is_a_judge_error_and_is_not_remembered: no user and mount namespace for a small tmpfs here",
        );
        return;
    };
    let said = String::from_utf8_lossy(&output.stdout).into_owned() + &String::from_utf8_lossy(&output.stderr);
    let part = |label: &str| said.split(&format!("== {label}")).nth(1).unwrap_or("").to_string();
    let status =
        |label: &str| part(label).split("== status ").nth(1).map(|s| s.trim().lines().next().unwrap_or("").to_string());
    assert_eq!(status("first").as_deref(), Some("0"), "{said}");
    assert_eq!(status("full").as_deref(), Some("2"), "a judge error, not a CE: {said}");
    assert!(part("full").contains("disk is full") || part("full").contains("full disk"), "{said}");
    assert!(!part("full").contains(" CE "), "{said}");
    assert_eq!(status("freed").as_deref(), Some("0"), "the full disk's failure was remembered: {said}");
}

/// The paste fixtures a newcomer most often writes, each with the words its hint starts with
/// and the text of the file at the hint's place.
const MEANINGS: [(&str, &str, &str); 4] = [
    ("has_main", "the file has a `fn main`", "fn main()"),
    ("declares_solution", "the file declares `struct Solution`", "pub struct Solution;"),
    ("camel_case_method", "`Solution` has no method `stone_game_iii`", "stoneGameIII("),
    ("empty", "the file holds no code", "// paste: refused, empty"),
];

#[test]
fn a_compile_error_says_what_it_likely_means_and_where_in_the_judge_and_the_editor() {
    let copy = Copy::new("meanings", &["samples"]);
    let fixture = |name: &str| {
        std::fs::read_to_string(crate::common::source().join(format!("judge/tests/paste/{name}.rs"))).unwrap()
    };
    for (name, _, _) in MEANINGS {
        copy.write(&format!("solutions/{name}.rs"), &fixture(name));
    }
    for (name, words, at) in MEANINGS {
        let source = fixture(name);
        let shown = copy.judge(&["--solution", name, "--case", "samples", "--color", "never", "--width", "200"]);
        assert_eq!(shown.status, 1, "{}", shown.describe());
        let block = &shown.stdout[shown.stdout.find(&format!("\nCE {name}\n")).unwrap()..];
        let likely = block.lines().find_map(|l| l.strip_prefix("  likely    ")).unwrap_or_else(|| panic!("{block}"));
        let (place, said) = likely.split_once(": ").unwrap();
        assert!(said.starts_with(words), "{name}: {likely}");
        let (line, column) = place.strip_prefix(&format!("solutions/{name}.rs:")).unwrap().split_once(':').unwrap();
        let (line, column): (usize, usize) = (line.parse().unwrap(), column.parse().unwrap());
        let there: String = source.lines().nth(line - 1).unwrap().chars().skip(column - 1).collect();
        assert!(there.starts_with(at), "{name}: {place} is {there:?}");

        let json = copy.judge(&["--solution", name, "--case", "samples", "--format", "json"]).json();
        let likely = &solution(&json, name).get("likely").unwrap().items()[0];
        assert!(text(likely, "text").starts_with(words), "{likely:?}");
        assert_eq!(likely.get("line"), Some(&Json::Int(line as i128)), "{likely:?}");

        let messages = copy.judge(&["diagnostics", &format!("solutions/{name}.rs")]);
        let error = messages
            .stdout
            .lines()
            .map(|l| Json::parse(l).unwrap())
            .find(|m| text(m, "reason") == "compiler-message")
            .unwrap_or_else(|| panic!("{}", messages.describe()));
        let message = error.get("message").unwrap();
        let span = &message.get("spans").unwrap().items()[0];
        assert_eq!(span.get("line_start"), Some(&Json::Int(line as i128)), "{name}: {message:?}");
        let helps: Vec<&str> = message.get("children").unwrap().items().iter().map(|c| text(c, "message")).collect();
        assert!(helps.iter().any(|h| h.starts_with(&format!("likely: {words}"))), "{name}: {helps:?}");
    }
}

/// rustup makes a toolchain's `bin/rustc` before it unpacks its standard library: while 1.85
/// was being installed, builds by it failed with `E0463 can't find crate for std`. A rustup
/// home of links to the real toolchains, beside a 1.85 of `rustc` alone.
#[test]
fn a_half_installed_leetcode_rust_is_not_used_and_said_once() {
    let home = std::env::var_os("RUSTUP_HOME")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".rustup"));
    let said = Command::new("rustc").arg("-vV").output().ok();
    let host = said.as_ref().and_then(|o| {
        String::from_utf8_lossy(&o.stdout).lines().find_map(|l| l.strip_prefix("host: ").map(str::to_string))
    });
    let sysroot = Command::new("rustc").args(["--print", "sysroot"]).output().ok();
    let sysroot = sysroot.map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let (Some(host), Some(sysroot), true) = (host, sysroot, home.join("toolchains").is_dir()) else {
        crate::common::skipped("no rustup home or rustc here: a half-installed toolchain was not tried");
        return;
    };
    let copy = Copy::new("half-installed", &["samples"]);
    copy.plant("my_try", CORRECT);
    let fake = copy.root.join("rustup");
    std::fs::create_dir_all(fake.join("toolchains")).unwrap();
    for entry in std::fs::read_dir(&home).unwrap().flatten() {
        if entry.file_name() != "toolchains" {
            std::os::unix::fs::symlink(entry.path(), fake.join(entry.file_name())).unwrap();
        }
    }
    for entry in std::fs::read_dir(home.join("toolchains")).unwrap().flatten() {
        if !entry.file_name().to_string_lossy().starts_with("1.85") {
            std::os::unix::fs::symlink(entry.path(), fake.join("toolchains").join(entry.file_name())).unwrap();
        }
    }
    let half = fake.join("toolchains").join(format!("1.85.0-{host}"));
    std::fs::create_dir_all(half.join("bin")).unwrap();
    std::os::unix::fs::symlink(sysroot.join("bin/rustc"), half.join("bin/rustc")).unwrap();
    let output = copy
        .command(&["--solution", "my_try", "--case", "samples", "--leetcode-rust", "1.85", "--color", "never"])
        .env("RUSTUP_HOME", &fake)
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    let describe = format!("exit {:?}\n--- stdout\n{stdout}\n--- stderr\n{stderr}", output.status.code());
    assert_eq!(output.status.code(), Some(0), "built by another toolchain: {describe}");
    let notice = format!("1.85.0-{host} has no standard library yet");
    assert_eq!(stderr.replace("\n  ", " ").matches(&notice).count(), 1, "said once: {describe}");
    assert!(stdout.contains("not LeetCode's Rust 1.85"), "{describe}");
}
