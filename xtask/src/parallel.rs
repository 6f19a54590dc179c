//! Running one piece of work over many items, a few at a time.

use anyhow::Result;

/// `work` on each of `items`, two at a time (one per core of the project's machine), its
/// results in the items' order: each run of npm's binaryen tools spends most of a second
/// starting node, and brotli at quality 11 keeps a core busy.
pub fn two_at_a_time<T: Sync, R: Send>(
    items: &[T],
    work: impl Fn(&T) -> Result<R> + Sync,
) -> Result<Vec<R>> {
    at_a_time(2, items, work)
}

/// `work` on each of `items`, `lanes` at a time, its results in the items' order; the first
/// error is returned once every lane has stopped.
pub fn at_a_time<T: Sync, R: Send>(
    lanes: usize,
    items: &[T],
    work: impl Fn(&T) -> Result<R> + Sync,
) -> Result<Vec<R>> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let worker = || -> Result<Vec<(usize, R)>> {
        let mut done = Vec::new();
        loop {
            let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(item) = items.get(index) else {
                return Ok(done);
            };
            done.push((index, work(item)?));
        }
    };
    let mut done = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..lanes.max(1)).map(|_| scope.spawn(worker)).collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a worker of at_a_time panicked"))
            .collect::<Result<Vec<_>>>()
    })?
    .into_iter()
    .flatten()
    .collect::<Vec<_>>();
    done.sort_by_key(|(index, _)| *index);
    Ok(done.into_iter().map(|(_, result)| result).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::bail;

    #[test]
    fn two_at_a_time_keeps_the_items_order_and_stops_at_an_error() {
        let items: Vec<u32> = (0..20).collect();
        let doubled = two_at_a_time(&items, |n| Ok(n * 2)).unwrap();
        assert_eq!(doubled, items.iter().map(|n| n * 2).collect::<Vec<_>>());
        let failed = two_at_a_time(&items, |n| {
            if *n == 7 {
                bail!("item {n} failed")
            }
            Ok(*n)
        });
        assert_eq!(failed.unwrap_err().to_string(), "item 7 failed");
    }
}
