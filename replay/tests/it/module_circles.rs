//! No module circle in the workspace's crates (issue 43: a leaf core that
//! imports no game, and no circle anywhere). The test reads every `.rs`
//! file under `notation/src`, `replay/src`, `replay/tools/src` and
//! `cli/src`, builds each crate's graph of module dependencies from the
//! paths its code names, and fails with every circle it finds, each edge
//! with the path that made it.
//!
//! What counts as a dependency of module M on module N:
//! - a path in M's code that starts with `crate::`, `self::`, `super::`,
//!   the name of a module M declares (`games::open_world_chess::State`)
//!   or a name one of M's `use` declarations brings in from the crate,
//!   resolved to the module where the item is defined: the longest prefix
//!   that names a module, then, if the next segment is an item that module
//!   imports rather than defines, through its `use` (or `use ...::*`) to
//!   the module that defines it. So `crate::Replay`, re-exported by
//!   `lib.rs` from `session`, is a dependency on `session`, not on the
//!   crate root; a re-exporting module does not sit in the middle of
//!   every circle through its re-exports;
//! - a private `use` in M, resolved the same way;
//! - a `pub use` (any visibility) in M only when M's own code also names
//!   the item as an item (with a capital letter, or called: `f(`, `m!`,
//!   and not after a `.`), or writes a path that starts with it: a
//!   re-export alone is a passage, not a dependency;
//! - never a `mod x;` or `mod x { ... }` declaration: a parent owns its
//!   children, and depends on one only where it names its items.
//!
//! Test code is left out: files named `tests.rs`, the files of modules
//! declared under `#[cfg(test)]`, and every item under `#[cfg(test)]`
//! (the `#[cfg(test)] mod tests { ... }` blocks).
//!
//! Its limits, all of a small parser over the text rather than a compiler:
//! - macros are not expanded (a path only a macro call builds is missed,
//!   `$crate::` paths in `macro_rules!` count for the module defining the
//!   macro), and `cfg` attributes other than `cfg(test)` are ignored;
//! - a name brought in by a glob `pub use m::*` and used in the same
//!   module is not counted; items are known only by the keyword that
//!   defines them (`fn`, `struct`, `enum`, `trait`, `type`, `const`,
//!   `static`, `union`, `macro_rules!`), wherever they stand in the file
//!   (an item inside a function counts as the module's);
//! - a lowercase item re-exported and used in the same module without
//!   a call (a function passed by name) is not counted, nor a name
//!   brought in by a glob `use` and written as the start of a path;
//! - `#[path]` attributes and `include!` are not followed (the crates
//!   use neither today).

use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Ident(String),
    /// `::`
    PathSep,
    Punct(char),
    /// A literal, or anything else no rule below looks at.
    Other,
}

/// The tokens of Rust source, without comments, strings and character
/// literals (so that a `{` or `::` inside them is never read as code).
fn tokens(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '/' && at(i + 1) == '/' {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && at(i + 1) == '*' {
            // Block comments nest in Rust.
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if chars[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
        } else if c == '"' {
            i = skip_string(&chars, i + 1);
            out.push(Token::Other);
        } else if c == '\'' {
            // A character literal ('x', '\n', '\u{7f}') or a lifetime ('a).
            if at(i + 1) == '\\' {
                // Past the quote, the backslash and the escaped character.
                i += 3;
                while i < chars.len() && chars[i] != '\'' {
                    i += 1;
                }
                i += 1;
                out.push(Token::Other);
            } else if at(i + 2) == '\'' {
                i += 3;
                out.push(Token::Other);
            } else {
                i += 1;
            }
        } else if c.is_ascii_digit() {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Other);
        } else if c.is_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            match (word.as_str(), at(i)) {
                // Raw strings: r"..", r#".."#, br"..", br#".."#.
                ("r" | "br", '"' | '#') if at(i) == '"' || matches!(at(i + 1), '"' | '#') => {
                    let mut hashes = 0;
                    while at(i) == '#' {
                        hashes += 1;
                        i += 1;
                    }
                    i += 1;
                    loop {
                        if i >= chars.len() {
                            break;
                        }
                        if chars[i] == '"' && (1..=hashes).all(|k| at(i + k) == '#') {
                            i += 1 + hashes;
                            break;
                        }
                        i += 1;
                    }
                    out.push(Token::Other);
                }
                // A raw identifier: r#type.
                ("r", '#') => {
                    let start = i + 1;
                    i += 1;
                    while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                        i += 1;
                    }
                    out.push(Token::Ident(chars[start..i].iter().collect()));
                }
                // Byte strings and byte characters: b"..", b'x'.
                ("b" | "c", '"') => {
                    i = skip_string(&chars, i + 1);
                    out.push(Token::Other);
                }
                ("b", '\'') => {
                    i += 1;
                    if at(i) == '\\' {
                        i += 1;
                    }
                    i += 1;
                    while i < chars.len() && chars[i] != '\'' {
                        i += 1;
                    }
                    i += 1;
                    out.push(Token::Other);
                }
                _ => out.push(Token::Ident(word)),
            }
        } else if c == ':' && at(i + 1) == ':' {
            out.push(Token::PathSep);
            i += 2;
        } else {
            out.push(Token::Punct(c));
            i += 1;
        }
    }
    out
}

/// The index just past the closing quote of a string whose text starts at
/// `i`.
fn skip_string(chars: &[char], mut i: usize) -> usize {
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            '"' => return i + 1,
            _ => i += 1,
        }
    }
    i
}

/// One name a `use` declaration brings into a module.
#[derive(Debug, Clone)]
struct Import {
    /// The path as written, `self` and `super` included.
    path: Vec<String>,
    /// The name it is known by in the module; `None` for a glob (`*`).
    name: Option<String>,
    /// Declared with a visibility (`pub`, `pub(crate)`, ...): a re-export.
    public: bool,
}

/// What the parser saw of one module.
#[derive(Debug, Default)]
struct Module {
    /// The file it is in, for the report.
    file: String,
    /// The modules it declares (`mod x;` and `mod x { ... }`).
    children: BTreeSet<String>,
    /// The items it defines.
    defines: BTreeSet<String>,
    imports: Vec<Import>,
    /// Paths in its code (`a::b::c`), as written.
    paths: Vec<Vec<String>>,
    /// The identifiers its code uses as an item rather than as a variable
    /// or field: those that begin with a capital letter or are called
    /// (`f(`, `m!`), outside `use` declarations and never after a `.`.
    items_named: BTreeSet<String>,
}

/// A module's path from the crate root: `["crate", "games", "magic_draughts"]`.
type ModPath = Vec<String>;

fn is_ident(token: Option<&Token>, word: &str) -> bool {
    matches!(token, Some(Token::Ident(w)) if w == word)
}

/// The index just past the group that opens at `i` (`(`, `[` or `{`),
/// counting every kind of bracket.
fn skip_group(toks: &[Token], mut i: usize) -> usize {
    let mut depth = 0usize;
    while i < toks.len() {
        match toks[i] {
            Token::Punct('(' | '[' | '{') => depth += 1,
            Token::Punct(')' | ']' | '}') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    i
}

/// The index just past the item that starts at `i`: its first `;` or its
/// first `{ ... }` block outside brackets, attributes included.
fn skip_item(toks: &[Token], mut i: usize) -> usize {
    while i < toks.len() {
        match toks[i] {
            Token::Punct(';') => return i + 1,
            Token::Punct('{') => return skip_group(toks, i),
            Token::Punct('(' | '[') => i = skip_group(toks, i),
            _ => i += 1,
        }
    }
    i
}

/// Parses a use tree at `i` into `out`, with `prefix` the path before it;
/// returns the index past it.
fn use_tree(toks: &[Token], mut i: usize, prefix: &[String], public: bool, out: &mut Vec<Import>) -> usize {
    let mut path = prefix.to_vec();
    if toks.get(i) == Some(&Token::PathSep) {
        i += 1;
    }
    loop {
        match toks.get(i) {
            Some(Token::Ident(w)) => {
                path.push(w.clone());
                i += 1;
            }
            Some(Token::Punct('*')) => {
                out.push(Import {
                    path,
                    name: None,
                    public,
                });
                return i + 1;
            }
            Some(Token::Punct('{')) => {
                i += 1;
                while i < toks.len() && toks[i] != Token::Punct('}') {
                    i = use_tree(toks, i, &path, public, out);
                    if toks.get(i) == Some(&Token::Punct(',')) {
                        i += 1;
                    }
                }
                return i + 1;
            }
            _ => return i,
        }
        if toks.get(i) == Some(&Token::PathSep) {
            i += 1;
            continue;
        }
        // The end of a simple path, perhaps renamed.
        let mut name = path.last().cloned();
        if path.last().map(String::as_str) == Some("self") {
            path.pop();
            name = path.last().cloned();
        }
        if is_ident(toks.get(i), "as") {
            if let Some(Token::Ident(alias)) = toks.get(i + 1) {
                name = Some(alias.clone());
            }
            i += 2;
        }
        out.push(Import { path, name, public });
        return i;
    }
}

/// Whether the attribute whose `[` is at `i` is exactly `[cfg(test)]`.
fn is_cfg_test(toks: &[Token], i: usize) -> bool {
    let want = [
        Token::Punct('['),
        Token::Ident("cfg".into()),
        Token::Punct('('),
        Token::Ident("test".into()),
        Token::Punct(')'),
        Token::Punct(']'),
    ];
    toks.get(i..i + want.len()) == Some(&want[..])
}

const ITEM_KEYWORDS: [&str; 8] = ["fn", "struct", "enum", "trait", "type", "const", "static", "union"];

/// Reads one file, the module `file_module`, into `modules` (its inline
/// modules become modules of their own); returns the modules it declares
/// under `#[cfg(test)]`, whose files are test code.
fn read_file(file: &str, file_module: &ModPath, text: &str, modules: &mut BTreeMap<ModPath, Module>) -> Vec<ModPath> {
    let toks = tokens(text);
    let mut test_modules = Vec::new();
    // The inline modules open at this point, with the brace depth that
    // closes each.
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut public_at = usize::MAX;
    let mut i = 0;
    let current = |inline: &[(String, usize)]| -> ModPath {
        let mut path = file_module.clone();
        path.extend(inline.iter().map(|(name, _)| name.clone()));
        path
    };
    modules.entry(file_module.clone()).or_default().file = file.to_string();
    while i < toks.len() {
        let here = current(&inline);
        match &toks[i] {
            Token::Punct('#') => {
                let bracket = if toks.get(i + 1) == Some(&Token::Punct('!')) {
                    i + 2
                } else {
                    i + 1
                };
                if toks.get(bracket) != Some(&Token::Punct('[')) {
                    // A `#` outside an attribute, as in a macro's pattern.
                    i += 1;
                    continue;
                }
                let test = is_cfg_test(&toks, bracket);
                let inner = bracket == i + 2;
                let past = skip_group(&toks, bracket);
                if test && inner {
                    // `#![cfg(test)]`: the whole file is test code.
                    modules.remove(file_module);
                    return vec![file_module.clone()];
                }
                if test {
                    // Skip the further attributes and the item itself.
                    let mut j = past;
                    while toks.get(j) == Some(&Token::Punct('#')) {
                        j = skip_group(&toks, j + 1);
                    }
                    let mut k = j;
                    while matches!(toks.get(k), Some(Token::Ident(w)) if w == "pub") {
                        k += 1;
                        if toks.get(k) == Some(&Token::Punct('(')) {
                            k = skip_group(&toks, k);
                        }
                    }
                    if is_ident(toks.get(k), "mod") {
                        if let Some(Token::Ident(name)) = toks.get(k + 1) {
                            let mut path = here.clone();
                            path.push(name.clone());
                            test_modules.push(path);
                        }
                    }
                    i = skip_item(&toks, j);
                } else {
                    i = past;
                }
                continue;
            }
            Token::Ident(w) if w == "pub" => {
                i += 1;
                if toks.get(i) == Some(&Token::Punct('(')) {
                    // `pub(crate)`, `pub(in crate::x)`: a visibility, not a path.
                    i = skip_group(&toks, i);
                }
                public_at = i;
                continue;
            }
            Token::Ident(w) if w == "use" => {
                let mut imports = Vec::new();
                let end = use_tree(&toks, i + 1, &[], public_at == i, &mut imports);
                modules.entry(here).or_default().imports.extend(imports);
                i = end;
                continue;
            }
            Token::Ident(w) if w == "mod" => {
                if let Some(Token::Ident(name)) = toks.get(i + 1) {
                    modules.entry(here.clone()).or_default().children.insert(name.clone());
                    if toks.get(i + 2) == Some(&Token::Punct('{')) {
                        depth += 1;
                        inline.push((name.clone(), depth));
                        let mut path = here;
                        path.push(name.clone());
                        modules.entry(path).or_default().file = file.to_string();
                        i += 3;
                        continue;
                    }
                }
                i += 2;
                continue;
            }
            Token::Ident(w) if w == "macro_rules" => {
                if let (Some(Token::Punct('!')), Some(Token::Ident(name))) = (toks.get(i + 1), toks.get(i + 2)) {
                    modules.entry(here).or_default().defines.insert(name.clone());
                }
                i += 3;
                continue;
            }
            Token::Ident(w) if ITEM_KEYWORDS.contains(&w.as_str()) => {
                if let Some(Token::Ident(name)) = toks.get(i + 1) {
                    modules.entry(here.clone()).or_default().defines.insert(name.clone());
                }
            }
            Token::Ident(w) => {
                let module = modules.entry(here).or_default();
                let after_dot = i > 0 && toks[i - 1] == Token::Punct('.');
                let called = matches!(toks.get(i + 1), Some(Token::Punct('(' | '!')));
                if !after_dot && (called || w.starts_with(char::is_uppercase)) {
                    module.items_named.insert(w.clone());
                }
                let starts_path = toks.get(i + 1) == Some(&Token::PathSep) && (i == 0 || toks[i - 1] != Token::PathSep);
                if starts_path {
                    let mut path = vec![w.clone()];
                    let mut j = i + 1;
                    while toks.get(j) == Some(&Token::PathSep) {
                        match toks.get(j + 1) {
                            Some(Token::Ident(next)) => {
                                path.push(next.clone());
                                j += 2;
                            }
                            _ => break,
                        }
                    }
                    module.paths.push(path);
                    i = j;
                    continue;
                }
            }
            Token::Punct('{') => depth += 1,
            Token::Punct('}') => {
                if inline.last().is_some_and(|&(_, d)| d == depth) {
                    inline.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
        i += 1;
    }
    test_modules
}

/// The module a source file is, from its path under `src/`.
fn module_of(relative: &Path) -> ModPath {
    let mut path = vec!["crate".to_string()];
    let parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    for (k, part) in parts.iter().enumerate() {
        if k + 1 < parts.len() {
            path.push(part.clone());
        } else {
            let stem = part.trim_end_matches(".rs");
            if !matches!(stem, "lib" | "main" | "mod") {
                path.push(stem.to_string());
            }
        }
    }
    path
}

/// One crate's modules and the dependencies between them.
struct Graph {
    modules: BTreeMap<ModPath, Module>,
    /// For each module, the modules it depends on, each with the path in
    /// its code that made the dependency.
    edges: BTreeMap<ModPath, BTreeMap<ModPath, String>>,
}

impl Graph {
    /// The graph of a crate from its source files: paths relative to
    /// `src/` and their text.
    fn of(files: &[(PathBuf, String)]) -> Graph {
        let mut modules = BTreeMap::new();
        let mut test_modules = Vec::new();
        for (relative, text) in files {
            if relative.file_name().is_some_and(|name| name == "tests.rs") {
                continue;
            }
            let file = relative.to_string_lossy().into_owned();
            test_modules.extend(read_file(&file, &module_of(relative), text, &mut modules));
        }
        modules.retain(|path, _| !test_modules.iter().any(|test| path.starts_with(test)));
        let mut graph = Graph {
            modules,
            edges: BTreeMap::new(),
        };
        graph.connect();
        graph
    }

    /// The absolute path a path written in `module` stands for, if it
    /// starts inside the crate: with `crate`, `self`, `super`, a module
    /// `module` declares, or a name one of its `use` declarations brings
    /// in from inside the crate.
    fn absolute(&self, module: &ModPath, written: &[String]) -> Option<ModPath> {
        self.absolute_within(module, written, 0)
    }

    fn absolute_within(&self, module: &ModPath, written: &[String], hops: usize) -> Option<ModPath> {
        let mut path = module.clone();
        let mut rest = written;
        match rest.first().map(String::as_str) {
            Some("crate") => {
                path = vec!["crate".into()];
                rest = &rest[1..];
            }
            Some("self") => rest = &rest[1..],
            Some("super") => {
                while rest.first().map(String::as_str) == Some("super") {
                    if path.len() > 1 {
                        path.pop();
                    }
                    rest = &rest[1..];
                }
            }
            Some(first) if self.modules.get(module).is_some_and(|m| m.children.contains(first)) => {}
            Some(first) if hops < 16 => {
                let info = self.modules.get(module)?;
                let import = info
                    .imports
                    .iter()
                    .find(|import| import.name.as_deref() == Some(first))?;
                let mut path = self.absolute_within(module, &import.path, hops + 1)?;
                path.extend(rest[1..].iter().cloned());
                return Some(path);
            }
            _ => return None,
        }
        path.extend(rest.iter().cloned());
        Some(path)
    }

    /// The module that defines what the absolute `path` names, following
    /// imports; `None` when it leads out of the crate.
    fn resolve(&self, path: &[String], hops: usize) -> Option<ModPath> {
        let mut cut = path.len();
        while cut > 1 && !self.modules.contains_key(&path[..cut]) {
            cut -= 1;
        }
        let module = path[..cut].to_vec();
        let Some(name) = path.get(cut) else { return Some(module) };
        let info = self.modules.get(&module)?;
        if info.defines.contains(name) || hops > 16 {
            return Some(module);
        }
        if let Some(import) = info.imports.iter().find(|import| import.name.as_ref() == Some(name)) {
            let mut target = self.absolute(&module, &import.path)?;
            target.extend(path[cut + 1..].iter().cloned());
            return self.resolve(&target, hops + 1);
        }
        for glob in info.imports.iter().filter(|import| import.name.is_none()) {
            let Some(from) = self.absolute(&module, &glob.path) else {
                continue;
            };
            let Some(source) = self.modules.get(&from) else {
                continue;
            };
            if source.defines.contains(name) || source.imports.iter().any(|i| i.name.as_ref() == Some(name)) {
                let mut target = from;
                target.extend(path[cut..].iter().cloned());
                return self.resolve(&target, hops + 1);
            }
        }
        Some(module)
    }

    fn connect(&mut self) {
        let mut edges: BTreeMap<ModPath, BTreeMap<ModPath, String>> = BTreeMap::new();
        for (path, module) in &self.modules {
            let mut add = |written: &[String], why: String| {
                let target = self.absolute(path, written).and_then(|abs| self.resolve(&abs, 0));
                if let Some(target) = target.filter(|target| target != path) {
                    edges.entry(path.clone()).or_default().entry(target).or_insert(why);
                }
            };
            for written in &module.paths {
                add(written, format!("{}: {}", module.file, written.join("::")));
            }
            for import in &module.imports {
                // A re-exported module counts through the paths that
                // start with its name (above), an item where it is named.
                let named_here = import
                    .name
                    .as_ref()
                    .is_some_and(|name| module.items_named.contains(name));
                if !import.public || named_here {
                    let written = match &import.name {
                        None => format!("{}::*", import.path.join("::")),
                        Some(name) if import.path.last() == Some(name) => import.path.join("::"),
                        Some(name) => format!("{} as {name}", import.path.join("::")),
                    };
                    add(&import.path, format!("{}: use {written}", module.file));
                }
            }
        }
        self.edges = edges;
    }

    /// Every circle: for each set of modules that reach each other, one
    /// shortest circle through its first module, as the lines of a report.
    fn circles(&self) -> Vec<Vec<String>> {
        let nodes: Vec<&ModPath> = self.modules.keys().collect();
        let reach = |from: &ModPath| -> BTreeSet<ModPath> {
            let mut seen = BTreeSet::new();
            let mut queue = VecDeque::from([from.clone()]);
            while let Some(node) = queue.pop_front() {
                for next in self.edges.get(&node).into_iter().flat_map(|e| e.keys()) {
                    if seen.insert(next.clone()) {
                        queue.push_back(next.clone());
                    }
                }
            }
            seen
        };
        let reaches: BTreeMap<&ModPath, BTreeSet<ModPath>> = nodes.iter().map(|&n| (n, reach(n))).collect();
        let mut done = BTreeSet::new();
        let mut out = Vec::new();
        for &node in &nodes {
            if done.contains(node) || !reaches[node].contains(node) {
                continue;
            }
            let members: BTreeSet<ModPath> = reaches[node]
                .iter()
                .filter(|other| reaches.get(other).is_some_and(|r| r.contains(node)))
                .cloned()
                .collect();
            done.extend(members.iter().cloned());
            out.push(self.shortest_circle(node, &members));
        }
        out
    }

    /// A shortest circle from `start` back to it inside `members`, one
    /// line an edge.
    fn shortest_circle(&self, start: &ModPath, members: &BTreeSet<ModPath>) -> Vec<String> {
        let mut came_from: BTreeMap<ModPath, ModPath> = BTreeMap::new();
        let mut queue = VecDeque::from([start.clone()]);
        'search: while let Some(node) = queue.pop_front() {
            for next in self.edges.get(&node).into_iter().flat_map(|e| e.keys()) {
                if !members.contains(next) || came_from.contains_key(next) {
                    continue;
                }
                came_from.insert(next.clone(), node.clone());
                if next == start {
                    break 'search;
                }
                queue.push_back(next.clone());
            }
        }
        let mut hops = Vec::new();
        let mut at = start.clone();
        while let Some(before) = came_from.get(&at) {
            hops.push((before.clone(), at.clone()));
            at = before.clone();
            if &at == start {
                break;
            }
        }
        hops.reverse();
        let mut lines = vec![format!(
            "{} modules reach each other: {}",
            members.len(),
            members.iter().map(|m| m.join("::")).collect::<Vec<_>>().join(", ")
        )];
        for (from, to) in hops {
            lines.push(format!(
                "  {} -> {}   ({})",
                from.join("::"),
                to.join("::"),
                self.edges[&from][&to]
            ));
        }
        lines
    }
}

/// Every `.rs` file under `dir`, as paths relative to it, with its text.
fn sources(dir: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        let entries = std::fs::read_dir(&at).unwrap_or_else(|e| panic!("{}: {e}", at.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                out.push((path.strip_prefix(dir).expect("under dir").to_path_buf(), text));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn no_crate_has_a_module_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut report = String::new();
    for krate in ["notation", "replay", "replay/tools", "cli", "python"] {
        let files = sources(&root.join(krate).join("src"));
        assert!(files.len() > 3, "{krate}/src: only {} files read", files.len());
        let graph = Graph::of(&files);
        let edges: usize = graph.edges.values().map(BTreeMap::len).sum();
        assert!(edges > 0, "{krate}: no dependency found between its modules");
        for circle in graph.circles() {
            report.push_str(&format!("{krate}: {}\n", circle.join("\n")));
        }
    }
    assert!(report.is_empty(), "module circles:\n{report}");
}

/// The modules every game's folder has (ARCHITECTURE.md, "Every game's
/// folder is laid out alike"); a game adds the modules of its own rules.
const GAME_MODULES: [&str; 8] = ["mod", "params", "engine", "state", "view", "changes", "picture", "game"];

/// Every game's folder is laid out alike: the same modules, and `mod.rs`
/// files (the folder's and any sub-folder's) that only declare modules and
/// re-export their items. A `mod.rs` with code of its own would sit above
/// the modules it uses while they, as its children, reach its items by
/// `super::`: the circle this layout exists to prevent.
#[test]
fn every_game_folder_has_the_same_modules_and_a_mod_rs_of_declarations_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files = sources(&src);
    let graph = Graph::of(&files);
    let mut games: Vec<String> = files
        .iter()
        .filter_map(
            |(path, _)| match path.iter().map(|part| part.to_string_lossy()).collect::<Vec<_>>()[..] {
                [ref games, ref game, ref file] if games == "games" && file == "mod.rs" => Some(game.to_string()),
                _ => None,
            },
        )
        .collect();
    games.dedup();
    assert_eq!(games.len(), 4, "game folders under replay/src/games: {games:?}");
    let mut faults = Vec::new();
    for game in &games {
        for module in GAME_MODULES {
            if !src.join("games").join(game).join(format!("{module}.rs")).is_file() {
                faults.push(format!("games/{game}/{module}.rs is missing"));
            }
        }
    }
    for (path, _) in files
        .iter()
        .filter(|(path, _)| path.starts_with("games") && path.ends_with("mod.rs"))
    {
        let module: ModPath = std::iter::once("crate".to_string())
            .chain(
                path.parent()
                    .expect("in a folder")
                    .iter()
                    .map(|part| part.to_string_lossy().into_owned()),
            )
            .collect();
        if module.len() < 3 {
            // games/mod.rs, the registry, is not a game's folder.
            continue;
        }
        let parsed = &graph.modules[&module];
        let file = path.display();
        if !parsed.defines.is_empty() {
            faults.push(format!("{file} defines items: {:?}", parsed.defines));
        }
        if !parsed.items_named.is_empty() || !parsed.paths.is_empty() {
            faults.push(format!("{file} has code: it names {:?}", parsed.items_named));
        }
        if let Some(import) = parsed.imports.iter().find(|import| !import.public) {
            faults.push(format!("{file} uses {} for code of its own", import.path.join("::")));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

/// A crate given as (path under src/, text) pairs.
fn crate_of(files: &[(&str, &str)]) -> Graph {
    Graph::of(
        &files
            .iter()
            .map(|(path, text)| (PathBuf::from(path), text.to_string()))
            .collect::<Vec<_>>(),
    )
}

fn edge(graph: &Graph, from: &str, to: &str) -> bool {
    let path = |s: &str| s.split("::").map(String::from).collect::<ModPath>();
    graph.edges.get(&path(from)).is_some_and(|e| e.contains_key(&path(to)))
}

#[test]
fn a_circle_through_use_and_super_is_found_and_named() {
    let graph = crate_of(&[
        ("lib.rs", "mod a;\nmod b;\n"),
        ("a.rs", "use crate::b::{self, X as Renamed};\npub struct Y;\n"),
        ("b.rs", "pub struct X;\nfn f(_: super::a::Y) {}\n"),
    ]);
    assert!(edge(&graph, "crate::a", "crate::b") && edge(&graph, "crate::b", "crate::a"));
    let circles = graph.circles();
    assert_eq!(circles.len(), 1, "{circles:?}");
    assert!(
        circles[0][0].starts_with("2 modules reach each other: crate::a, crate::b"),
        "{circles:?}"
    );
    assert_eq!(circles[0].len(), 3, "{circles:?}");
}

#[test]
fn a_reexport_at_the_root_and_a_parents_mod_declaration_make_no_circle() {
    let graph = crate_of(&[
        (
            "lib.rs",
            "pub mod core;\nmod game;\npub use game::Game;\npub use crate::core::{Turn, Phase};\n",
        ),
        ("core/mod.rs", "mod turn;\npub use turn::*;\n"),
        ("core/turn.rs", "pub enum Turn { A }\npub enum Phase { B }\n"),
        ("game.rs", "use crate::Turn;\npub struct Game(crate::Phase);\n"),
    ]);
    assert!(edge(&graph, "crate::game", "crate::core::turn"), "{:?}", graph.edges);
    assert!(!edge(&graph, "crate", "crate::game") && !edge(&graph, "crate::game", "crate"));
    assert!(!edge(&graph, "crate", "crate::core") && !edge(&graph, "crate::core", "crate::core::turn"));
    assert!(graph.circles().is_empty(), "{:?}", graph.circles());
}

#[test]
fn a_root_that_uses_what_it_reexports_depends_on_it() {
    let graph = crate_of(&[
        (
            "lib.rs",
            "mod a;\npub use a::A;\npub fn make() -> A { a::new() }\npub struct Root;\n",
        ),
        ("a.rs", "pub struct A;\npub fn new() -> A { let _ = crate::Root; A }\n"),
    ]);
    assert!(edge(&graph, "crate", "crate::a") && edge(&graph, "crate::a", "crate"));
    assert_eq!(graph.circles().len(), 1);
}

#[test]
fn test_code_comments_and_strings_are_not_dependencies() {
    let graph = crate_of(&[
        ("lib.rs", "mod a;\nmod b;\n#[cfg(test)]\nmod checks;\n"),
        (
            "a.rs",
            "pub struct A;\n// crate::b::B\nconst S: &str = \"crate::b::B {\";\nconst C: char = '{';\n\
             #[cfg(test)]\nmod tests {\n    use crate::b::B;\n}\nfn f<'a>(x: &'a str) -> &'a str { x }\n",
        ),
        ("b.rs", "use crate::a::A;\npub struct B;\n"),
        ("b/tests.rs", "use crate::b::B;\n"),
        ("checks.rs", "use crate::b::B;\n"),
    ]);
    assert!(edge(&graph, "crate::b", "crate::a"));
    assert!(!edge(&graph, "crate::a", "crate::b"), "{:?}", graph.edges);
    assert!(graph.circles().is_empty());
}

#[test]
fn a_reexported_module_counts_where_a_path_starts_with_it_not_where_a_variable_shares_its_name() {
    let quiet = crate_of(&[
        (
            "lib.rs",
            "mod tools;\npub use tools::events;\npub struct Trail;\nfn f(x: Log) { let events = x.events; }\n",
        ),
        ("tools/mod.rs", "pub mod events;\n"),
        ("tools/events.rs", "pub fn events() -> crate::Trail { crate::Trail }\n"),
    ]);
    assert!(!edge(&quiet, "crate", "crate::tools::events"), "{:?}", quiet.edges);
    assert!(quiet.circles().is_empty());
    let calling = crate_of(&[
        (
            "lib.rs",
            "mod tools;\npub use tools::events;\npub struct Trail;\nfn f() { events::events(); }\n",
        ),
        ("tools/mod.rs", "pub mod events;\n"),
        ("tools/events.rs", "pub fn events() -> crate::Trail { crate::Trail }\n"),
    ]);
    assert!(edge(&calling, "crate", "crate::tools::events"), "{:?}", calling.edges);
    assert_eq!(calling.circles().len(), 1);
}
