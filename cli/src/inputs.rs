//! Where logs come from: files, directories (every `*.fgn` below) and `-`.

use std::io::Read;
use std::path::{Path, PathBuf};

use fgn_notation::MAX_FILE_BYTES;

/// One input named on the command line, after directories are expanded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Standard input, named `-`.
    Stdin,
    /// A file.
    File(PathBuf),
}

impl Input {
    /// The name used in messages.
    pub fn name(&self) -> String {
        match self {
            Input::Stdin => "<stdin>".into(),
            Input::File(p) => p.display().to_string(),
        }
    }

    /// The bytes of the input, at most one byte more than FGN reads (so that
    /// the parser can say the file is too large without reading all of it).
    pub fn read(&self) -> Result<Vec<u8>, String> {
        self.read_bytes().map_err(|e| e.to_string())
    }

    /// [`Input::read`], with the error naming the input apart from what
    /// went wrong.
    pub fn read_bytes(&self) -> Result<Vec<u8>, InputError> {
        let limit = MAX_FILE_BYTES as u64 + 1;
        let mut buf = Vec::new();
        let result = match self {
            Input::Stdin => std::io::stdin().lock().take(limit).read_to_end(&mut buf),
            Input::File(p) => std::fs::File::open(p).and_then(|f| {
                // Room for the whole file and one byte more up front, so that
                // a log is read in one call and its end seen by the next,
                // rather than in a growing series of reads (`take` hides the
                // size from `read_to_end`). The size is only a hint: a file
                // that grows meanwhile is still read to the limit.
                let size = f.metadata().map_or(0, |m| m.len().min(limit));
                buf.reserve_exact(usize::try_from(size).unwrap_or(0) + 1);
                f.take(limit).read_to_end(&mut buf)
            }),
        };
        result.map(|_| buf).map_err(|e| InputError {
            file: Some(self.name()),
            message: format!("cannot read: {e}"),
        })
    }
}

/// A path that cannot be used or read: the file it names (none for a
/// second `-`) and what went wrong, so that a report can name the file in
/// its own field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    /// The path as given or found.
    pub file: Option<String>,
    /// What went wrong.
    pub message: String,
}

impl InputError {
    fn at(path: &Path, message: impl Into<String>) -> InputError {
        InputError {
            file: Some(path.display().to_string()),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.file {
            Some(file) => write!(f, "{file}: {}", self.message),
            None => f.write_str(&self.message),
        }
    }
}

/// Expands the paths of the command line: `-` is standard input, a directory
/// stands for every `*.fgn` file below it (hidden or not, sorted by path,
/// symbolic links to directories not followed), anything else is a file. A
/// path that cannot be used is reported in the second list and the others
/// are still expanded, so one bad path never hides the rest.
pub fn collect(paths: &[PathBuf]) -> (Vec<Input>, Vec<String>) {
    let (mut out, mut errors) = (Vec::new(), Vec::new());
    for item in walk(paths) {
        match item {
            Ok(input) => out.push(input),
            Err(e) => errors.push(e.to_string()),
        }
    }
    (out, errors)
}

/// [`collect`]'s inputs one at a time, as the directories are walked, so
/// that an archive of any size is never listed in memory: each item is an
/// input or a path that cannot be used, in command-line order.
pub fn walk(paths: &[PathBuf]) -> impl Iterator<Item = Result<Input, InputError>> + Send + '_ {
    let mut stdin_taken = false;
    paths
        .iter()
        .flat_map(move |p| -> Box<dyn Iterator<Item = Result<Input, InputError>> + Send> {
            if p.as_os_str() == "-" {
                let item = if std::mem::replace(&mut stdin_taken, true) {
                    Err(InputError {
                        file: None,
                        message: "`-` is given twice: standard input can be read only once".to_string(),
                    })
                } else {
                    Ok(Input::Stdin)
                };
                return Box::new(std::iter::once(item));
            }
            match std::fs::metadata(p) {
                Err(e) => Box::new(std::iter::once(Err(InputError::at(p, e.to_string())))),
                Ok(meta) if meta.is_dir() => Box::new(walk_dir(p)),
                Ok(_) => Box::new(std::iter::once(Ok(Input::File(p.clone())))),
            }
        })
}

/// Every `*.fgn` file below `dir`, in path order (walkdir, sorted by name
/// in each directory: the same order as sorting the whole paths); an
/// error for what cannot be read, and one when there is no log at all.
fn walk_dir(dir: &Path) -> impl Iterator<Item = Result<Input, InputError>> + Send {
    let mut found = 0usize;
    // The entries of one directory share its path up to their names, so
    // comparing the whole paths as strings orders them as their names
    // would (walkdir's `sort_by_file_name`), without finding each name
    // again: that search, component by component from the end of the path,
    // cost more than reading a small log.
    let mut entries = walkdir::WalkDir::new(dir)
        .follow_links(false)
        .sort_by(|a, b| a.path().as_os_str().cmp(b.path().as_os_str()))
        .into_iter();
    let root = dir.to_path_buf();
    let mut done = false;
    std::iter::from_fn(move || loop {
        if done {
            return None;
        }
        let Some(entry) = entries.next() else {
            done = true;
            return (found == 0).then(|| Err(InputError::at(&root, "no .fgn files in this directory")));
        };
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                let at = e.path().unwrap_or(&root);
                let why = e.io_error().map_or_else(|| e.to_string(), ToString::to_string);
                return Some(Err(InputError::at(at, why)));
            }
        };
        let path = entry.path();
        let kind = entry.file_type();
        // A link is taken when it leads to a file, never into a directory.
        if !kind.is_dir() && path.extension().is_some_and(|e| e == "fgn") && (kind.is_file() || path.is_file()) {
            found += 1;
            return Some(Ok(Input::File(entry.into_path())));
        }
    })
}
