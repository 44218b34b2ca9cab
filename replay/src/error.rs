//! Rule errors: which event breaks which rule, and how.

use std::fmt;

/// A broken rule, as an engine reports it before the session adds the event.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Fault {
    /// A stable, kebab-case name of the rule (documented in docs/rules.md).
    pub rule: &'static str,
    /// What is wrong, in a sentence, naming what would have been legal where that helps.
    pub message: String,
    /// An earlier event the fault belongs to, when a later event exposes it
    /// (a revealed seed refutes an earlier reveal); `None`: the current event.
    pub event: Option<usize>,
}

impl Fault {
    /// A fault against `rule`.
    pub fn new(rule: &'static str, message: impl Into<String>) -> Fault {
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
    pub rule: &'static str,
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
