//! Tables for analysis: the one definition of each table fgn exports (its
//! columns in order, each with a name, a type, whether it may be null,
//! whether it is written by default, a one-line meaning and how a row
//! gives its value), and everything derived from it: the rows as NDJSON,
//! the rows as Parquet files, the DuckDB `columns={...}` clause and a JSON
//! description of the columns, and the check of a `--columns` list
//! (docs/analysis.md).
//!
//! Keeping one definition is what makes the outputs agree: the NDJSON a
//! reader loads with `read_json_auto`, the Parquet files and the schema
//! text cannot name a column or a type differently, because none of them
//! names one on its own.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use parquet::basic::Compression;
use parquet::column::writer::ColumnWriter;
use parquet::data_type::ByteArray;
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;

/// The type of one value: what a column, or a field of a list of
/// structs, holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scalar {
    /// `true` or `false`.
    Bool,
    /// A signed 64-bit integer.
    Int,
    /// Any text.
    Str,
    /// Text from a small set of spellings (a game, an actor, a status):
    /// written as a string, dictionary-encoded in Parquet.
    Enum,
}

/// One field of a [`ColumnType::Structs`] column.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Field {
    /// Its name.
    pub name: &'static str,
    /// Its type.
    pub ty: Scalar,
    /// Whether it may be null.
    pub nullable: bool,
}

/// What a column holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ColumnType {
    /// One value.
    Scalar(Scalar),
    /// A list of strings (`[]` for none, never null).
    StrList,
    /// A list of structs that all have these fields (`[]` for none, never
    /// null).
    Structs(&'static [Field]),
}

/// One value of a row.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Cell<'a> {
    /// No value (only in a nullable column or field).
    Null,
    /// A boolean.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A string.
    Str(Cow<'a, str>),
    /// A list of strings.
    List(Vec<Cow<'a, str>>),
    /// A list of structs, each its fields' values in order.
    Structs(Vec<Vec<Cell<'a>>>),
}

impl<'a> Cell<'a> {
    /// A string cell of a borrowed value.
    pub fn str(s: &'a str) -> Cell<'a> {
        Cell::Str(Cow::Borrowed(s))
    }

    /// An integer cell of a count (saturated at `i64::MAX`, which no count
    /// of a log reaches).
    pub fn count(n: impl TryInto<i64>) -> Cell<'a> {
        Cell::Int(n.try_into().unwrap_or(i64::MAX))
    }

    /// A value as fgn's JSON spells it: its serde spelling (`"1-0"`,
    /// `"resign"`, `"N"`, `"e4"`, `"invalid"`), so that a table and the
    /// JSON outputs cannot spell one value two ways.
    pub fn spelled<T: serde::Serialize>(v: &T) -> Cell<'a> {
        match serde_json::to_value(v) {
            Ok(serde_json::Value::String(s)) => Cell::Str(Cow::Owned(s)),
            Ok(other) => Cell::Str(Cow::Owned(other.to_string())),
            Err(_) => Cell::Null,
        }
    }

    /// A nullable cell: `Null` for `None`.
    pub fn or_null<T>(v: Option<T>, f: impl FnOnce(T) -> Cell<'a>) -> Cell<'a> {
        v.map_or(Cell::Null, f)
    }
}

/// One column of a table.
#[derive(Clone, Copy, Debug)]
pub struct Column<R: 'static> {
    /// Its name, the same in NDJSON, Parquet and the schemas.
    pub name: &'static str,
    /// Its type.
    pub ty: ColumnType,
    /// Whether a row may hold `null` in it. No column written by default
    /// may (docs/analysis.md: a reader that guesses types from the first
    /// rows types a column null in all of them as NULL and loses its later
    /// values).
    pub nullable: bool,
    /// Whether it is written without `--columns`.
    pub default: bool,
    /// What it means, in one line.
    pub doc: &'static str,
    /// Its value in a row.
    pub get: for<'a> fn(&'a R) -> Cell<'a>,
}

/// A table: its name and its columns in order.
#[derive(Debug)]
pub struct Table<R: 'static> {
    /// `events` or `games`.
    pub name: &'static str,
    /// Its columns in order.
    pub columns: &'static [Column<R>],
    /// The column the Parquet files are partitioned by (Hive-style
    /// `DIR/<column>=<value>/`), which the files themselves leave out.
    pub partition: &'static str,
}

/// The columns of a table chosen for an output, in the order written.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Selection(Vec<usize>);

impl<R: 'static> Table<R> {
    /// The columns written by default.
    pub fn default_selection(&self) -> Selection {
        Selection((0..self.columns.len()).filter(|&i| self.columns[i].default).collect())
    }

    /// The columns a `--columns` list names, in the table's order: names
    /// separated by commas, `default` for the default columns and `all`
    /// for every column. An unknown name is an error that lists the names.
    pub fn select(&self, spec: &str) -> Result<Selection, String> {
        let mut wanted = vec![false; self.columns.len()];
        for name in spec.split(',').map(str::trim) {
            match name {
                "all" => wanted.iter_mut().for_each(|w| *w = true),
                "default" => self.default_selection().0.iter().for_each(|&i| wanted[i] = true),
                _ => match self.columns.iter().position(|c| c.name == name) {
                    Some(i) => wanted[i] = true,
                    None => {
                        let names: Vec<&str> = self.columns.iter().map(|c| c.name).collect();
                        return Err(format!(
                            "--columns: the {} table has no column `{name}`; its columns are {}, or `default` or `all`",
                            self.name,
                            names.join(", ")
                        ));
                    }
                },
            }
        }
        Ok(Selection((0..self.columns.len()).filter(|&i| wanted[i]).collect()))
    }

    fn chosen<'t>(&'t self, selection: &'t Selection) -> impl Iterator<Item = &'t Column<R>> + 't {
        selection.0.iter().map(|&i| &self.columns[i])
    }

    /// A row as one line of NDJSON (with its line end), the selected
    /// columns in order: every column in every row, one JSON type each.
    pub fn write_json(&self, selection: &Selection, row: &R, out: &mut String) {
        out.push('{');
        for (i, column) in self.chosen(selection).enumerate() {
            if i > 0 {
                out.push(',');
            }
            json_string(column.name, out);
            out.push(':');
            json_cell(&(column.get)(row), column.ty, out);
        }
        out.push_str("}\n");
    }

    /// DuckDB's `columns={...}` for the selected columns, to pin their
    /// types in `read_json(..., columns=...)`.
    pub fn duckdb_columns(&self, selection: &Selection) -> String {
        let mut out = String::from("columns={");
        for (i, column) in self.chosen(selection).enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "'{}': '{}'", column.name, duckdb_type(column.ty));
        }
        out.push('}');
        out
    }

    /// The selected columns described as JSON: `{"type": "schema",
    /// "table", "columns": [{"name", "type", "nullable", "default",
    /// "doc"}]}`, the
    /// types spelled as docs/analysis.md spells them.
    pub fn json_description(&self, selection: &Selection) -> String {
        let mut out = String::from("{\"type\":\"schema\",\"table\":");
        json_string(self.name, &mut out);
        out.push_str(",\"columns\":[");
        for (i, column) in self.chosen(selection).enumerate() {
            if i > 0 {
                out.push(',');
            }
            out.push_str("{\"name\":");
            json_string(column.name, &mut out);
            out.push_str(",\"type\":");
            json_string(&type_name(column.ty), &mut out);
            let _ = write!(
                out,
                ",\"nullable\":{},\"default\":{},\"doc\":",
                column.nullable, column.default
            );
            json_string(column.doc, &mut out);
            out.push('}');
        }
        out.push_str("]}\n");
        out
    }

    /// The Parquet schema of the selected columns, as the message text of
    /// the Parquet format: the partition column left out where it is the
    /// folder's name (`skip`), kept where the file stands alone.
    fn parquet_message(&self, selection: &Selection, skip: Option<&str>) -> String {
        let mut out = format!("message {} {{\n", self.name);
        for column in self.chosen(selection).filter(|c| Some(c.name) != skip) {
            let repetition = if column.nullable { "optional" } else { "required" };
            match column.ty {
                ColumnType::Scalar(s) => {
                    let _ = writeln!(out, "  {repetition} {};", parquet_leaf(s, column.name));
                }
                ColumnType::StrList => {
                    let _ = writeln!(
                        out,
                        "  required group {} (LIST) {{ repeated group list {{ required binary element (STRING); }} }}",
                        column.name
                    );
                }
                ColumnType::Structs(fields) => {
                    let _ = write!(
                        out,
                        "  required group {} (LIST) {{ repeated group list {{ required group element {{",
                        column.name
                    );
                    for f in fields {
                        let r = if f.nullable { "optional" } else { "required" };
                        let _ = write!(out, " {r} {};", parquet_leaf(f.ty, f.name));
                    }
                    out.push_str(" } } }\n");
                }
            }
        }
        out.push('}');
        out
    }
}

/// A column type as docs/analysis.md and `--schema json` spell it.
pub fn type_name(ty: ColumnType) -> String {
    let scalar = |s: Scalar| match s {
        Scalar::Bool => "boolean",
        Scalar::Int => "integer",
        Scalar::Str => "string",
        Scalar::Enum => "enum",
    };
    match ty {
        ColumnType::Scalar(s) => scalar(s).to_string(),
        ColumnType::StrList => "list<string>".to_string(),
        ColumnType::Structs(fields) => {
            let inner: Vec<String> = fields
                .iter()
                .map(|f| format!("{} {}{}", f.name, scalar(f.ty), if f.nullable { "?" } else { "" }))
                .collect();
            format!("list<struct<{}>>", inner.join(", "))
        }
    }
}

/// A column type as DuckDB names it (what `DESCRIBE` says of the column,
/// read from NDJSON or Parquet).
pub fn duckdb_type(ty: ColumnType) -> String {
    let scalar = |s: Scalar| match s {
        Scalar::Bool => "BOOLEAN",
        Scalar::Int => "BIGINT",
        Scalar::Str | Scalar::Enum => "VARCHAR",
    };
    match ty {
        ColumnType::Scalar(s) => scalar(s).to_string(),
        ColumnType::StrList => "VARCHAR[]".to_string(),
        ColumnType::Structs(fields) => {
            let inner: Vec<String> = fields.iter().map(|f| format!("{} {}", f.name, scalar(f.ty))).collect();
            format!("STRUCT({})[]", inner.join(", "))
        }
    }
}

/// A leaf of the Parquet message: its physical type, name and logical
/// type (strings are UTF-8 byte arrays).
fn parquet_leaf(s: Scalar, name: &str) -> String {
    match s {
        Scalar::Bool => format!("boolean {name}"),
        Scalar::Int => format!("int64 {name}"),
        Scalar::Str | Scalar::Enum => format!("binary {name} (STRING)"),
    }
}

fn json_string(s: &str, out: &mut String) {
    // serde_json's escaping, written into the line without a second buffer.
    out.push_str(&serde_json::to_string(s).expect("a string always serializes"));
}

fn json_scalar(cell: &Cell, out: &mut String) {
    match cell {
        Cell::Null => out.push_str("null"),
        Cell::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Cell::Int(n) => {
            let _ = write!(out, "{n}");
        }
        Cell::Str(s) => json_string(s, out),
        // A list in a scalar's place is a bug of a table's definition; it
        // is written as null rather than as a value of another type.
        Cell::List(_) | Cell::Structs(_) => out.push_str("null"),
    }
}

fn json_cell(cell: &Cell, ty: ColumnType, out: &mut String) {
    match (cell, ty) {
        (Cell::List(items), _) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json_string(item, out);
            }
            out.push(']');
        }
        (Cell::Structs(items), ColumnType::Structs(fields)) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push('{');
                for (j, (field, value)) in fields.iter().zip(item).enumerate() {
                    if j > 0 {
                        out.push(',');
                    }
                    json_string(field.name, out);
                    out.push(':');
                    json_scalar(value, out);
                }
                out.push('}');
            }
            out.push(']');
        }
        // A list column's rows are lists: an empty one where nothing else
        // was given, so that the column keeps its one type.
        (_, ColumnType::StrList | ColumnType::Structs(_)) => out.push_str("[]"),
        (cell, ColumnType::Scalar(_)) => json_scalar(cell, out),
    }
}

/// How many rows a Parquet file's row group holds before it is written
/// out: the buffers of one row group are what the writer holds, whatever
/// the size of the archive.
pub const ROW_GROUP_ROWS: usize = 64 * 1024;

/// The name of every part file, in its partition's folder.
pub const PART_FILE: &str = "part-00000.parquet";

/// How many levels of a string column are handed to the column writer at
/// once: the strings wait in one contiguous buffer, and only this many are
/// made into the writer's values at a time.
const STRING_BATCH: usize = 4096;

/// One leaf column of a Parquet file being filled: its values, and the
/// definition and repetition levels that place them in rows and lists.
/// Strings are kept end to end in one buffer (`text`, each ending at its
/// offset in `ends`), not as one allocation each, which held a row group
/// of strings at several times its size.
#[derive(Debug, Default)]
struct Leaf {
    bools: Vec<bool>,
    ints: Vec<i64>,
    text: Vec<u8>,
    ends: Vec<usize>,
    def: Vec<i16>,
    rep: Vec<i16>,
    max_def: i16,
    max_rep: i16,
}

impl Leaf {
    fn new(max_def: i16, max_rep: i16) -> Leaf {
        Leaf {
            max_def,
            max_rep,
            ..Leaf::default()
        }
    }

    /// A value (or a null, at definition level `def`), first in its row
    /// (`rep` 0) or later in its list (`rep` 1).
    fn push(&mut self, cell: &Cell, def: i16, rep: i16) {
        if self.max_rep > 0 {
            self.rep.push(rep);
        }
        match cell {
            Cell::Null => {
                if self.max_def > 0 {
                    self.def.push(def - 1);
                }
                return;
            }
            Cell::Bool(b) => self.bools.push(*b),
            Cell::Int(n) => self.ints.push(*n),
            Cell::Str(s) => {
                self.text.extend_from_slice(s.as_bytes());
                self.ends.push(self.text.len());
            }
            Cell::List(_) | Cell::Structs(_) => return,
        }
        if self.max_def > 0 {
            self.def.push(def);
        }
    }

    /// An empty list in a row: no value, definition level 0.
    fn push_empty(&mut self) {
        self.def.push(0);
        self.rep.push(0);
    }

    fn write(&mut self, writer: &mut ColumnWriter) -> parquet::errors::Result<()> {
        let def = (self.max_def > 0).then_some(self.def.as_slice());
        let rep = (self.max_rep > 0).then_some(self.rep.as_slice());
        match writer {
            ColumnWriter::BoolColumnWriter(w) => w.write_batch(&self.bools, def, rep),
            ColumnWriter::Int64ColumnWriter(w) => w.write_batch(&self.ints, def, rep),
            ColumnWriter::ByteArrayColumnWriter(w) => self.write_strings(w),
            _ => Err(parquet::errors::ParquetError::General(
                "a table column of a type fgn does not write".into(),
            )),
        }?;
        self.bools.clear();
        self.ints.clear();
        self.text.clear();
        self.ends.clear();
        self.def.clear();
        self.rep.clear();
        Ok(())
    }
}

impl Leaf {
    /// The strings handed to `w` a batch at a time, each batch ending
    /// where a row ends (a list's values stay in one batch).
    fn write_strings(
        &self,
        w: &mut parquet::column::writer::ColumnWriterImpl<'_, parquet::data_type::ByteArrayType>,
    ) -> parquet::errors::Result<usize> {
        let levels = if self.max_def > 0 {
            self.def.len()
        } else {
            self.ends.len()
        };
        let (mut level, mut value) = (0, 0);
        while level < levels {
            let mut end = (level + STRING_BATCH).min(levels);
            while self.max_rep > 0 && end < levels && self.rep[end] != 0 {
                end += 1;
            }
            let def = (self.max_def > 0).then(|| &self.def[level..end]);
            let values = def.map_or(end - level, |d| d.iter().filter(|&&d| d == self.max_def).count());
            let batch: Vec<ByteArray> = (value..value + values)
                .map(|i| {
                    let start = if i == 0 { 0 } else { self.ends[i - 1] };
                    ByteArray::from(self.text[start..self.ends[i]].to_vec())
                })
                .collect();
            let rep = (self.max_rep > 0).then(|| &self.rep[level..end]);
            w.write_batch(&batch, def, rep)?;
            (level, value) = (end, value + values);
        }
        Ok(value)
    }
}

/// One Parquet file being filled: its writer, and the leaves of the row
/// group it buffers.
struct Sheet<W: Write + Send> {
    writer: SerializedFileWriter<W>,
    leaves: Vec<Leaf>,
    rows: usize,
}

impl<W: Write + Send> Sheet<W> {
    /// A file of `table`'s `selection` written into `out`, without the
    /// column `skip` (the partition, where the folder names it).
    fn new<R>(
        table: &Table<R>,
        selection: &Selection,
        skip: Option<&str>,
        out: W,
        schema: Arc<parquet::schema::types::Type>,
        properties: Arc<WriterProperties>,
    ) -> parquet::errors::Result<Sheet<W>> {
        let writer = SerializedFileWriter::new(out, schema, properties)?;
        let mut leaves = Vec::new();
        for column in table.chosen(selection).filter(|c| Some(c.name) != skip) {
            match column.ty {
                ColumnType::Scalar(_) => leaves.push(Leaf::new(i16::from(column.nullable), 0)),
                ColumnType::StrList => leaves.push(Leaf::new(1, 1)),
                ColumnType::Structs(fields) => {
                    leaves.extend(fields.iter().map(|f| Leaf::new(1 + i16::from(f.nullable), 1)));
                }
            }
        }
        Ok(Sheet {
            writer,
            leaves,
            rows: 0,
        })
    }

    /// Adds a row's selected values (but `skip`'s) to the row group,
    /// written out when full.
    fn push<R>(
        &mut self,
        table: &Table<R>,
        selection: &Selection,
        skip: Option<&str>,
        row: &R,
    ) -> parquet::errors::Result<()> {
        let mut leaf = 0;
        for column in table.chosen(selection).filter(|c| Some(c.name) != skip) {
            let cell = (column.get)(row);
            match column.ty {
                ColumnType::Scalar(_) => {
                    self.leaves[leaf].push(&cell, 1, 0);
                    leaf += 1;
                }
                ColumnType::StrList => {
                    let l = &mut self.leaves[leaf];
                    match &cell {
                        Cell::List(items) if !items.is_empty() => {
                            for (i, item) in items.iter().enumerate() {
                                l.push(&Cell::Str(Cow::Borrowed(item.as_ref())), 1, i16::from(i > 0));
                            }
                        }
                        _ => l.push_empty(),
                    }
                    leaf += 1;
                }
                ColumnType::Structs(fields) => {
                    for (f, field) in fields.iter().enumerate() {
                        let l = &mut self.leaves[leaf + f];
                        match &cell {
                            Cell::Structs(items) if !items.is_empty() => {
                                for (i, item) in items.iter().enumerate() {
                                    let value = item.get(f).unwrap_or(&Cell::Null);
                                    let def = 1 + i16::from(field.nullable);
                                    l.push(value, def, i16::from(i > 0));
                                }
                            }
                            _ => l.push_empty(),
                        }
                    }
                    leaf += fields.len();
                }
            }
        }
        self.rows += 1;
        if self.rows >= ROW_GROUP_ROWS {
            self.flush()?;
        }
        Ok(())
    }

    /// Writes the buffered rows out as a row group.
    fn flush(&mut self) -> parquet::errors::Result<()> {
        let mut group = self.writer.next_row_group()?;
        let mut leaves = self.leaves.iter_mut();
        while let Some(mut column) = group.next_column()? {
            if let Some(leaf) = leaves.next() {
                leaf.write(column.untyped())?;
            }
            column.close()?;
        }
        group.close()?;
        self.rows = 0;
        Ok(())
    }

    /// Writes out what is buffered and the file's footer, and hands back
    /// what it was written into.
    fn finish(mut self) -> parquet::errors::Result<W> {
        if self.rows > 0 {
            self.flush()?;
        }
        self.writer.into_inner()
    }
}

/// One partition's Parquet file being written.
struct Part {
    sheet: Sheet<File>,
    written: PathBuf,
    path: PathBuf,
}

impl std::fmt::Debug for Part {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Part")
            .field("path", &self.path)
            .field("rows", &self.sheet.rows)
            .finish()
    }
}

/// A table written as Parquet files into a folder, partitioned Hive-style
/// by the table's partition column (`DIR/game=<value>/part-00000.parquet`),
/// as rows come: each partition's rows are buffered up to
/// [`ROW_GROUP_ROWS`] and written out as a row group, so that memory does
/// not grow with the number of rows. Each file is written under a
/// temporary name and renamed when [`ParquetWriter::finish`] closes it,
/// so that a reader of `DIR/**/*.parquet` never sees a half-written one.
#[derive(Debug)]
pub struct ParquetWriter<R: 'static> {
    table: &'static Table<R>,
    selection: Selection,
    dir: PathBuf,
    schema: Arc<parquet::schema::types::Type>,
    properties: Arc<WriterProperties>,
    parts: BTreeMap<String, Part>,
}

/// An error writing Parquet files, worded for the user.
pub type WriteError = String;

impl<R: 'static> ParquetWriter<R> {
    /// A writer of `table`'s selected columns into `dir`, which must exist.
    pub fn new(table: &'static Table<R>, selection: Selection, dir: &Path) -> Result<Self, WriteError> {
        let (schema, properties) = schema_and_properties(table, &selection, Some(table.partition))?;
        Ok(ParquetWriter {
            table,
            selection,
            dir: dir.to_path_buf(),
            schema,
            properties,
            parts: BTreeMap::new(),
        })
    }

    /// The part files already in `dir` (from an earlier run), which a new
    /// run would overwrite: `DIR/<partition>=*/part-*.parquet`.
    pub fn existing_parts(table: &Table<R>, dir: &Path) -> Vec<PathBuf> {
        let prefix = format!("{}=", table.partition);
        let mut found = Vec::new();
        let Ok(entries) = std::fs::read_dir(dir) else {
            return found;
        };
        for entry in entries.flatten() {
            if !entry.file_name().to_string_lossy().starts_with(&prefix) {
                continue;
            }
            let Ok(files) = std::fs::read_dir(entry.path()) else {
                continue;
            };
            for file in files.flatten() {
                let name = file.file_name().to_string_lossy().into_owned();
                if name.starts_with("part-") && name.ends_with(".parquet") {
                    found.push(file.path());
                }
            }
        }
        found.sort();
        found
    }

    /// Adds a row: to its partition's row group, written out when full.
    pub fn push(&mut self, row: &R) -> Result<(), WriteError> {
        let table = self.table;
        let key = table
            .columns
            .iter()
            .find(|c| c.name == table.partition)
            .map(|c| match (c.get)(row) {
                Cell::Str(s) => s.into_owned(),
                _ => String::new(),
            })
            .unwrap_or_default();
        if !self.parts.contains_key(&key) {
            let part = self.open(&key)?;
            self.parts.insert(key.clone(), part);
        }
        let Some(part) = self.parts.get_mut(&key) else {
            return Ok(());
        };
        let name = part.written.display().to_string();
        part.sheet
            .push(table, &self.selection, Some(table.partition), row)
            .map_err(|e| format!("{name}: {e}"))
    }

    fn open(&self, key: &str) -> Result<Part, WriteError> {
        let folder = self.dir.join(format!("{}={}", self.table.partition, hive_escape(key)));
        std::fs::create_dir_all(&folder)
            .map_err(|e| format!("{}: cannot make the directory: {e}", folder.display()))?;
        let path = folder.join(PART_FILE);
        let written = folder.join(format!("{PART_FILE}.tmp"));
        let file = File::create(&written).map_err(|e| format!("{}: cannot write: {e}", written.display()))?;
        let sheet = Sheet::new(
            self.table,
            &self.selection,
            Some(self.table.partition),
            file,
            self.schema.clone(),
            self.properties.clone(),
        )
        .map_err(|e| format!("{}: {e}", written.display()))?;
        Ok(Part { sheet, written, path })
    }

    /// Writes out what is buffered and closes every file, renaming each to
    /// its final name; returns the files written.
    pub fn finish(self) -> Result<Vec<PathBuf>, WriteError> {
        let mut done = Vec::new();
        for (_, part) in self.parts {
            part.sheet
                .finish()
                .map_err(|e| format!("{}: {e}", part.written.display()))?;
            std::fs::rename(&part.written, &part.path)
                .map_err(|e| format!("{}: cannot rename: {e}", part.written.display()))?;
            done.push(part.path);
        }
        Ok(done)
    }
}

/// The Parquet schema of `table`'s `selection` without the column `skip`,
/// and the properties every file fgn writes has (snappy, dictionaries).
#[allow(clippy::type_complexity)]
fn schema_and_properties<R>(
    table: &Table<R>,
    selection: &Selection,
    skip: Option<&str>,
) -> Result<(Arc<parquet::schema::types::Type>, Arc<WriterProperties>), WriteError> {
    let message = table.parquet_message(selection, skip);
    let schema = parse_message_type(&message).map_err(|e| format!("the Parquet schema: {e}"))?;
    let properties = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .set_dictionary_enabled(true)
        .set_created_by(format!("fgn {}", env!("CARGO_PKG_VERSION")))
        .build();
    Ok((Arc::new(schema), Arc::new(properties)))
}

/// A table written as one Parquet file in memory, every selected column
/// in it (the partition column too, in its place, since no folder names
/// it): what a program that wants the table as values rather than files
/// reads (the Python package hands it to pyarrow). The columns and their
/// types are the files' of [`ParquetWriter`], from the same definition.
#[derive(Debug)]
pub struct ParquetBuffer<R: 'static> {
    table: &'static Table<R>,
    selection: Selection,
    sheet: Sheet<Vec<u8>>,
}

impl<W: Write + Send> std::fmt::Debug for Sheet<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sheet").field("rows", &self.rows).finish()
    }
}

impl<R: 'static> ParquetBuffer<R> {
    /// An empty file of `table`'s selected columns.
    pub fn new(table: &'static Table<R>, selection: Selection) -> Result<Self, WriteError> {
        let (schema, properties) = schema_and_properties(table, &selection, None)?;
        let sheet = Sheet::new(table, &selection, None, Vec::new(), schema, properties)
            .map_err(|e| format!("the Parquet file: {e}"))?;
        Ok(ParquetBuffer {
            table,
            selection,
            sheet,
        })
    }

    /// Adds a row (row groups of [`ROW_GROUP_ROWS`] are encoded as they
    /// fill, so that what is held is the encoded file and one group).
    pub fn push(&mut self, row: &R) -> Result<(), WriteError> {
        self.sheet
            .push(self.table, &self.selection, None, row)
            .map_err(|e| format!("the Parquet file: {e}"))
    }

    /// The file's bytes, its footer written.
    pub fn finish(self) -> Result<Vec<u8>, WriteError> {
        self.sheet.finish().map_err(|e| format!("the Parquet file: {e}"))
    }
}

/// A partition value as a folder name, as Hive writes it: the characters
/// a path or Hive's reader treats specially escaped as `%XX`, and no value
/// at all as `__HIVE_DEFAULT_PARTITION__` (which Spark and DuckDB read as
/// null).
pub fn hive_escape(value: &str) -> String {
    if value.is_empty() {
        return "__HIVE_DEFAULT_PARTITION__".to_string();
    }
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') && !(c == '.' && out.is_empty()) {
            out.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Row {
        name: &'static str,
        n: i64,
        tags: Vec<&'static str>,
        note: Option<&'static str>,
    }

    static COLUMNS: [Column<Row>; 4] = [
        Column {
            name: "name",
            ty: ColumnType::Scalar(Scalar::Enum),
            nullable: false,
            default: true,
            doc: "the partition",
            get: |r| Cell::str(r.name),
        },
        Column {
            name: "n",
            ty: ColumnType::Scalar(Scalar::Int),
            nullable: false,
            default: true,
            doc: "a count",
            get: |r| Cell::Int(r.n),
        },
        Column {
            name: "tags",
            ty: ColumnType::StrList,
            nullable: false,
            default: false,
            doc: "a list",
            get: |r| Cell::List(r.tags.iter().map(|t| Cow::Borrowed(*t)).collect()),
        },
        Column {
            name: "note",
            ty: ColumnType::Scalar(Scalar::Str),
            nullable: true,
            default: false,
            doc: "sparse",
            get: |r| Cell::or_null(r.note, Cell::str),
        },
    ];
    static TABLE: Table<Row> = Table {
        name: "test",
        columns: &COLUMNS,
        partition: "name",
    };

    #[test]
    fn a_selection_names_known_columns_and_refuses_others() {
        assert_eq!(TABLE.default_selection(), Selection(vec![0, 1]));
        assert_eq!(TABLE.select("note,n"), Ok(Selection(vec![1, 3])));
        assert_eq!(TABLE.select("all"), Ok(Selection(vec![0, 1, 2, 3])));
        assert_eq!(TABLE.select("default,tags"), Ok(Selection(vec![0, 1, 2])));
        let e = TABLE.select("n,nope").unwrap_err();
        assert!(e.contains("`nope`") && e.contains("name, n, tags, note"), "{e}");
    }

    #[test]
    fn rows_are_json_with_every_selected_column_and_the_schemas_agree() {
        let all = TABLE.select("all").unwrap();
        let mut out = String::new();
        let row = Row {
            name: "a\"b",
            n: -3,
            tags: vec![],
            note: None,
        };
        TABLE.write_json(&all, &row, &mut out);
        assert_eq!(out, "{\"name\":\"a\\\"b\",\"n\":-3,\"tags\":[],\"note\":null}\n");
        assert_eq!(
            TABLE.duckdb_columns(&all),
            "columns={'name': 'VARCHAR', 'n': 'BIGINT', 'tags': 'VARCHAR[]', 'note': 'VARCHAR'}"
        );
        let description: serde_json::Value = serde_json::from_str(&TABLE.json_description(&all)).unwrap();
        assert_eq!(description["columns"][2]["type"], "list<string>");
        assert_eq!(description["columns"][3]["nullable"], true);
    }

    #[test]
    fn hive_folder_names_escape_what_a_path_cannot_hold() {
        assert_eq!(hive_escape("survival-chess"), "survival-chess");
        assert_eq!(hive_escape(""), "__HIVE_DEFAULT_PARTITION__");
        assert_eq!(hive_escape("a/b=c"), "a%2Fb%3Dc");
        assert_eq!(hive_escape(".."), "%2E.");
    }

    #[test]
    fn parquet_files_are_written_per_partition_and_read_back() {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let dir = std::env::temp_dir().join(format!("fgn-table-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let all = TABLE.select("all").unwrap();
        let mut writer = ParquetWriter::new(&TABLE, all, &dir).unwrap();
        for i in 0..5 {
            let row = Row {
                name: if i % 2 == 0 { "even" } else { "odd" },
                n: i,
                tags: vec!["x"; i as usize],
                note: (i == 3).then_some("three"),
            };
            writer.push(&row).unwrap();
        }
        let files = writer.finish().unwrap();
        assert_eq!(
            files,
            [
                dir.join("name=even").join(PART_FILE),
                dir.join("name=odd").join(PART_FILE)
            ]
        );
        let even = SerializedFileReader::new(File::open(&files[0]).unwrap()).unwrap();
        assert_eq!(even.metadata().file_metadata().num_rows(), 3);
        let rows: Vec<String> = even
            .get_row_iter(None)
            .unwrap()
            .map(|r| r.unwrap().to_string())
            .collect();
        assert_eq!(
            rows,
            [
                "{n: 0, tags: [], note: null}",
                "{n: 2, tags: [\"x\", \"x\"], note: null}",
                "{n: 4, tags: [\"x\", \"x\", \"x\", \"x\"], note: null}"
            ]
        );
        assert_eq!(
            ParquetWriter::existing_parts(&TABLE, &dir),
            files,
            "a second run finds the parts"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_buffer_holds_one_file_with_the_partition_column_in_its_place() {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let all = TABLE.select("all").unwrap();
        let mut buffer = ParquetBuffer::new(&TABLE, all).unwrap();
        for i in 0..3 {
            let row = Row {
                name: if i == 1 { "odd" } else { "even" },
                n: i,
                tags: vec!["x"; i as usize],
                note: (i == 2).then_some("two"),
            };
            buffer.push(&row).unwrap();
        }
        // Written out to be read back by the crate's file reader.
        let path = std::env::temp_dir().join(format!("fgn-table-buffer-{}.parquet", std::process::id()));
        std::fs::write(&path, buffer.finish().unwrap()).unwrap();
        let reader = SerializedFileReader::new(File::open(&path).unwrap()).unwrap();
        let rows: Vec<String> = reader
            .get_row_iter(None)
            .unwrap()
            .map(|r| r.unwrap().to_string())
            .collect();
        assert_eq!(
            rows,
            [
                "{name: \"even\", n: 0, tags: [], note: null}",
                "{name: \"odd\", n: 1, tags: [\"x\"], note: null}",
                "{name: \"even\", n: 2, tags: [\"x\", \"x\"], note: \"two\"}"
            ],
            "the rows in the order pushed, every column in the table's order"
        );
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn strings_and_lists_longer_than_a_batch_are_written_whole() {
        use parquet::file::reader::{FileReader, SerializedFileReader};
        let dir = std::env::temp_dir().join(format!("fgn-table-batches-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let all = TABLE.select("all").unwrap();
        let mut writer = ParquetWriter::new(&TABLE, all, &dir).unwrap();
        let rows = 3 * STRING_BATCH + 7;
        for i in 0..rows {
            let row = Row {
                name: "one",
                n: i as i64,
                tags: vec!["t"; i % 4],
                note: (i % 5 == 0).then_some("five"),
            };
            writer.push(&row).unwrap();
        }
        let files = writer.finish().unwrap();
        let reader = SerializedFileReader::new(File::open(&files[0]).unwrap()).unwrap();
        let read: Vec<String> = reader
            .get_row_iter(None)
            .unwrap()
            .map(|r| r.unwrap().to_string())
            .collect();
        assert_eq!(read.len(), rows);
        let last = rows - 1;
        let tags = vec!["\"t\""; last % 4].join(", ");
        assert_eq!(read[last], format!("{{n: {last}, tags: [{tags}], note: null}}"));
        let (five, eight) = (STRING_BATCH + 9, STRING_BATCH + 8);
        assert_eq!((five % 5, five % 4, eight % 5), (0, 1, 4));
        assert_eq!(read[five], format!("{{n: {five}, tags: [\"t\"], note: \"five\"}}"));
        assert_eq!(read[eight], format!("{{n: {eight}, tags: [], note: null}}"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
