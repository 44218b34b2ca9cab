//! Value parsers of arguments, shared by the commands' argument
//! definitions.

/// The value parser of an argument that is one of a library's named values
/// (a game, an outcome, a reason), from the library's own list of them:
/// the names are clap's possible values, so that `--help` lists them, the
/// shell completions offer them, and a typo gets clap's error with the
/// nearest name as a tip.
pub fn named<T: Copy + Send + Sync + 'static>(
    all: &'static [T],
    name: fn(T) -> &'static str,
) -> impl clap::builder::TypedValueParser<Value = T> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(all.iter().map(|&value| name(value))).map(move |text| {
        *all.iter()
            .find(|&&value| name(value) == text)
            .expect("clap accepts only the possible values")
    })
}
