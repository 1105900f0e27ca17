//! The names of fixed choices (boards, dice readings, rules, strategies):
//! one way to read them, and one error that says what was expected.

use std::fmt;

/// A name that is none of a choice's names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownName {
    /// What the name should name: `board`, `dice reading`, ...
    pub what: &'static str,
    /// The name given.
    pub given: String,
    /// The names there are.
    pub expected: Vec<&'static str>,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let list = match self.expected.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        write!(f, "unknown {} '{}' (expected {list})", self.what, self.given)
    }
}

impl std::error::Error for UnknownName {}

/// The one of `all` whose `name` is `text`.
pub fn parse_name<T: Copy>(
    text: &str,
    what: &'static str,
    all: &[T],
    name: impl Fn(T) -> &'static str,
) -> Result<T, UnknownName> {
    all.iter().copied().find(|&v| name(v) == text).ok_or_else(|| UnknownName {
        what,
        given: text.to_string(),
        expected: all.iter().map(|&v| name(v)).collect(),
    })
}

/// `n` and the noun, singular for one: `1 man`, `3 men`, `1 thread`.
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_read_or_refused_with_the_list() {
        let all = [1u8, 2, 3];
        let name = |v: u8| ["one", "two", "three"][v as usize - 1];
        assert_eq!(parse_name("two", "number", &all, name), Ok(2));
        let e = parse_name("four", "number", &all, name).unwrap_err();
        assert_eq!(e.to_string(), "unknown number 'four' (expected one, two or three)");
        assert_eq!(
            parse_name("x", "kind", &[1u8], |_| "only").unwrap_err().to_string(),
            "unknown kind 'x' (expected only)"
        );
    }

    /// Every choice of the engine reads its own names and refuses others
    /// with the one typed error, listing its names.
    #[test]
    fn every_choice_refuses_with_its_names() {
        fn check<T: Copy + std::str::FromStr<Err = UnknownName> + PartialEq + fmt::Debug>(
            what: &str,
            all: &[T],
            name: fn(T) -> &'static str,
        ) {
            for &v in all {
                assert_eq!(name(v).parse::<T>(), Ok(v));
            }
            let e = "nonesuch".parse::<T>().unwrap_err();
            assert_eq!((e.what, e.given.as_str()), (what, "nonesuch"));
            assert_eq!(e.expected, all.iter().map(|&v| name(v)).collect::<Vec<_>>());
        }
        use crate::{merels, rithmo, wibold};
        check("board", &merels::BoardKind::ALL, merels::BoardKind::name);
        check("dice reading", &merels::Dice::ALL, merels::Dice::name);
        check("blocked rule", &merels::Blocked::ALL, merels::Blocked::name);
        check("placement-mills rule", &merels::PlacementMills::ALL, merels::PlacementMills::name);
        check("rules preset", &rithmo::Preset::ALL, rithmo::Preset::name);
        check("rules", &wibold::Rules::ALL, wibold::Rules::name);
        check("scoring", &wibold::Scoring::ALL, wibold::Scoring::name);
        check("strategy", &wibold::Strategy::ALL, wibold::Strategy::name);
    }
}
