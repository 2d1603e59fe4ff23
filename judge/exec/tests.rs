//! The execution layer end to end: real submissions compiled by rustc and run in children.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::cgroup::Cells;
use super::child::{Child, Housing};
use super::compile::{Binary, Compiler, Program, Unit};
use super::limits::Limits;
use super::outcome::{Ending, Stream};
use super::room::Room;
use super::sandbox;

fn compiler() -> Compiler {
    let cache = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/target/judge"));
    let settings = super::compile::Settings {
        edition: crate::problem::leetcode::EDITION,
        rust_version: crate::problem::leetcode::RUST_VERSION.to_string(),
        time_limit: Duration::from_secs(20),
        own_toolchain: true,
    };
    Compiler::new(&cache, settings, sandbox::probe().is_ok()).unwrap_or_else(|e| panic!("{e:?}"))
}

/// Where the judge would run children on this machine: a sandbox where the kernel allows one,
/// a cgroup cell each where one can be made.
fn isolation() -> Housing {
    let isolation = match sandbox::probe() {
        Ok(()) => sandbox::Isolation::Sandbox,
        Err(_) => sandbox::Isolation::Room(Room::new().unwrap()),
    };
    Housing { isolation, cells: Cells::open().ok() }
}

/// Every way children can run on this machine, named: in the room and in a sandbox, each with
/// and without a cgroup cell; a way the machine does not give is said, never skipped quietly.
fn housings() -> Vec<(&'static str, Housing)> {
    let room = || sandbox::Isolation::Room(Room::new().unwrap());
    let mut found = vec![("room, /proc", Housing { isolation: room(), cells: None })];
    let sandboxed = sandbox::probe();
    let cells = Cells::open();
    if let Ok(cells) = &cells {
        found.push(("room, cgroup", Housing { isolation: room(), cells: Some(cells.clone()) }));
    }
    if sandboxed.is_ok() {
        found.push(("sandbox, /proc", Housing { isolation: sandbox::Isolation::Sandbox, cells: None }));
        if let Ok(cells) = &cells {
            found.push((
                "sandbox, cgroup",
                Housing { isolation: sandbox::Isolation::Sandbox, cells: Some(cells.clone()) },
            ));
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
        for (index, want) in [(0, "A"), (1, "C")] {
            let answer = Child::spawn(
                &Program { binary: binary.clone(), unit: index, name: "test".into() },
                quick(),
                &isolation,
            )
            .unwrap()
            .call(&[1])
            .result
            .unwrap()
            .answer;
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
    for (_mode, isolation) in housings() {
        let small = Limits { stack_mib: 1, ..quick() };
        assert_eq!(child(&binary, small, &isolation).call(&[1]).result, Err(Ending::StackOverflow));
        // A null pointer read is a fault too, but not an overflow.
        let segv = build("segv", "let p = std::hint::black_box(0usize) as *const i32;\nunsafe { *p }.to_string()");
        match child(&segv, quick(), &isolation).call(&[1]).result {
            Err(Ending::Signalled { signal: 11, .. }) => {}
            other => panic!("{other:?}"),
        }
    }
}

#[test]
fn a_spinning_call_is_killed_at_the_deadline_whatever_it_prints() {
    let body = "std::thread::spawn(|| loop { println!(\"\\u{1e}judge:0 ok 1 - 5\\nAlice\"); \
                std::thread::sleep(std::time::Duration::from_millis(1)); });\nloop { std::hint::spin_loop(); }";
    let binary = build("spins", body);
    for (_mode, isolation) in housings() {
        let start = Instant::now();
        match child(&binary, quick(), &isolation).call(&[1]).result {
            Err(Ending::TimedOut { after, asleep: false }) => assert!(after >= Duration::from_millis(300), "{after:?}"),
            other => panic!("{other:?}"),
        }
        // Killed by its CPU time, not at the wall limit (60 times the time limit, 18 s):
        // under four busy loops its 300 ms of CPU took up to 0.9 s of wall time.
        assert!(start.elapsed() < Duration::from_secs(9), "{:?}", start.elapsed());
    }
}

#[test]
fn memory_output_and_exits_get_their_own_endings() {
    for (_mode, isolation) in housings() {
        let hog = build("hog", "let v = vec![1u8; 1 << 30];\nv.iter().map(|&b| b as u64).sum::<u64>().to_string()");
        match child(&hog, Limits { time: Duration::from_secs(5), ..crate::exec::limits::DEFAULT }, &isolation)
            .call(&[1])
            .result
        {
            Err(Ending::MemoryLimit { peak_kib }) => assert!(peak_kib >= 256 << 10, "{peak_kib}"),
            other => panic!("{other:?}"),
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
        let mut spinning = super::child::Runner::new(&spin, quick(), &isolation);
        let child = spinning.child().unwrap();
        child.send_batch(&super::child::Batch::new(1, cases.iter().map(Vec::as_slice))).unwrap();
        assert!(matches!(child.receive_batch(Duration::from_millis(200)), Err(Ending::TimedOut { .. })));
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

/// What every submission's generated `main` calls: the driver's entry point.
const _: fn(&[super::Solve]) = super::driver::main;

/// The driver's allocator is the system's, with a word to the judge only when one fails.
#[test]
fn the_drivers_allocator_hands_blocks_through() {
    use std::alloc::{GlobalAlloc, Layout};
    let layout = Layout::from_size_align(64, 8).unwrap();
    // SAFETY: the layout is valid and non-zero; every block is freed with its layout.
    unsafe {
        let block = super::driver::Allocator.alloc_zeroed(layout);
        assert!(!block.is_null() && *block.add(63) == 0);
        *block = 7;
        let grown = super::driver::Allocator.realloc(block, layout, 4096);
        assert!(!grown.is_null() && *grown == 7, "realloc keeps the bytes");
        super::driver::Allocator.dealloc(grown, Layout::from_size_align(4096, 8).unwrap());
    }
}

/// The wire protocol alone, both ends.
mod wire_frames {
    use super::super::wire::*;

    #[test]
    fn every_request_and_reply_reads_back_as_written() {
        let requests = [
            Request::Call { values: vec![1, -2, 1000, -1000].into(), dry: false },
            Request::Batch { cases: vec![vec![0], vec![3, 4, 5], vec![-7; 20]] },
            Request::Call { values: vec![4, 4].into(), dry: true },
            Request::Call { values: Vec::new().into(), dry: false },
        ];
        let mut stream = Vec::new();
        for (seq, request) in requests.iter().enumerate() {
            stream.extend(request.encode(seq as u32 + 7));
        }
        let mut input = stream.as_slice();
        for (seq, request) in requests.iter().enumerate() {
            assert_eq!(read_request(&mut input, &mut Vec::new()).unwrap(), Some((seq as u32 + 7, request.clone())));
        }
        assert_eq!(read_request(&mut input, &mut Vec::new()).unwrap(), None);
        let replies = [
            Reply::Answer { length: 3, answer: b"Bob".to_vec() },
            Reply::Answer { length: 0, answer: Vec::new() },
            Reply::AllocationFailed { bytes: 2 << 30 },
            Reply::Refused { why: Refusal::NoStack },
            Reply::Answers {
                packed: [&b"Alice"[..], b"", b"Tie"].iter().fold(Vec::new(), |mut p, a| {
                    pack(&mut p, a);
                    p
                }),
            },
            Reply::Panicked {
                message: "index out of bounds".into(),
                file: "x.rs".into(),
                line: 9,
                column: 4,
                dropped: 0,
            },
            Reply::StackOverflow,
            Reply::Ready,
        ];
        assert_eq!(Reply::StackOverflow.encode(3), overflow_frame(3));
        let stream: Vec<u8> = replies.iter().flat_map(|r| r.encode(3)).collect();
        let mut input = stream.as_slice();
        for reply in &replies {
            assert_eq!(read_reply(&mut input).unwrap(), Some((3, reply.clone())));
        }
    }

    #[test]
    fn packed_answers_unpack_in_order() {
        let mut packed = Vec::new();
        for answer in [&b"Bob"[..], b"", &[b'x'; BATCH_ANSWER_KEPT + 5]] {
            pack(&mut packed, answer);
        }
        let answers: Vec<Option<&[u8]>> = unpack(&packed).collect();
        assert_eq!(answers.len(), 3);
        assert_eq!((answers[0], answers[1]), (Some(&b"Bob"[..]), Some(&b""[..])));
        assert_eq!(answers[2].map(<[u8]>::len), Some(BATCH_ANSWER_KEPT));
        assert_eq!(unpack(&packed[..5]).last(), Some(None));
    }

    #[test]
    fn broken_streams_are_errors_not_panics() {
        let whole = Request::Call { values: vec![1, 2, 3].into(), dry: false }.encode(1);
        for cut in 1..whole.len() {
            assert!(read_request(&mut &whole[..cut], &mut Vec::new()).is_err(), "cut at {cut}");
        }
        let mut unknown = whole.clone();
        unknown[0] = 99;
        assert!(read_request(&mut unknown.as_slice(), &mut Vec::new()).is_err());
        let mut huge = whole.clone();
        huge[5..9].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(read_request(&mut huge.as_slice(), &mut Vec::new()).is_err());
        // A payload longer than its content is malformed too.
        let mut padded = whole;
        padded[5] += 1;
        padded.push(0);
        assert!(read_request(&mut padded.as_slice(), &mut Vec::new()).is_err());
    }

    /// Replies fed a byte at a time, or in one piece: the same replies, in order.
    #[test]
    fn the_intake_hears_whole_replies_however_the_bytes_arrive() {
        let replies = [Reply::Ready, Reply::Answer { length: 5, answer: b"Alice".to_vec() }, Reply::StackOverflow];
        let stream: Vec<u8> = replies.iter().enumerate().flat_map(|(seq, r)| r.encode(seq as u32)).collect();
        for step in [1, 3, stream.len()] {
            let mut intake = Intake::default();
            let mut heard = Vec::new();
            for piece in stream.chunks(step) {
                intake.feed(piece, reply_bound(0), &mut |seq, reply| heard.push((seq, reply)));
            }
            let expected: Vec<(u32, Option<Reply>)> =
                replies.iter().enumerate().map(|(seq, r)| (seq as u32, Some(r.clone()))).collect();
            assert_eq!(heard, expected, "pieces of {step}");
            assert!(!intake.partial());
        }
    }

    /// A frame as long as the child likes is kept to the bound, the rest counted and dropped:
    /// a panic keeps the head of its message and says how much went; anything else is no reply.
    #[test]
    fn the_intake_keeps_a_bounded_head_of_any_frame() {
        let huge = "x".repeat(3 * MESSAGE_KEPT);
        let mut panic =
            Reply::Panicked { message: huge, file: "f.rs".into(), line: 1, column: 2, dropped: 0 }.encode(4);
        // Written by a driver, the message is cut already; a forged frame is not: uncut it.
        let (head, tail) = panic.split_at_mut(9);
        let forged = u32::from_le_bytes([head[5], head[6], head[7], head[8]]) as usize + 2 * MESSAGE_KEPT;
        head[5..9].copy_from_slice(&(forged as u32).to_le_bytes());
        let mut frame = [head, tail].concat();
        frame.extend(std::iter::repeat_n(b'y', 2 * MESSAGE_KEPT));
        let mut intake = Intake::default();
        let mut heard = Vec::new();
        for piece in frame.chunks(1 << 16) {
            intake.feed(piece, reply_bound(0), &mut |seq, reply| heard.push((seq, reply)));
            assert!(intake.kept() <= reply_bound(0), "kept {} bytes", intake.kept());
        }
        match &heard[..] {
            [(4, Some(Reply::Panicked { message, dropped, .. }))] => {
                assert!(message.len() >= MESSAGE_KEPT && message.len() < reply_bound(0), "{}", message.len());
                assert_eq!(message.len() + *dropped as usize, 3 * MESSAGE_KEPT);
            }
            other => panic!("{:?}", other.iter().map(|(s, r)| (s, r.is_some())).collect::<Vec<_>>()),
        }
        // An answer longer than any driver sends is no reply.
        let mut answer = Reply::Answer { length: 1, answer: b"A".to_vec() }.encode(5);
        answer[5..9].copy_from_slice(&(reply_bound(0) as u32 + 1).to_le_bytes());
        answer.resize(9 + reply_bound(0) + 1, b'A');
        let mut heard = Vec::new();
        Intake::default().feed(&answer, reply_bound(0), &mut |seq, reply| heard.push((seq, reply)));
        assert_eq!(heard, [(5, None)]);
    }
}
