//! Helpers shared by the end-to-end tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("cli/ has a parent")
        .to_path_buf()
}

/// The corpus folder.
pub fn corpus() -> PathBuf {
    root().join("corpus")
}

/// Runs `fgn` with `args` in the workspace root, feeding `stdin`: inside
/// this process ([`fgn_in_process`]), as most tests do. Starting the binary
/// costs a process each time, and the corpus loops run it thousands of
/// times; what a run in this process writes and its exit code are the
/// binary's (`cli::a_run_in_this_process_writes_what_the_binary_writes`).
/// A run that panics fails the test with the panic's message, as a crash
/// of the binary would fail it on its exit code.
pub fn fgn(args: &[&str], stdin: &[u8]) -> Output {
    use std::os::unix::process::ExitStatusExt;
    let ran = fgn_in_process(args, stdin).unwrap_or_else(|panic| panic!("fgn {args:?} panicked: {panic}"));
    Output {
        // A wait status holds the exit code in its second byte.
        status: std::process::ExitStatus::from_raw(ran.code << 8),
        stdout: ran.stdout,
        stderr: ran.stderr,
    }
}

/// Runs the `fgn` binary with `args` in the workspace root, feeding
/// `stdin`: for what only a process shows (its exit status, standard input
/// and output as pipes, the command line as the operating system hands it
/// over).
pub fn fgn_binary(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_fgn"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("fgn starts");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let input = stdin.to_vec();
    // Feed standard input from a thread so a large input cannot deadlock
    // against a full output pipe.
    let feeder = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let out = child.wait_with_output().expect("fgn runs");
    let _ = feeder.join();
    out
}

/// What a run of fgn inside this process gave.
#[derive(Debug)]
pub struct InProcess {
    /// The exit code.
    pub code: i32,
    /// Standard output.
    pub stdout: Vec<u8>,
    /// Standard error.
    pub stderr: Vec<u8>,
}

/// Runs fgn inside this process ([`fgn::run`]) with `args` and `stdin`, in
/// the workspace root as the binary runs in [`fgn_binary`]: `Err` with the
/// panic's message when the run panicked (a worker's panic is caught by
/// fgn itself and written as the file's internal error).
pub fn fgn_in_process(args: &[&str], stdin: &[u8]) -> Result<InProcess, String> {
    in_the_root();
    let mut argv = vec![std::ffi::OsString::from("fgn")];
    argv.extend(args.iter().map(std::ffi::OsString::from));
    let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
    let mut input = stdin;
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        fgn::run(argv, &mut input, &mut stdout, &mut stderr)
    }))
    .map(|code| InProcess {
        code,
        stdout: stdout.clone(),
        stderr: stderr.clone(),
    })
    .map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_owned())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "a panic".to_owned())
    })
}

/// Makes the workspace root this process's working folder, once: fgn
/// reads the relative paths the tests give it (`corpus/...`, which its
/// messages and the snapshots repeat) from there. The working folder is
/// the whole process's, so every test of this binary names its own files
/// by absolute paths ([`root`], [`scratch`]), and a process it starts on
/// relative paths is given its folder ([`fgn_binary`]).
fn in_the_root() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| std::env::set_current_dir(root()).expect("the workspace root is a folder"));
}

/// Every `*.fgn` file below `dir`, sorted.
pub fn fgn_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("readable corpus folder") {
            let path = entry.expect("readable entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "fgn") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// A fresh, empty folder for one test's files, under cargo's scratch
/// folder for integration tests (left in place to look at after a failure).
pub fn scratch_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// Runs `fgn` with `args` and `stdin`: the exit code, standard output and
/// standard error as text.
pub fn run(args: &[&str], stdin: &[u8]) -> (Option<i32>, String, String) {
    let out = fgn(args, stdin);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Writes `bytes` to the file `name` in the folder `folder` of the target's
/// scratch space (made if need be) and returns its path.
pub fn scratch(folder: &str, name: &str, bytes: &[u8]) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(folder);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    let path = dir.join(name);
    std::fs::write(&path, bytes).expect("a scratch file");
    path.display().to_string()
}

/// `bytes` compressed as gzip, as a server packs a log for download.
pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).expect("gzip");
    encoder.finish().expect("gzip")
}
