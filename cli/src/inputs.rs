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
        let limit = MAX_FILE_BYTES as u64 + 1;
        let mut buf = Vec::new();
        let result = match self {
            Input::Stdin => std::io::stdin().lock().take(limit).read_to_end(&mut buf),
            Input::File(p) => std::fs::File::open(p).and_then(|f| f.take(limit).read_to_end(&mut buf)),
        };
        result
            .map(|_| buf)
            .map_err(|e| format!("{}: cannot read: {e}", self.name()))
    }
}

/// Expands the paths of the command line: `-` is standard input, a directory
/// stands for every `*.fgn` file below it (sorted, symbolic links to
/// directories not followed), anything else is a file. A path that cannot
/// be used is reported in the second list and the others are still
/// expanded, so one bad path never hides the rest.
pub fn collect(paths: &[PathBuf]) -> (Vec<Input>, Vec<String>) {
    let (mut out, mut errors) = (Vec::new(), Vec::new());
    let mut stdin_taken = false;
    for p in paths {
        if p.as_os_str() == "-" {
            if stdin_taken {
                errors.push("`-` is given twice: standard input can be read only once".to_string());
            } else {
                stdin_taken = true;
                out.push(Input::Stdin);
            }
            continue;
        }
        let meta = match std::fs::metadata(p) {
            Ok(m) => m,
            Err(e) => {
                errors.push(format!("{}: {e}", p.display()));
                continue;
            }
        };
        if meta.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found, &mut errors);
            if found.is_empty() {
                errors.push(format!("{}: no .fgn files in this directory", p.display()));
            }
            found.sort();
            out.extend(found.into_iter().map(Input::File));
        } else {
            out.push(Input::File(p.clone()));
        }
    }
    (out, errors)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>, errors: &mut Vec<String>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) => return errors.push(format!("{}: {e}", dir.display())),
    };
    for entry in entries {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                errors.push(format!("{}: {e}", dir.display()));
                continue;
            }
        };
        let path = entry.path();
        let Ok(kind) = entry.file_type() else {
            errors.push(format!("{}: cannot tell what it is", path.display()));
            continue;
        };
        if kind.is_dir() {
            walk(&path, found, errors);
        } else if path.extension().is_some_and(|e| e == "fgn") && (kind.is_file() || path.is_file()) {
            found.push(path);
        }
    }
}
