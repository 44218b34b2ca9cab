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
/// directories not followed), anything else is a file.
pub fn collect(paths: &[PathBuf]) -> Result<Vec<Input>, String> {
    let mut out = Vec::new();
    for p in paths {
        if p.as_os_str() == "-" {
            out.push(Input::Stdin);
            continue;
        }
        let meta = std::fs::metadata(p).map_err(|e| format!("{}: {e}", p.display()))?;
        if meta.is_dir() {
            let mut found = Vec::new();
            walk(p, &mut found)?;
            found.sort();
            out.extend(found.into_iter().map(Input::File));
        } else {
            out.push(Input::File(p.clone()));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| format!("{}: {e}", path.display()))?;
        if kind.is_dir() {
            walk(&path, found)?;
        } else if path.extension().is_some_and(|e| e == "fgn") && (kind.is_file() || path.is_file()) {
            found.push(path);
        }
    }
    Ok(())
}
