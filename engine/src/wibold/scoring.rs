//! Who wins: the most virtues, KARITAS breaking ties ("Charity is worth
//! double"), and the optional bonus for complementary pairs.

use std::fmt;
use std::str::FromStr;

use super::virtues::VirtueSet;
use crate::names::{UnknownName, parse_name};

/// How a player's score is counted at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Scoring {
    /// One point per virtue owned: Wibold's rule.
    Virtues,
    /// One point per virtue plus one per owned complementary pair (two
    /// virtues whose sums add to 21): the optional rule drawn from Wibold's
    /// aesthetic.
    Pairs,
}

impl Scoring {
    pub const ALL: [Scoring; 2] = [Scoring::Virtues, Scoring::Pairs];
    pub const fn name(self) -> &'static str {
        match self {
            Scoring::Virtues => "virtues",
            Scoring::Pairs => "pairs",
        }
    }
    /// A player's score for the virtues he holds.
    #[inline]
    pub fn score(self, held: VirtueSet) -> u32 {
        match self {
            Scoring::Virtues => held.len(),
            Scoring::Pairs => held.len() + complementary_pairs(held),
        }
    }
}

impl fmt::Display for Scoring {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Scoring {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Scoring, UnknownName> {
        parse_name(s, "scoring", &Scoring::ALL, Scoring::name)
    }
}

/// The complementary pairs among a player's virtues: two virtues are
/// complementary when the sums of their rolls add to 21 (PAX, 6, with
/// CONFESSIO, 15). Every such pair counts once, so a sum shared by several
/// virtues makes several pairs: holding PAX and JUSTITIA (6) with CONFESSIO
/// and HILARITAS (15) makes four pairs. A virtue's own sum never pairs with
/// itself (no sum is 10.5).
#[inline]
pub fn complementary_pairs(held: VirtueSet) -> u32 {
    let mut pairs = 0;
    for s in 3..=10 {
        pairs += (held & VirtueSet::with_sum(s)).len() * (held & VirtueSet::with_sum(21 - s)).len();
    }
    pairs
}

/// A set of seats (players numbered from 0 in the order they roll).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct Seats(pub u8);

impl Seats {
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub const fn contains(self, seat: usize) -> bool {
        self.0 >> seat & 1 != 0
    }
    pub fn iter(self) -> impl Iterator<Item = usize> {
        (0..8).filter(move |&s| self.contains(s))
    }
}

/// The end of a game: who won, and how ties went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Verdict {
    /// The winners: one seat, or several sharing the win.
    pub winners: Seats,
    /// Several players had the top score before KARITAS was counted.
    pub tied: bool,
    /// The tie was broken: KARITAS's extra point left one winner.
    pub karitas_broke_tie: bool,
}

impl Verdict {
    /// Decides a game from the players' scores and the seat holding KARITAS:
    /// the top score wins; on a tie, the holder of KARITAS adds one to his
    /// score (whether or not he is among the tied, as the rule says); a tie
    /// that remains is shared.
    pub fn decide(scores: &[u32], karitas: Option<usize>) -> Verdict {
        let top = |bonus: Option<usize>| {
            let score = |s: usize| scores[s] + u32::from(bonus == Some(s));
            let best = (0..scores.len()).map(score).max().unwrap_or(0);
            Seats((0..scores.len()).filter(|&s| score(s) == best).fold(0, |m, s| m | 1 << s))
        };
        let first = top(None);
        if first.len() <= 1 {
            return Verdict { winners: first, tied: false, karitas_broke_tie: false };
        }
        let winners = top(karitas);
        Verdict { winners, tied: true, karitas_broke_tie: winners.len() == 1 }
    }

    /// Whether the win is shared.
    pub const fn shared(&self) -> bool {
        self.winners.len() > 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wibold::Virtue;

    fn set(names: &[&str]) -> VirtueSet {
        names.iter().map(|n| n.parse::<Virtue>().unwrap()).collect()
    }

    #[test]
    fn pairs_count_every_couple_of_sums_adding_to_21() {
        assert_eq!(complementary_pairs(set(&["PAX", "CONFESSIO"])), 1);
        assert_eq!(complementary_pairs(set(&["PAX", "SUSPIRATIO", "HILARITAS"])), 2);
        assert_eq!(complementary_pairs(set(&["PAX", "JUSTITIA", "CONFESSIO", "HILARITAS"])), 4);
        assert_eq!(complementary_pairs(set(&["KARITAS", "HUMILITAS", "FIDES"])), 1);
        assert_eq!(complementary_pairs(set(&["PAX", "JUSTITIA"])), 0);
        // All 56: Σ over sums s ≤ 10 of n(s)·n(21−s) = Σ n(s)² for s ≤ 10.
        assert_eq!(complementary_pairs(VirtueSet::ALL), 1 + 1 + 4 + 9 + 16 + 25 + 36 + 36);
        assert_eq!(Scoring::Pairs.score(set(&["PAX", "CONFESSIO"])), 3);
    }

    #[test]
    fn verdicts() {
        let v = Verdict::decide(&[30, 26], Some(1));
        assert_eq!((v.winners, v.tied, v.karitas_broke_tie), (Seats(1), false, false));
        // A tie broken by the holder of KARITAS among the tied.
        let v = Verdict::decide(&[28, 28], Some(1));
        assert_eq!((v.winners, v.tied, v.karitas_broke_tie), (Seats(2), true, true));
        // The holder outside the tie leaves it.
        let v = Verdict::decide(&[20, 20, 16], Some(2));
        assert_eq!((v.winners, v.tied, v.karitas_broke_tie), (Seats(3), true, false));
        // One short of the tie, his extra point joins it.
        let v = Verdict::decide(&[19, 19, 18], Some(2));
        assert_eq!((v.winners, v.karitas_broke_tie), (Seats(7), false));
        assert!(v.shared());
        // Nobody holds KARITAS (possible only mid-game): the tie stays.
        let v = Verdict::decide(&[5, 5], None);
        assert_eq!(v.winners, Seats(3));
    }

    #[test]
    fn scoring_names_round_trip() {
        for s in Scoring::ALL {
            assert_eq!(s.to_string().parse::<Scoring>(), Ok(s));
        }
        assert!("double".parse::<Scoring>().unwrap_err().to_string().contains("'double'"));
    }
}
