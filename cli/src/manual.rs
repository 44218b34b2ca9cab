//! `fgn man [COMMAND]`: the manual pages, written at run time from the
//! clap definition (so they never drift from `--help`), with the sections
//! clap_mangen does not write: EXIT STATUS and EXAMPLES. The examples of
//! every page are here, in one table; the end-to-end tests run each of them
//! in a folder holding the files they name.

use crate::report::Reporter;

/// The examples of each page, keyed by the command's words after `fgn`
/// (none for fgn's own page): what an example does, and its shell line.
/// They name `game.fgn` (a finished game), `old.fgn` (the same game cut
/// short), `white.fgn` (white's view of game.fgn), `games/` (a folder of
/// logs) and `rules.json` (a rules file), as the page says.
const EXAMPLES: &[(&str, &[(&str, &str)])] = &[
    (
        "",
        &[
            ("Check every log below games/.", "fgn validate games/"),
            ("Read about one command.", "fgn help validate"),
        ],
    ),
    (
        "fmt",
        &[
            ("Print a log in canonical form.", "fgn fmt game.fgn"),
            (
                "Name every file not in canonical form, with a diff of each.",
                "fgn fmt --check --diff games/",
            ),
            ("Rewrite them in place.", "fgn fmt --write games/"),
        ],
    ),
    (
        "json",
        &[
            ("One game as one JSON document.", "fgn json game.fgn > game.json"),
            (
                "A folder as one document per line, for DuckDB, pandas or jq.",
                "fgn json --ndjson games/ > games.ndjson",
            ),
        ],
    ),
    (
        "validate",
        &[
            ("Check every log below games/.", "fgn validate games/"),
            (
                "Check a download: warnings such as a torn last line are errors.",
                "fgn validate --strict game.fgn",
            ),
            ("Check under changed parameters.", "fgn validate --rules rules.json game.fgn"),
        ],
    ),
    (
        "impact",
        &[(
            "What the changed rules do to the games below games/.",
            "fgn impact --rules rules.json games/",
        )],
    ),
    (
        "show",
        &[
            ("The final position.", "fgn show game.fgn"),
            ("The position after 10 events, as white knew it.", "fgn show --at 10 --as white game.fgn"),
            ("The board as an SVG picture.", "fgn show --format svg game.fgn > board.svg"),
        ],
    ),
    (
        "html",
        &[
            ("A page that replays one game.", "fgn html game.fgn > game.html"),
            ("A site of a folder, with an index.", "fgn html --out site/ games/"),
        ],
    ),
    ("leaderboard", &[("The standings of a folder of games.", "fgn leaderboard games/")]),
    (
        "completions",
        &[
            (
                "Install the bash completions for your user.",
                "mkdir -p ~/.local/share/bash-completion/completions && fgn completions bash > ~/.local/share/bash-completion/completions/fgn",
            ),
            (
                "The zsh completions (with ~/.zfunc in fpath).",
                "mkdir -p ~/.zfunc && fgn completions zsh > ~/.zfunc/_fgn",
            ),
            (
                "The fish completions.",
                "mkdir -p ~/.config/fish/completions && fgn completions fish > ~/.config/fish/completions/fgn.fish",
            ),
        ],
    ),
    (
        "man",
        &[
            (
                "Install the page of fgn for your user.",
                "mkdir -p ~/.local/share/man/man1 && fgn man > ~/.local/share/man/man1/fgn.1",
            ),
            (
                "And the page of one command.",
                "mkdir -p ~/.local/share/man/man1 && fgn man validate > ~/.local/share/man/man1/fgn-validate.1",
            ),
        ],
    ),
    (
        "rules",
        &[
            ("A rules file to edit: a game's defaults.", "fgn rules show survival-chess > my-rules.json"),
            ("Check a rules file before using it.", "fgn rules check rules.json"),
        ],
    ),
    ("rules show", &[("The defaults of a game.", "fgn rules show open-world-chess")]),
    ("rules check", &[("Check a rules file.", "fgn rules check rules.json")]),
    ("view", &[("White's view of a game.", "fgn view --as white game.fgn > white-view.fgn")]),
    (
        "verify-view",
        &[("Check that white.fgn is white's view of game.fgn.", "fgn verify-view game.fgn white.fgn")],
    ),
    (
        "hash",
        &[
            ("The log hash of each game.", "fgn hash games/"),
            ("Write them down and check them later.", "fgn hash games/ > SUMS && fgn hash --check SUMS"),
        ],
    ),
    (
        "verify-extends",
        &[("Check that game.fgn only appended to old.fgn.", "fgn verify-extends old.fgn game.fgn")],
    ),
    (
        "append",
        &[
            ("Append black's move to a game in progress.", "fgn append old.fgn '2 b Qd8-h4#'"),
            ("Cut a torn last line left by a crash.", "fgn append --repair game.fgn"),
        ],
    ),
    (
        "diff",
        &[
            ("Where two logs part, and how their positions differ.", "fgn diff old.fgn game.fgn"),
            ("The same, as white knows them.", "fgn diff --as white old.fgn game.fgn"),
        ],
    ),
    (
        "gen",
        &[
            ("One random game.", "fgn gen --game survival-chess --seed 7 > random.fgn"),
            (
                "Five, each in its own file in generated/.",
                "fgn gen --game magic-draughts --seed 1 --count 5 --out generated/",
            ),
        ],
    ),
    ("from-json", &[("A game to JSON and back.", "fgn json game.fgn | fgn from-json -")]),
    (
        "convert",
        &[
            ("Every 8x8 survival-chess game as PGN.", "fgn convert --to pgn games/ > games.pgn"),
            (
                "The PGN games back, a file each.",
                "fgn convert --from pgn --out back/ games.pgn",
            ),
            ("The magic-draughts games as PDN.", "fgn convert --to pdn games/ > games.pdn"),
        ],
    ),
    (
        "events",
        &[("One row per event of every game, for DuckDB.", "fgn events --ndjson games/ > events.ndjson")],
    ),
    (
        "select",
        &[
            ("The games won by mate.", "fgn select --reason mate games/"),
            ("Groups of files holding the same game.", "fgn select --duplicates games/"),
        ],
    ),
    ("stats", &[("Results, reasons and lengths per game and player.", "fgn stats games/")]),
];

/// What the exit codes mean, for every command (docs/cli.md, "Exit status").
const EXIT_STATUS: [(&str, &str); 3] = [
    ("0", "Success."),
    (
        "1",
        "Some input is invalid (for diff and the verify commands: the logs differ, the check fails; for rules check: the rules file cannot be used).",
    ),
    (
        "2",
        "A usage or I/O error, a file that cannot be read or parsed where a comparison needs it, or a game that cannot be checked yet.",
    ),
];

/// `fgn man [COMMAND...]`: the page of fgn (`root`, the command line as
/// clap knows it) or of one of its commands (`rules show` is a command of
/// its own), as roff.
pub fn man(root: clap::Command, words: &[String], rep: &mut Reporter<'_>) {
    // `fgn help` is clap's own and has no page: it is left out of the
    // lists, as every page says how to get help.
    let mut root = root.disable_help_subcommand(true);
    // Building gives every command its global options and its full name
    // (`fgn validate`), which the synopsis writes.
    root.build();
    let mut page = &root;
    for (at, word) in words.iter().enumerate() {
        match page.find_subcommand(word) {
            Some(sub) => page = sub,
            None => {
                let path = words[..=at].join(" ");
                let nearest = fgn_replay::ruleset::nearest(word, page.get_subcommands().map(clap::Command::get_name));
                let tip = nearest.map_or(String::new(), |name| format!("; did you mean `{name}`?"));
                return rep.error(&format!("`{path}` is not a command of fgn (see `fgn --help`){tip}"));
            }
        }
    }
    let key = words.join(" ");
    let examples = EXAMPLES
        .iter()
        .find(|(name, _)| *name == key)
        .map_or(&[][..], |(_, e)| e);
    let mut roff = Vec::new();
    match render(page.clone(), examples, &mut roff) {
        Ok(()) => rep.print(&once_preamble(&String::from_utf8_lossy(&roff))),
        Err(e) => rep.error(&format!("cannot write the manual page: {e}")),
    }
}

/// The page of `cmd`: clap_mangen's sections in the order man-pages(7)
/// gives, with EXIT STATUS and EXAMPLES before VERSION.
fn render(cmd: clap::Command, examples: &[(&str, &str)], out: &mut Vec<u8>) -> std::io::Result<()> {
    let has_options = cmd.get_arguments().any(|a| !a.is_hide_set());
    let has_commands = cmd.has_subcommands();
    let has_version = cmd.get_version().is_some() || cmd.get_long_version().is_some();
    let page = clap_mangen::Man::new(cmd).source(format!("fgn {}", env!("CARGO_PKG_VERSION")));
    page.render_title(out)?;
    page.render_name_section(out)?;
    page.render_synopsis_section(out)?;
    page.render_description_section(out)?;
    if has_options {
        page.render_options_section(out)?;
    }
    if has_commands {
        page.render_subcommands_section(out)?;
    }
    let mut text = String::from(".SH \"EXIT STATUS\"\n");
    for (code, meaning) in EXIT_STATUS {
        text += &format!(".TP\n\\fB{code}\\fR\n{}\n", escape(meaning));
    }
    text += ".SH EXAMPLES\n";
    text += &escape(
        "game.fgn is a finished game, old.fgn the same game cut short, white.fgn white's view of game.fgn, \
         games/ a folder of logs and rules.json a rules file.",
    );
    text.push('\n');
    for (what, line) in examples {
        text += &format!(".PP\n{}\n.PP\n.RS 4\n.nf\n{}\n.fi\n.RE\n", escape(what), escape(line));
    }
    out.extend_from_slice(text.as_bytes());
    // Only fgn's own page has a version: clap_mangen cannot write the
    // section of a command without one.
    if has_version {
        page.render_version_section(out)?;
    }
    Ok(())
}

/// `roff` with clap_mangen's preamble (the definition of the string `Aq`)
/// once, at the top: the page is written a section at a time, and each
/// section brings its own copy.
fn once_preamble(roff: &str) -> String {
    let mut seen = std::collections::HashSet::new();
    let mut page = String::with_capacity(roff.len());
    for line in roff.split_inclusive('\n') {
        let preamble = line.starts_with(".ie \\n(.g .ds Aq") || line.starts_with(".el .ds Aq");
        if !preamble || seen.insert(line) {
            page.push_str(line);
        }
    }
    page
}

/// `text` as roff reads it literally: backslashes and hyphens escaped, and
/// a line that would open with a control character made plain text.
fn escape(text: &str) -> String {
    let escaped = text.replace('\\', "\\\\").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}
