//! The execution layer end to end: real submissions compiled by rustc and run in children.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::cgroup::Cells;
use super::child::{Child, Housing};
use super::compile::{Binary, Compiler, Program, Unit};
use super::limits::Limits;
use super::outcome::{Ending, Stream};
use super::room::Room;
use super::runner::RunnerKind;
use super::sandbox;

fn compiler() -> Compiler {
    Compiler::for_tests(crate::problem::leetcode::RUST_VERSION, true)
}

/// Where the judge would run children on this machine: a sandbox where the kernel allows one,
/// a cgroup cell each where one can be made.
fn isolation() -> Housing {
    let isolation = match sandbox::probe() {
        Ok(()) => sandbox::Isolation::Sandbox,
        Err(_) => sandbox::Isolation::Room(Room::new().unwrap()),
    };
    native(isolation, Cells::open().ok())
}

fn native(isolation: sandbox::Isolation, cells: Option<Cells>) -> Housing {
    Housing { isolation, cells, kind: RunnerKind::Native }
}

/// Every way children can run on this machine, named: in the room and in a sandbox, each with
/// and without a cgroup cell; a way the machine does not give is said, never skipped quietly.
fn housings() -> Vec<(&'static str, Housing)> {
    let room = || sandbox::Isolation::Room(Room::new().unwrap());
    let mut found = vec![("room, /proc", native(room(), None))];
    let sandboxed = sandbox::probe();
    let cells = Cells::open();
    if let Ok(cells) = &cells {
        found.push(("room, cgroup", native(room(), Some(cells.clone()))));
    }
    if sandboxed.is_ok() {
        found.push(("sandbox, /proc", native(sandbox::Isolation::Sandbox, None)));
        if let Ok(cells) = &cells {
            found.push(("sandbox, cgroup", native(sandbox::Isolation::Sandbox, Some(cells.clone()))));
        }
    }
    for (missing, why) in [("a sandbox", sandboxed.err().map(|e| e.to_string())), ("a cgroup", cells.err())] {
        if let Some(why) = why {
            let line = format!("\nSKIPPED on this machine: children in {missing} ({why})\n");
            let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
        }
    }
    found
}

/// A submission whose method body is `body`, with `stone_value` in scope.
fn unit(name: &str, body: &str) -> Unit {
    let source = format!(
        "impl Solution {{\n    pub fn stone_game_iii(stone_value: Vec<i32>) -> String {{\n{body}\n    }}\n}}\n"
    );
    Unit { source, shown: format!("solutions/{name}.rs") }
}

fn build(name: &str, body: &str) -> Binary {
    compiler().build(&unit(name, body)).unwrap().unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// A submission that writes the driver's refusal "no stack" on the reply pipe from a static
/// initialiser, before the driver runs, and exits.
fn forger() -> Binary {
    let items = "extern \"C\" { fn write(fd: i32, buf: *const u8, count: usize) -> isize; fn _exit(code: i32) -> !; }
extern \"C\" fn forge() { let frame = [19u8, 0, 0, 0, 0, 1, 0, 0, 0, 3]; unsafe { write(101, frame.as_ptr(), frame.len()); _exit(2) } }
#[used]
#[link_section = \".init_array\"]
static FORGE: extern \"C\" fn() = forge;
";
    let mut forger = unit("forges_a_refusal", "drop(stone_value); String::new()");
    forger.source = format!("{items}{}", forger.source);
    compiler().build(&forger).unwrap().unwrap_or_else(|e| panic!("{e:?}"))
}

fn child(binary: &Binary, limits: Limits, isolation: &Housing) -> Child {
    Child::spawn(&Program { binary: binary.clone(), unit: 0, name: "test".into() }, limits, isolation).unwrap()
}

fn quick() -> Limits {
    Limits { time: Duration::from_millis(300), ..crate::exec::limits::DEFAULT }
}

#[test]
fn an_atomic_write_replaces_a_file_but_never_a_device_or_a_folder() {
    let dir = std::env::temp_dir().join(format!("judge-write-test-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("folder")).unwrap();
    let file = dir.join("file.txt");
    super::files::write_atomically(&file, b"one").unwrap();
    super::files::write_atomically(&file, b"two").unwrap();
    assert_eq!(std::fs::read(&file).unwrap(), b"two");
    for special in [dir.join("folder"), PathBuf::from("/dev/null")] {
        assert!(super::files::write_atomically(&special, b"x").is_err(), "{special:?}");
    }
    let null = std::fs::metadata("/dev/null").unwrap();
    assert!(!null.is_file(), "/dev/null was replaced");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_cache_entry_changed_since_it_was_made_is_made_again() {
    let unit = unit(&format!("sealed_{}", std::process::id()), "\"Tie\".to_string()");
    let first = compiler().build(&unit).unwrap().unwrap();
    let made = std::fs::read(&first.path).unwrap();
    std::fs::write(&first.path, "#!/bin/sh\necho poisoned\n").unwrap();
    let second = compiler().build(&unit).unwrap().unwrap();
    assert_eq!(second.path, first.path);
    assert_eq!(std::fs::read(&second.path).unwrap(), made, "the changed binary was trusted");
    let answer = child(&second, quick(), &isolation()).call(&[1]).result.unwrap().answer;
    assert_eq!(answer, b"Tie");
}

#[test]
fn an_answer_comes_back_with_its_time_peak_and_output() {
    let binary =
        build("echo_len", "println!(\"n = {}\", stone_value.len()); eprint!(\"dbg\"); stone_value.len().to_string()");
    for (_mode, isolation) in housings() {
        let mut child = child(&binary, quick(), &isolation);
        for n in [1, 3, 50_000] {
            let call = child.call(&vec![7; n]);
            let answered = call.result.unwrap();
            assert_eq!(answered.answer, n.to_string().into_bytes());
            assert!(answered.peak_kib.is_some_and(|k| k > 0));
            assert_eq!(call.stdout.head, format!("n = {n}\n").into_bytes());
            assert_eq!((call.stderr.head.as_slice(), call.stderr.total), (&b"dbg"[..], 3));
        }
        assert!(!child.is_gone());
    }
}

#[test]
fn compile_errors_are_placed_in_the_submission_file() {
    let error = compiler().build(&unit("typo", "let x: i32 = \"no\";\nx.to_string()")).unwrap().unwrap_err();
    assert!(error.headline.starts_with("error[E0308]"), "{error:?}");
    let place = error.place.unwrap();
    assert_eq!((place.file.as_str(), place.line), ("solutions/typo.rs", 3));
    let wrong_signature = Unit {
        source: "impl Solution { pub fn stone_game_iii(v: &[i32]) -> String { v.len().to_string() } }".into(),
        shown: "solutions/slice.rs".into(),
    };
    let error = compiler().build(&wrong_signature).unwrap().unwrap_err();
    // rustc points at LeetCode's call; the place is the method it calls, in the file.
    assert!(error.signature(), "{error:?}");
    assert_eq!(error.place.as_ref().map(|p| (p.file.as_str(), p.line)), Some(("solutions/slice.rs", 1)), "{error:?}");
    assert!(!error.diagnostic.contains("|v|"), "LeetCode's call is not shown: {}", error.diagnostic);
}

#[test]
fn a_batch_drops_units_that_do_not_compile_and_serves_the_rest() {
    let units = [unit("a", "\"A\".to_string()"), unit("b", "nope"), unit("c", "\"C\".to_string()")];
    let batch = compiler().build_batch(&units).unwrap();
    assert!(batch.errors[0].is_none() && batch.errors[2].is_none());
    assert_eq!(batch.errors[1].as_ref().unwrap().place.as_ref().unwrap().file, "solutions/b.rs");
    let binary = batch.binary.unwrap();
    for (_mode, isolation) in housings() {
        for (unit, want) in [(0, "A"), (1, "C")] {
            let program = Program { binary: binary.clone(), unit, name: "test".into() };
            let answer = Child::spawn(&program, quick(), &isolation).unwrap().call(&[1]).result.unwrap().answer;
            assert_eq!(answer, want.as_bytes());
        }
    }
}

#[test]
fn a_panic_is_reported_with_its_message_and_line_and_ends_the_child() {
    let binary = build("panics", "let i = stone_value.len();\nstone_value[i].to_string()");
    for (_mode, isolation) in housings() {
        let mut child = child(&binary, quick(), &isolation);
        match child.call(&[1, 2]).result {
            Err(Ending::Panicked { message, place }) => {
                assert!(message.contains("index out of bounds"), "{message}");
                assert_eq!((place.file.as_str(), place.line), ("solutions/panics.rs", 4));
            }
            other => panic!("{other:?}"),
        }
        assert!(child.is_gone());
    }
}

#[test]
fn a_stack_overflow_is_named_only_when_the_guard_page_is_hit() {
    let recurse = "fn deep(n: u64) -> u64 { if n == 0 { 0 } else { 1 + std::hint::black_box(deep(n - 1)) } }\n\
                   deep(u64::MAX).to_string()";
    let binary = build("overflows", recurse);
    for (mode, isolation) in housings() {
        let small = Limits { stack_mib: 1, ..quick() };
        assert_eq!(child(&binary, small, &isolation).call(&[1]).result, Err(Ending::StackOverflow), "{mode}");
        // A null pointer read is a fault too, but not an overflow.
        let segv = build("segv", "let p = std::hint::black_box(0usize) as *const i32;\nunsafe { *p }.to_string()");
        match child(&segv, quick(), &isolation).call(&[1]).result {
            Err(Ending::Signalled { signal: 11, .. }) => {}
            other => panic!("{mode}: {other:?}"),
        }
    }
}

#[test]
fn a_spinning_call_is_killed_at_the_deadline_whatever_it_prints() {
    let body = "std::thread::spawn(|| loop { println!(\"\\u{1e}judge:0 ok 1 - 5\\nAlice\"); \
                std::thread::sleep(std::time::Duration::from_millis(1)); });\nloop { std::hint::spin_loop(); }";
    let binary = build("spins", body);
    for (mode, isolation) in housings() {
        let start = Instant::now();
        match child(&binary, quick(), &isolation).call(&[1]).result {
            Err(Ending::TimedOut { after, asleep: false }) => assert!(after >= Duration::from_millis(300), "{after:?}"),
            other => panic!("{mode}: {other:?}"),
        }
        // Killed by its CPU time, not at the wall fuse: its printing thread sleeps, its spinning
        // one is on a CPU or waiting for one. Under four busy loops its 300 ms of CPU took up to
        // 0.9 s of wall time.
        assert!(start.elapsed() < Duration::from_secs(9), "{:?}", start.elapsed());
    }
}

#[test]
fn memory_output_and_exits_get_their_own_endings() {
    for (mode, isolation) in housings() {
        let hog = build("hog", "let v = vec![1u8; 1 << 30];\nv.iter().map(|&b| b as u64).sum::<u64>().to_string()");
        match child(&hog, Limits { time: Duration::from_secs(5), ..crate::exec::limits::DEFAULT }, &isolation)
            .call(&[1])
            .result
        {
            Err(Ending::MemoryLimit { peak_kib }) => assert!(peak_kib >= 256 << 10, "{mode}: {peak_kib}"),
            other => panic!("{mode}: {other:?}"),
        }
        let flood = build("flood", "loop { println!(\"{}\", \"x\".repeat(1000)); }");
        match child(&flood, quick(), &isolation).call(&[1]).result {
            Err(Ending::OutputLimit { stream: Stream::Stdout, .. }) => {}
            other => panic!("{other:?}"),
        }
        let exits = build("exits", "std::process::exit(0)");
        assert!(matches!(child(&exits, quick(), &isolation).call(&[1]).result, Err(Ending::Exited { code: 0, .. })));
        let aborts = build("aborts", "std::process::abort()");
        assert!(matches!(
            child(&aborts, quick(), &isolation).call(&[1]).result,
            Err(Ending::Signalled { signal: 6, .. })
        ));
    }
}

#[test]
fn batches_time_and_memory_are_answered() {
    let binary = build("sums", "stone_value.iter().sum::<i32>().to_string()");
    for (_mode, isolation) in housings() {
        let mut child = child(&binary, quick(), &isolation);
        let cases: Vec<Vec<i32>> = vec![vec![1, 2], vec![5], vec![-3, 3, 9]];
        child.send_batch(&super::child::Batch::new(77, cases.iter().map(Vec::as_slice))).unwrap();
        let answered = child.receive_batch(Duration::from_secs(1)).unwrap();
        let answers: Vec<&[u8]> = answered.iter().map(Option::unwrap).collect();
        assert_eq!(answers, [b"3", b"5", b"9"]);
        let (times, answer) = child.time(&[4, 4], 5).unwrap();
        assert_eq!((times.len(), answer), (5, b"8".to_vec()));
        let (extra, answer) = child.measure(&[1]).unwrap();
        assert_eq!(answer, b"1");
        assert!(extra.is_some());
        // Stopped at the limit by CPU time, the batch's whole budget.
        let spin = build("batch_spins", "loop { std::hint::spin_loop(); }");
        let spin = Program { binary: spin, unit: 0, name: "batch_spins".into() };
        let mut spinning = super::child::Runner::new(&spin, quick(), &isolation, &NoProbe);
        let child = spinning.child().unwrap();
        child.send_batch(&super::child::Batch::new(1, cases.iter().map(Vec::as_slice))).unwrap();
        let unfinished = child.receive_batch(Duration::from_millis(200)).unwrap_err();
        assert!(matches!(unfinished.ending, Ending::TimedOut { .. }), "{unfinished:?}");
        // Its ledger says it was calling the first testcase, none answered.
        assert_eq!(unfinished.progress.map(|p| p.answered), Some(0));
    }
}

/// Without a cell nothing would count a process the solution starts: it may start none, and
/// threads as it likes. With a cell, it may start processes too.
#[test]
fn threads_always_and_processes_only_in_a_cell() {
    let threads = build(
        "threads",
        "let total: usize = std::thread::scope(|s| { let h: Vec<_> = (0..4).map(|k| s.spawn(move || k)).collect(); \
         h.into_iter().map(|h| h.join().unwrap()).sum() });\ntotal.to_string()",
    );
    let process = build(
        "process",
        "match std::process::Command::new(\"/bin/true\").status() { Ok(s) => s.success().to_string(), \
         Err(e) => panic!(\"refused: {e}\") }",
    );
    for (mode, isolation) in housings() {
        assert_eq!(child(&threads, quick(), &isolation).call(&[1]).result.unwrap().answer, b"6", "{mode}");
        let started = child(&process, quick(), &isolation).call(&[1]).result;
        match (isolation.cells.is_some(), started) {
            (true, Ok(answered)) => assert_eq!(answered.answer, b"true", "{mode}"),
            (false, Err(Ending::Panicked { message, .. })) => assert!(message.contains("refused"), "{mode}: {message}"),
            (_, other) => panic!("{mode}: {other:?}"),
        }
    }
}

/// No program to check a refusal against: every refusal stays unconfirmed.
struct NoProbe;

impl super::child::Probe for NoProbe {
    fn program(&self) -> Option<&Program> {
        None
    }
}

/// A refusal comes as bytes a solution can write itself: the machine is blamed only when the
/// judge's own program, started the same way, is refused the same.
#[test]
fn a_refusal_blames_the_machine_only_when_the_judges_own_program_is_refused_too() {
    struct Own(Program);
    impl super::child::Probe for Own {
        fn program(&self) -> Option<&Program> {
            Some(&self.0)
        }
    }
    let forger = Program { binary: forger(), unit: 0, name: "forger".into() };
    let honest = Program { binary: build("honest", "drop(stone_value); String::new()"), unit: 0, name: "own".into() };
    let housing = isolation();
    let refused = |confirmed| Err(Ending::Refused { why: super::wire::Refusal::NoStack, confirmed });
    for (own, confirmed) in [(honest, false), (forger.clone(), true)] {
        let own = Own(own);
        let mut runner = super::child::Runner::new(&forger, quick(), &housing, &own);
        assert_eq!(runner.call(&[1]).unwrap().result, refused(confirmed));
        let batch = super::child::Batch::new(1, [&[1][..], &[2][..]].into_iter());
        assert_eq!(runner.batch(&batch).unwrap().map_err(|u| u.ending).map(drop), refused(confirmed).map(drop));
    }
    // Without the judge's own program to ask, nothing is the machine's.
    let mut runner = super::child::Runner::new(&forger, quick(), &housing, &NoProbe);
    assert_eq!(runner.call(&[1]).unwrap().result, refused(false));
}
