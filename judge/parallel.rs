//! The one parallel-for: items `0..count` handed out one at a time to a few scoped threads,
//! each taking the next item when it is done with the last. Workers send what they find to the
//! calling thread, which handles it as it comes (and may do work of its own meanwhile), so every
//! event reaches the caller in one place.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

/// The items a worker claims, in increasing order across all workers: iterate it, and peek
/// ahead by claiming the next item before finishing this one if that overlaps work.
pub struct Claims<'a> {
    next: &'a AtomicUsize,
    count: usize,
}

impl Iterator for Claims<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        let item = self.next.fetch_add(1, Ordering::Relaxed);
        (item < self.count).then_some(item)
    }
}

/// Runs `worker` on `threads` scoped threads (at least one, at most one per item), each with
/// its own claims and a sender, while `here` runs on the calling thread with the receiver: it
/// ends when every worker has ended and `here` has returned. A receiver iterated to its end
/// waits for every worker.
pub fn each<M: Send, R>(
    count: usize,
    threads: usize,
    worker: impl Fn(Claims, Sender<M>) + Sync,
    here: impl FnOnce(Receiver<M>) -> R,
) -> R {
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel();
    thread::scope(|scope| {
        for _ in 0..threads.clamp(1, count.max(1)) {
            let (send, next, worker) = (send.clone(), &next, &worker);
            scope.spawn(move || worker(Claims { next, count }, send));
        }
        drop(send);
        here(receive)
    })
}

/// `work(i)` for every item, on `threads` threads; the results in item order.
pub fn map<R: Send>(count: usize, threads: usize, work: impl Fn(usize) -> R + Sync) -> Vec<R> {
    let mut results: Vec<Option<R>> = (0..count).map(|_| None).collect();
    each(
        count,
        threads,
        |claims, send| {
            for item in claims {
                let _ = send.send((item, work(item)));
            }
        },
        |receive| {
            for (item, result) in receive {
                results[item] = Some(result);
            }
        },
    );
    results.into_iter().map(|r| r.expect("every item was worked")).collect()
}

/// The machine's cores, for a default number of threads.
pub fn cores() -> usize {
    thread::available_parallelism().map_or(1, |n| n.get())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_item_is_worked_once_and_results_keep_their_order() {
        let squares = map(100, 4, |i| i * i);
        assert_eq!(squares, (0..100).map(|i| i * i).collect::<Vec<_>>());
        assert!(map(0, 4, |i| i).is_empty());
    }

    #[test]
    fn the_caller_hears_every_message_while_it_works() {
        let heard = each(
            10,
            3,
            |claims, send| claims.for_each(|i| send.send(i).unwrap()),
            |receive| {
                let mut all: Vec<usize> = receive.iter().collect();
                all.sort();
                all
            },
        );
        assert_eq!(heard, (0..10).collect::<Vec<_>>());
    }
}
