//! `wasm-opt -Oz` on many modules without starting binaryen for each: a few node processes
//! that load npm's binaryen library once and optimise every module they are handed
//! (`optimiser.mjs`). npm's `wasm-opt` command is that same library behind a command line;
//! starting it took about half a second for each of the split build's 446 modules, most
//! of them chunks of a few hundred bytes.

use crate::setup;
use anyhow::{bail, Context, Result};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Mutex;

const SCRIPT: &str = include_str!("optimiser.mjs");

/// The node processes, each either idle here or handed to one caller at a time.
pub struct Optimiser {
    script: PathBuf,
    /// What the processes print besides their answers: binaryen's warnings about every
    /// module (an unknown name subsection), and why a process ended.
    log: PathBuf,
    idle: Mutex<Vec<Worker>>,
}

struct Worker {
    child: Child,
    requests: ChildStdin,
    answers: BufReader<ChildStdout>,
}

impl Optimiser {
    /// An optimiser whose script is written into `scratch`; its processes start on demand.
    pub fn new(scratch: &Path) -> Result<Self> {
        std::fs::create_dir_all(scratch)?;
        let script = scratch.join("optimiser.mjs");
        std::fs::write(&script, SCRIPT).with_context(|| format!("writing {}", script.display()))?;
        Ok(Optimiser {
            script,
            log: scratch.join("optimiser.log"),
            idle: Mutex::new(Vec::new()),
        })
    }

    /// `wasm-opt -Oz --strip-producers --strip-target-features` on `module`, in place,
    /// with the features its target_features section names.
    pub fn optimise(&self, module: &Path) -> Result<()> {
        let idle = self
            .idle
            .lock()
            .expect("no lane panics holding the lock")
            .pop();
        let mut worker = match idle {
            Some(worker) => worker,
            None => self.start()?,
        };
        writeln!(worker.requests, "{}", module.display())?;
        worker.requests.flush()?;
        let mut answer = String::new();
        worker
            .answers
            .read_line(&mut answer)
            .context("reading the optimiser's answer")?;
        match answer.trim_end() {
            "ok" => {
                self.idle
                    .lock()
                    .expect("no lane panics holding the lock")
                    .push(worker);
                Ok(())
            }
            "" => bail!(
                "the optimiser ended while optimising {} ({}; see {})",
                module.display(),
                worker
                    .child
                    .wait()
                    .map_or("no status".into(), |s| s.to_string()),
                self.log.display()
            ),
            error => bail!("optimising {}: {error}", module.display()),
        }
    }

    fn start(&self) -> Result<Worker> {
        let binaryen = setup::binaryen_library();
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .with_context(|| format!("opening {}", self.log.display()))?;
        let mut child = Command::new("node")
            .arg(&self.script)
            .arg(&binaryen)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .context("starting node for the optimiser")?;
        let requests = child.stdin.take().context("the optimiser's stdin")?;
        let answers = BufReader::new(child.stdout.take().context("the optimiser's stdout")?);
        Ok(Worker {
            child,
            requests,
            answers,
        })
    }
}

impl Drop for Optimiser {
    /// Each process ends once its stdin closes.
    fn drop(&mut self) {
        if let Ok(idle) = self.idle.get_mut() {
            for Worker {
                mut child,
                requests,
                ..
            } in idle.drain(..)
            {
                drop(requests);
                let _ = child.wait();
            }
        }
    }
}
