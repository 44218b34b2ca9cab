//! Rule errors: which event breaks which rule, and how.

use std::fmt;

/// The rules a log can break, each with a stable kebab-case name that
/// diagnostics and JSON print (docs/rules.md keeps the table, and a test
/// checks that the two agree).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub enum Rule {
    /// `header`
    Header,
    /// `rules-version`
    RulesVersion,
    /// `perspective`
    Perspective,
    /// `parameter`
    Parameter,
    /// `move-number`
    MoveNumber,
    /// `clock`
    Clock,
    /// `time-limit`
    TimeLimit,
    /// `timeout`
    Timeout,
    /// `extra`
    Extra,
    /// `resign`
    Resign,
    /// `result`
    Result,
    /// `after-result`
    AfterResult,
    /// `seed`
    Seed,
    /// `salt`
    Salt,
    /// `world-event`
    WorldEvent,
    /// `turn`
    Turn,
    /// `setup`
    Setup,
    /// `setup-limit`
    SetupLimit,
    /// `square`
    Square,
    /// `move`
    Move,
    /// `king-safety`
    KingSafety,
    /// `marker`
    Marker,
    /// `promotion`
    Promotion,
    /// `shop`
    Shop,
    /// `reveal`
    Reveal,
    /// `spell`
    Spell,
    /// `shot`
    Shot,
    /// `stacking`
    Stacking,
    /// `fortification`
    Fortification,
}

impl Rule {
    /// Every rule, in the order of docs/rules.md's table.
    pub const ALL: [Rule; 29] = [
        Rule::Header,
        Rule::RulesVersion,
        Rule::Perspective,
        Rule::Parameter,
        Rule::MoveNumber,
        Rule::Clock,
        Rule::TimeLimit,
        Rule::Timeout,
        Rule::Extra,
        Rule::Resign,
        Rule::Result,
        Rule::AfterResult,
        Rule::Seed,
        Rule::Salt,
        Rule::WorldEvent,
        Rule::Turn,
        Rule::Setup,
        Rule::SetupLimit,
        Rule::Square,
        Rule::Move,
        Rule::KingSafety,
        Rule::Marker,
        Rule::Promotion,
        Rule::Shop,
        Rule::Reveal,
        Rule::Spell,
        Rule::Shot,
        Rule::Stacking,
        Rule::Fortification,
    ];

    /// The stable name: `king-safety`.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Header => "header",
            Rule::RulesVersion => "rules-version",
            Rule::Perspective => "perspective",
            Rule::Parameter => "parameter",
            Rule::MoveNumber => "move-number",
            Rule::Clock => "clock",
            Rule::TimeLimit => "time-limit",
            Rule::Timeout => "timeout",
            Rule::Extra => "extra",
            Rule::Resign => "resign",
            Rule::Result => "result",
            Rule::AfterResult => "after-result",
            Rule::Seed => "seed",
            Rule::Salt => "salt",
            Rule::WorldEvent => "world-event",
            Rule::Turn => "turn",
            Rule::Setup => "setup",
            Rule::SetupLimit => "setup-limit",
            Rule::Square => "square",
            Rule::Move => "move",
            Rule::KingSafety => "king-safety",
            Rule::Marker => "marker",
            Rule::Promotion => "promotion",
            Rule::Shop => "shop",
            Rule::Reveal => "reveal",
            Rule::Spell => "spell",
            Rule::Shot => "shot",
            Rule::Stacking => "stacking",
            Rule::Fortification => "fortification",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Rule {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A broken rule, as an engine reports it before the session adds the event.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Fault {
    /// The rule broken.
    pub rule: Rule,
    /// What is wrong, in a sentence, naming what would have been legal where that helps.
    pub message: String,
    /// An earlier event the fault belongs to, when a later event exposes it
    /// (a revealed seed refutes an earlier reveal); `None`: the current event.
    pub event: Option<usize>,
}

impl Fault {
    /// A fault against `rule`.
    pub fn new(rule: Rule, message: impl Into<String>) -> Fault {
        Fault {
            rule,
            message: message.into(),
            event: None,
        }
    }

    /// The same fault, belonging to the earlier event `index`.
    pub fn at(mut self, index: usize) -> Fault {
        self.event = Some(index);
        self
    }
}

/// Where a rule error points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Place {
    /// The header (a tag value, a missing tag).
    Header,
    /// The event with this index in the log.
    Event(usize),
    /// The end of the log (something owed is missing).
    End,
}

/// A rule error: the place, the rule and the message.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RuleError {
    /// Where.
    pub place: Place,
    /// The rule broken.
    pub rule: Rule,
    /// What is wrong.
    pub message: String,
}

impl RuleError {
    /// The error of `fault` at `place`.
    pub fn at(place: Place, fault: Fault) -> RuleError {
        let place = match (place, fault.event) {
            (Place::Event(_), Some(earlier)) => Place::Event(earlier),
            _ => place,
        };
        RuleError {
            place,
            rule: fault.rule,
            message: fault.message,
        }
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}]", self.message, self.rule)
    }
}

impl std::error::Error for RuleError {}

#[cfg(test)]
mod tests {
    use super::Rule;

    /// docs/rules.md's table of rule names and `Rule` list the same rules in
    /// the same order, so that the documentation cannot drift from the code.
    #[test]
    fn rule_names_agree_with_the_docs_table() {
        let doc = include_str!("../../../docs/rules.md");
        let documented: Vec<&str> = doc
            .lines()
            .filter_map(|l| l.strip_prefix("| `"))
            .filter_map(|l| l.split('`').next())
            .collect();
        let code: Vec<&str> = Rule::ALL.iter().map(|r| r.name()).collect();
        assert_eq!(documented, code);
    }
}
